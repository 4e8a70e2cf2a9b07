// The organisation every benchmark measures: SIZES (bench/budgets.ts) of panels, classifications, users and links.
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../apps/api/src/db/client.ts';
import { demoUsers } from '../apps/api/src/demo/demo-data.ts';
import { guidKey } from '../apps/api/src/lib/guid.ts';
import {
  saveRound,
  type DatasetFreshness,
  type PanelDatasetLink,
} from '../apps/api/src/modules/power-bi/freshness.repository.ts';
import { HEALTH_MESSAGES } from '../apps/api/src/modules/power-bi/panel-health.ts';
import { saveHealth, type StoredHealth } from '../apps/api/src/modules/power-bi/panel-health.repository.ts';
import { seedUsers } from '../apps/api/src/modules/users/users.service.ts';
import type { StandInReport } from '../packages/microsoft-stand-ins/src/types.ts';
import { SIZES } from './budgets.ts';

/**
 * The classification the web benchmark drags a panel across: 'Classificação 1', first on screen (classifications
 * go by name), with one panel in ten (200 of 2,000: Painel 1, Painel 11, …, Painel 1991, in that order).
 */
export const LARGE_GROUP = {
  name: 'Classificação 1',
  panels: Array.from({ length: SIZES.panels / 10 }, (_, i) => ({ id: i * 10 + 1, name: `Painel ${i * 10 + 1}` })),
};

/**
 * Replaces the database's data: users[0] is an admin, users[1] an ordinary user linked to every tenth panel.
 * The first SIZES.rlsPanels panels use RLS. Every 50th panel is unclassified; LARGE_GROUP holds the panels whose id
 * ends in 1, the other classifications share the rest (about 45 each). Every panel has what Power BI said of it
 * (seedPowerBiStatus).
 */
export async function seed(db: Db) {
  const started = Date.now();
  await db.execute(sql`truncate classificacoes, paineis, usuarios restart identity cascade`);
  const users = demoUsers(SIZES.users, 99).map((u, i) => ({ ...u, id: `bench-${i}`, email: `u${i}.${u.email}` }));
  users[0]!.role = 'Admin';
  await seedUsers(db, users, 'bench');
  await seedCatalog(db);
  // Each panel gets a window of users; user 1 (ordinary) is linked to every tenth panel. Every id is valid by
  // construction, so where the database lets it (a superuser: PGlite, or the benchmark's own PostgreSQL) the
  // 600,000 rows skip the foreign-key checks, which are most of the seeding's time. (Replica mode skips the
  // trigger that bumps the links' data version too: the next statement, a normal insert, bumps it.)
  const [{ superuser } = { superuser: false }] = await rows<{ superuser: boolean }>(
    db,
    sql`select current_setting('is_superuser') = 'on' as superuser`,
  );
  await db.transaction(async (tx) => {
    if (superuser) await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into painel_usuarios (painel_id, usuario_id)
      select p.id, 'bench-' || ((p.id * 37 + k) % ${SIZES.users - 2} + 2)
      from paineis p, generate_series(0, ${SIZES.linksPerPanel - 1}) k
      on conflict do nothing`);
  });
  await db.execute(
    sql`insert into painel_usuarios (painel_id, usuario_id) select id, 'bench-1' from paineis where id % 10 = 0`,
  );
  // The ordinary user is in a role of panel 10 (RLS), so they can open it.
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select id, ${users[1]!.email.toLowerCase()} from painel_rls_roles where painel_id = 10 and posicao = 1`);
  await seedPowerBiStatus(db);
  // As the server does at start on PGlite (no autovacuum there); a server would analyze by itself.
  await db.execute(sql`analyze`);
  return { users, seconds: (Date.now() - started) / 1000 };
}

/**
 * The classifications and panels (and the RLS panels' roles, each listing 50 addresses) of SIZES, on a database
 * whose tables are empty: the catalogue every benchmark shares, with or without the people seed() adds.
 */
export async function seedCatalog(db: Db): Promise<void> {
  await db.execute(sql`
    insert into classificacoes (nome, descricao)
    select 'Classificação ' || g, 'Descrição da classificação ' || g from generate_series(1, ${SIZES.classifications}) g`);
  await db.execute(sql`
    insert into paineis (nome_painel, workspace_id, report_id, usa_rls, classificacao_id, ordem)
    select 'Painel ' || g, '11111111-1111-4111-8111-111111111111', gen_random_uuid()::text, g <= ${SIZES.rlsPanels},
           case when g % 50 = 0 then null
                when g % 10 = 1 then 1
                else (g % ${SIZES.classifications - 1}) + 2 end, g
    from generate_series(1, ${SIZES.panels}) g`);
  await db.execute(sql`
    insert into painel_rls_roles (painel_id, role_name, posicao)
    select p.id, 'Papel ' || r, r from paineis p, generate_series(1, 3) r where p.usa_rls`);
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select r.id, 'pessoa' || k || '@empresa.com.br' from painel_rls_roles r, generate_series(1, 50) k`);
}

/** Panels the benchmarks open (the API's reads and the viewer): their reports stay healthy, or they would not open. */
const openedByBenchmarks = (painelId: number) => painelId % 10 === 0 || painelId === 7;

/** A well-spread number in [0, 100) for a panel and a purpose, so that every classification gets every case. */
const spread = (painelId: number, salt: number) => (Math.imul(painelId + salt * 7_919, 2_654_435_761) >>> 0) % 100;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Power BI's reasons for a failed refresh, about 150 characters each, as failureMessage keeps them. */
const FAILURES = [
  "Data source error: The credentials provided for the SQL source 'srv-dw01.empresa.local;DW_Vendas' are invalid or expired. Update them in the dataset settings.",
  'Erro de fonte de dados: o gateway GW-CORP-02 está offline ou inacessível. Verifique se o gateway de dados local está em execução e conectado ao serviço.',
  "The refresh operation timed out after 120 minutes on table 'FatoVendas'. Reduce the data volume with incremental refresh or schedule it outside peak hours.",
  "Column 'CodigoFilial' in table 'DimFilial' contains a duplicate value '0042' and this is not allowed for columns on the one side of a many-to-one relationship.",
];

/**
 * What the Power BI rounds would have stored for SIZES.panels panels, written with the rounds' own repository
 * functions: each panel's dataset (one per report, as seededReports names it) and its last refresh, mostly completed
 * minutes, hours or days ago, some failed (with Power BI's message), some under way, some DirectQuery (real time), a
 * few unknown; and each report's last check, a few not found, not readable or in error (never a panel the benchmarks
 * open). The timed rounds are off in the benchmarks' portals, so these stay as written.
 */
export async function seedPowerBiStatus(db: Db): Promise<void> {
  const panels = await rows<{ id: number; workspace_id: string; report_id: string }>(
    db,
    sql`select id, workspace_id, report_id from paineis order by id`,
  );
  const now = Date.now();
  const ago = (ms: number) => new Date(now - ms);
  const links: PanelDatasetLink[] = [];
  const datasets: DatasetFreshness[] = [];
  const checks: StoredHealth[] = [];
  for (const { id, workspace_id, report_id } of panels) {
    const workspaceId = guidKey(workspace_id);
    const reportId = guidKey(report_id);
    const datasetId = reportId.replace(/^.{8}/, 'dddddddd');
    links.push({ painelId: id, workspaceId, reportId, datasetId, datasetWorkspaceId: workspaceId });
    // When the last completed refresh ended: within the hour, the day, or up to 40 days ago.
    const age = spread(id, 2);
    const ended = ago(
      age < 30
        ? (1 + (id % 59)) * MINUTE_MS
        : age < 70
          ? (1 + (id % 23)) * HOUR_MS + (id % 60) * MINUTE_MS
          : (1 + (id % 40)) * DAY_MS + (id % 24) * HOUR_MS,
    );
    const kind = spread(id, 1);
    const base = { datasetId, mensagem: null };
    if (kind < 6) {
      datasets.push({
        ...base,
        status: 'falhou',
        ultimaAtualizacao: ended,
        ultimaTentativa: ago((1 + (id % 5)) * HOUR_MS),
        mensagem: FAILURES[id % FAILURES.length]!,
      });
    } else if (kind < 10) {
      datasets.push({
        ...base,
        status: 'em-andamento',
        ultimaAtualizacao: ended,
        ultimaTentativa: ago((id % 10) * MINUTE_MS),
      });
    } else if (kind < 16) {
      datasets.push({ ...base, status: 'tempo-real', ultimaAtualizacao: null, ultimaTentativa: null });
    } else if (kind < 18) {
      datasets.push({ ...base, status: 'desconhecida', ultimaAtualizacao: null, ultimaTentativa: null });
    } else {
      // Started some minutes before it ended.
      const started = new Date(ended.getTime() - (2 + (id % 28)) * MINUTE_MS);
      datasets.push({ ...base, status: 'concluida', ultimaAtualizacao: ended, ultimaTentativa: started });
    }
    const health = openedByBenchmarks(id) ? 99 : spread(id, 3);
    const verificadoEm = ago((id % 60) * MINUTE_MS);
    const check = { painelId: id, workspaceId, reportId, verificadoEm };
    if (health < 2) checks.push({ ...check, estado: 'relatorio-nao-encontrado', mensagem: HEALTH_MESSAGES.notFound });
    else if (health < 3) checks.push({ ...check, estado: 'sem-acesso', mensagem: HEALTH_MESSAGES.noAccess });
    else if (health < 5) checks.push({ ...check, estado: 'erro', mensagem: HEALTH_MESSAGES.refused(400) });
    else checks.push({ ...check, estado: 'ok', mensagem: null });
  }
  await saveRound(db, links, datasets);
  await saveHealth(db, checks);
}

/** The Power BI stand-in's reports for the seeded panels (one each; RLS where the panel uses it). */
export async function seededReports(db: Db): Promise<StandInReport[]> {
  const found = await rows<{ report_id: string; usa_rls: boolean }>(db, sql`select report_id, usa_rls from paineis`);
  return found.map((row, i) => ({
    workspaceId: '11111111-1111-4111-8111-111111111111',
    reportId: row.report_id,
    name: `Relatório ${i + 1}`,
    datasetId: row.report_id.replace(/^.{8}/, 'dddddddd'),
    rls: row.usa_rls,
  }));
}
