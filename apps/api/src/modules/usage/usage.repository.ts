import { sql } from 'drizzle-orm';
import { SEM_CLASSIFICACAO_NOME } from '@paineis/contract/classifications';
import { MAX_VISUALIZACOES_DETALHE, type UsoDetalhePainel, type UsoDia } from '@paineis/contract/usage';
import { rows, type Db } from '../../db/client.ts';

export interface NewOpening {
  id: string;
  momento: Date;
  usuarioId: string;
  painelId: number;
  identidade: string | null;
  papeis: string[];
  requestId: string | null;
  tokenDoCache: boolean;
  /** Openings this record stands for (opening-recorder.ts folds repeats within a batch into one). */
  quantidade: number;
  carregadoMs: number | null;
  renderizadoMs: number | null;
  erros: string[];
}

/** The viewer's report on one view: only a view of this person and panel takes it. */
export interface OpeningTimes {
  id: string;
  usuarioId: string;
  painelId: number;
  carregadoMs?: number | null | undefined;
  renderizadoMs?: number | null | undefined;
  erros?: string[] | undefined;
}

/**
 * The whole batch in one statement with one parameter, a JSON array that the database turns into rows: a parameter
 * per value (11 a row, built by the query builder and sent one by one) cost several times more of the event loop
 * for each view. A view written already (a retry after a lost answer) is skipped.
 */
export async function insertOpenings(db: Db, views: NewOpening[]): Promise<void> {
  await db.execute(sql`
    insert into visualizacoes (id, momento, usuario_id, painel_id, identidade, papeis, request_id, token_do_cache,
                               quantidade, carregado_ms, renderizado_ms, erros)
    select id, momento, usuario_id, painel_id, identidade, papeis, request_id, token_do_cache, quantidade,
           carregado_ms, renderizado_ms, erros
    from json_to_recordset(${JSON.stringify(
      views.map((v) => ({
        id: v.id,
        momento: v.momento.toISOString(),
        usuario_id: v.usuarioId,
        painel_id: v.painelId,
        identidade: v.identidade,
        papeis: v.papeis,
        request_id: v.requestId,
        token_do_cache: v.tokenDoCache,
        quantidade: v.quantidade,
        carregado_ms: v.carregadoMs,
        renderizado_ms: v.renderizadoMs,
        erros: v.erros,
      })),
    )}::json) as v(id uuid, momento timestamptz, usuario_id text, painel_id int, identidade text, papeis text[],
                   request_id text, token_do_cache boolean, quantidade int, carregado_ms int, renderizado_ms int,
                   erros text[])
    on conflict do nothing`);
}

/** Each report fills in what it brings; a report naming someone else's view, or none, changes nothing. */
export async function updateOpeningTimes(db: Db, reports: OpeningTimes[]): Promise<void> {
  await db.execute(sql`
    update visualizacoes v set
      carregado_ms = coalesce(r.carregado_ms, v.carregado_ms),
      renderizado_ms = coalesce(r.renderizado_ms, v.renderizado_ms),
      erros = case when cardinality(r.erros) > 0 then r.erros else v.erros end
    from json_to_recordset(${JSON.stringify(
      reports.map((r) => ({
        id: r.id,
        usuario_id: r.usuarioId,
        painel_id: r.painelId,
        carregado_ms: r.carregadoMs ?? null,
        renderizado_ms: r.renderizadoMs ?? null,
        erros: r.erros ?? [],
      })),
    )}::json) as r(id uuid, usuario_id text, painel_id int, carregado_ms int, renderizado_ms int, erros text[])
    where v.id = r.id and v.usuario_id = r.usuario_id and v.painel_id = r.painel_id`);
}

/** The first instant of the period: midnight, `dias - 1` days ago, in the portal's time zone. */
const periodStart = (dias: number, timeZone: string) =>
  sql`(date_trunc('day', now() at time zone ${timeZone}) - make_interval(days => ${dias - 1})) at time zone ${timeZone}`;

/** Views from `start` (to `end`, or on), one row each: what usage-snapshot.ts holds of them. */
export interface ViewRow {
  painelId: number;
  /** The calendar day in the portal's time zone, YYYY-MM-DD. */
  dia: string;
  usuarioId: string | null;
  carregadoMs: number | null;
  renderizadoMs: number | null;
  comErro: boolean;
  quantidade: number;
  /** Milliseconds since the epoch. */
  momento: number;
}

export async function viewRowsSince(
  db: Db,
  timeZone: string,
  start: Date,
  end: Date | null = null,
): Promise<ViewRow[]> {
  return rows<ViewRow>(
    db,
    sql`
    select painel_id as "painelId", to_char(momento at time zone ${timeZone}, 'YYYY-MM-DD') as dia,
      usuario_id as "usuarioId", carregado_ms as "carregadoMs", renderizado_ms as "renderizadoMs",
      cardinality(erros) > 0 as "comErro", quantidade, (extract(epoch from momento) * 1000)::float8 as momento
    from visualizacoes
    where momento >= ${start.toISOString()} ${end ? sql`and momento < ${end.toISOString()}` : sql``}`,
  );
}

/** Views and distinct people per calendar day (in the portal's time zone), days with views only. */
export async function viewsPerDayBetween(db: Db, timeZone: string, start: Date, end: Date | null): Promise<UsoDia[]> {
  return rows<UsoDia>(
    db,
    sql`
    select to_char(momento at time zone ${timeZone}, 'YYYY-MM-DD') as dia, sum(quantidade)::int as visualizacoes,
      count(distinct usuario_id)::int as pessoas
    from visualizacoes
    where momento >= ${start.toISOString()} ${end ? sql`and momento < ${end.toISOString()}` : sql``}
    group by 1`,
  );
}

/** Every panel, by id, with its name and classification's: the rows of '/uso' before their figures. */
export async function panelsForUsage(
  db: Db,
): Promise<{ painelId: number; nomePainel: string; classificacaoNome: string }[]> {
  return rows(
    db,
    sql`
    select p.id as "painelId", p.nome_painel as "nomePainel", coalesce(c.nome, ${SEM_CLASSIFICACAO_NOME}) as "classificacaoNome"
    from paineis p left join classificacoes c on c.id = p.classificacao_id`,
  );
}

/**
 * '/uso/sem-login''s whole answer, as JSON made by the database: active people without a sign-in since the period
 * began, by name, up to the whole directory (tens of thousands), which as rows and objects would take several times
 * longer on the embedded database.
 */
export async function peopleWithoutSignInJson(db: Db, dias: number, timeZone: string): Promise<string> {
  // row_to_json over an ordered subquery: about twice as fast as json_build_object and to_char per row.
  const [found] = await rows<{ json: string }>(
    db,
    sql`
    select json_build_object('dias', ${dias}::int, 'total', count(*)::int, 'pessoas', coalesce(json_agg(t), '[]'))::text
      as json
    from (
      select u.id, u.display_name as "displayName", u.email, u.department, l.momento as "ultimoLogin"
      from usuarios u left join ultimos_logins l on l.usuario_id = u.id
      where u.active and (l.momento is null or l.momento < ${periodStart(dias, timeZone)})
      order by u.nome_ordenacao, u.id
    ) t`,
  );
  return found!.json;
}

type DetailRow = Omit<UsoDetalhePainel['visualizacoes'][number], 'momento'> & { momento: Date | string };

/** One panel's views in the period, newest first (at most MAX_VISUALIZACOES_DETALHE), with who and which identity. */
export async function panelViews(
  db: Db,
  painelId: number,
  dias: number,
  timeZone: string,
): Promise<Omit<UsoDetalhePainel, 'dias'> | null> {
  const since = periodStart(dias, timeZone);
  const [count] = await rows<{ nomePainel: string; total: number }>(
    db,
    sql`select p.nome_painel as "nomePainel",
          (select coalesce(sum(quantidade), 0)::int from visualizacoes where painel_id = p.id and momento >= ${since})
            as total
        from paineis p where p.id = ${painelId}`,
  );
  if (!count) return null;
  const found = await rows<DetailRow>(
    db,
    sql`
    select v.id, v.momento, v.usuario_id as "usuarioId", u.display_name as "displayName", u.email,
      v.identidade, v.papeis, v.request_id as "requestId", v.token_do_cache as "tokenDoCache", v.quantidade,
      v.carregado_ms as "carregadoMs", v.renderizado_ms as "renderizadoMs", v.erros
    from visualizacoes v left join usuarios u on u.id = v.usuario_id
    where v.painel_id = ${painelId} and v.momento >= ${since}
    order by v.momento desc
    limit ${MAX_VISUALIZACOES_DETALHE}`,
  );
  return {
    painelId,
    nomePainel: count.nomePainel,
    total: count.total,
    visualizacoes: found.map((r) => ({ ...r, momento: iso(r.momento)! })),
  };
}

/** Views from before `before` lose their person and identity; the rows, and so the counts, stay. */
export async function anonymiseViewsBefore(db: Db, before: Date): Promise<void> {
  await db.execute(sql`
    update visualizacoes set usuario_id = null, identidade = null
    where momento < ${before.toISOString()} and (usuario_id is not null or identidade is not null)`);
}

export async function purgeViewsBefore(db: Db, before: Date): Promise<void> {
  await db.execute(sql`delete from visualizacoes where momento < ${before.toISOString()}`);
}

/** PGlite answers timestamps as Date, node-postgres through rows() as text: both become ISO 8601. */
function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/**
 * The panels this person opened last, newest first, among `painelIds` (those they may still open), at most `limit`.
 * Anonymised views have no person, so they never count. Reads the index of views by person and moment.
 */
export async function recentPanelsOf(
  db: Db,
  usuarioId: string,
  painelIds: number[],
  limit: number,
): Promise<{ painelId: number; momento: Date }[]> {
  const found = await rows<{ painel_id: number; momento: string | Date }>(
    db,
    sql`
    select painel_id, max(momento) as momento from visualizacoes
    where usuario_id = ${usuarioId} and painel_id = any(${sql.param(painelIds)}::int[])
    group by painel_id
    order by max(momento) desc, painel_id
    limit ${limit}`,
  );
  return found.map((r) => ({ painelId: r.painel_id, momento: new Date(r.momento) }));
}
