import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { VISUALIZACAO_HEADER, type UsoDetalhePainel, type UsoPainel } from '@paineis/contract/usage';
import { rows } from '../../db/client.ts';
import { buildApp } from '../../app.ts';
import { createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';
import { salesPanels, salesReports, useSalesApp } from '../../../test/sales-reports.ts';
import { forgetUsageSnapshots, purgeOldViews } from './usage.ts';

const reports = salesReports(11);

interface StoredView {
  id: string;
  usuario_id: string | null;
  painel_id: number;
  identidade: string | null;
  papeis: string[];
  request_id: string | null;
  token_do_cache: boolean;
  quantidade: number;
  carregado_ms: number | null;
  renderizado_ms: number | null;
  erros: string[];
}

describe('usage of the panels (docs/requirements.md#usage)', () => {
  const { standIns, ctx } = useSalesApp(reports);
  beforeEach(() => {
    forgetUsageSnapshots(ctx.db);
  });

  const stored = () =>
    rows<StoredView>(ctx.db, sql`select * from visualizacoes order by momento, id`).then((found) =>
      found.map((v) => ({ ...v, papeis: [...v.papeis], erros: [...v.erros] })),
    );
  const requestIds = () =>
    standIns.current.powerBi.requests.filter((r) => r.path === '/v1.0/myorg/GenerateToken').map((r) => r.requestId);

  async function setup() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br', displayName: 'Admin Uso' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br', displayName: 'Ana Souza' });
    const { plain, rls } = await salesPanels(ctx.db, reports, [
      { roleName: 'Sul', userEmails: ['ana@empresa.com.br'] },
      { roleName: 'Diretoria', userEmails: ['ana@empresa.com.br'] },
    ]);
    const never = await panel(ctx.db, { nomePainel: 'Nunca Aberto' });
    await link(ctx.db, plain.id, [ana.id]);
    await link(ctx.db, rls.id, [ana.id]);
    return { admin, ana, adminToken: await ctx.tokenFor(admin), anaToken: await ctx.tokenFor(ana), plain, rls, never };
  }

  it('records each opening in the background: who, panel, identity and roles, RequestId, token from cache', async () => {
    const s = await setup();
    const first = await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.anaToken });
    expect(first.statusCode).toBe(200);
    const viewId = first.headers[VISUALIZACAO_HEADER];
    expect(viewId).toMatch(/^[0-9a-f-]{36}$/);
    // Queued, not yet written: the opening did not wait for the database.
    expect(await stored()).toEqual([]);
    // Opened again before the batch is written: the same record, counted twice.
    const again = await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.anaToken });
    expect(again.headers[VISUALIZACAO_HEADER]).toBe(viewId);
    const plain = await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.anaToken });
    await ctx.app.openingRecorder.flush();
    // After it: a record of its own.
    const later = await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.anaToken });
    await ctx.app.openingRecorder.flush();

    const views = await stored();
    expect(views).toHaveLength(3);
    const ids = requestIds();
    expect(ids).toHaveLength(2); // the later opening of the RLS panel reused the token
    expect(views.find((v) => v.id === viewId)).toMatchObject({
      usuario_id: s.ana.id,
      painel_id: s.rls.id,
      identidade: 'ana@empresa.com.br',
      papeis: ['Diretoria', 'Sul'],
      request_id: ids[0],
      token_do_cache: false,
      quantidade: 2,
      carregado_ms: null,
    });
    expect(views.find((v) => v.id === later.headers[VISUALIZACAO_HEADER])).toMatchObject({
      painel_id: s.rls.id,
      request_id: ids[0],
      token_do_cache: true,
      quantidade: 1,
    });
    expect(views.find((v) => v.id === plain.headers[VISUALIZACAO_HEADER])).toMatchObject({
      painel_id: s.plain.id,
      identidade: null,
      papeis: [],
      request_id: ids[1],
      token_do_cache: false,
    });
    const detail = await ctx.request('GET', `/api/uso/paineis/${s.rls.id}?dias=7`, { token: s.adminToken });
    expect(detail.json<UsoDetalhePainel>().total).toBe(3);
    const panels = await ctx.request('GET', '/api/uso/paineis?dias=7', { token: s.adminToken });
    expect(panels.json<{ paineis: UsoPainel[] }>().paineis[0]).toMatchObject({
      nomePainel: 'Vendas por Região',
      visualizacoes: 3,
    });
  });

  it('records an admin previewing one RLS role with that role only; a refused opening records nothing', async () => {
    const s = await setup();
    const outsider = await ctx.tokenFor(await createUser(ctx.db, { email: 'fora@empresa.com.br' }));
    expect((await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: outsider })).statusCode).toBe(404);
    const res = await ctx.request('GET', `/api/paineis/${s.rls.id}?papel=Sul`, { token: s.adminToken });
    expect(res.statusCode).toBe(200);
    await ctx.app.openingRecorder.flush();
    expect(await stored()).toEqual([
      expect.objectContaining({ usuario_id: s.admin.id, identidade: 'admin@empresa.com.br', papeis: ['Sul'] }),
    ]);
  });

  it('takes the viewer’s load times and errors for its own view only, queued or already written', async () => {
    const s = await setup();
    const open = async () =>
      String(
        (await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.anaToken })).headers[VISUALIZACAO_HEADER],
      );
    const queued = await open();
    const report = (viewId: string, body: unknown, token = s.anaToken, painelId = s.plain.id) =>
      ctx.request('POST', `/api/paineis/${painelId}/visualizacoes/${viewId}`, { token, body });

    // Still queued: merged into the view before it is written.
    expect((await report(queued, { carregadoMs: 850, renderizadoMs: 1400 })).statusCode).toBe(202);
    await ctx.app.openingRecorder.flush();
    // Already written: an update, in the next batch.
    const written = await open();
    await ctx.app.openingRecorder.flush();
    expect((await report(written, { carregadoMs: 2000, erros: ['TokenExpired'] })).statusCode).toBe(202);
    // Someone else's view, or the right view under another panel, changes nothing.
    expect((await report(written, { renderizadoMs: 1 }, s.adminToken)).statusCode).toBe(202);
    expect((await report(written, { renderizadoMs: 1 }, s.anaToken, s.rls.id)).statusCode).toBe(202);
    await ctx.app.openingRecorder.flush();

    const views = await stored();
    expect(views.find((v) => v.id === queued)).toMatchObject({ carregado_ms: 850, renderizado_ms: 1400, erros: [] });
    expect(views.find((v) => v.id === written)).toMatchObject({
      carregado_ms: 2000,
      renderizado_ms: null,
      erros: ['TokenExpired'],
    });
  });

  it('refuses a malformed report in Portuguese, and a report on a panel the person cannot see', async () => {
    const s = await setup();
    const url = `/api/paineis/${s.plain.id}/visualizacoes/0b6f2f4e-3c1a-4d8e-9a57-2f1e6c0d9b31`;
    const bad = await ctx.request('POST', url, { token: s.anaToken, body: { carregadoMs: -5 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('O tempo até carregar (carregadoMs) não pode ser negativo.');
    const notUuid = await ctx.request('POST', `/api/paineis/${s.plain.id}/visualizacoes/abc`, {
      token: s.anaToken,
      body: {},
    });
    expect(notUuid.statusCode).toBe(400);
    expect(notUuid.json().message).toContain('UUID');
    const unlinked = await ctx.request('POST', url.replace(`/${s.plain.id}/`, `/${s.never.id}/`), {
      token: s.anaToken,
      body: { carregadoMs: 1 },
    });
    expect(unlinked.statusCode).toBe(404);
  });

  it('writes what is queued when the server closes', async () => {
    const s = await setup();
    const app = await buildApp({ logger: false, config: ctx.config, database: ctx.database, ownsDatabase: false });
    await app.ready();
    const res = await app.inject({
      method: 'GET',
      url: `/api/paineis/${s.plain.id}`,
      headers: { authorization: `Bearer ${s.anaToken}` },
    });
    expect(res.statusCode).toBe(200);
    await app.close();
    expect((await stored()).map((v) => v.id)).toEqual([res.headers[VISUALIZACAO_HEADER]]);
  });

  /** Views written straight into the table, `daysAgo` days before now, for the period figures. */
  async function pastViews(
    views: { painelId: number; usuarioId: string | null; daysAgo: number; carregado?: number; erro?: boolean }[],
  ) {
    for (const v of views) {
      await ctx.db.execute(sql`
        insert into visualizacoes (id, momento, usuario_id, painel_id, token_do_cache, carregado_ms, renderizado_ms, erros)
        values (gen_random_uuid(), now() - make_interval(days => ${v.daysAgo}), ${v.usuarioId}, ${v.painelId}, false,
                ${v.carregado ?? null}, ${v.carregado === undefined ? null : v.carregado + 500},
                ${v.erro ? sql`array['Erro']` : sql`'{}'`})`);
    }
    forgetUsageSnapshots(ctx.db);
  }

  it('answers each panel’s views, people, load-time percentiles and errors for the period, most viewed first', async () => {
    const s = await setup();
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br' });
    await pastViews([
      // Vendas: 5 views in the last week, by two people; load times 100..500.
      ...[100, 200, 300, 400, 500].map((carregado, i) => ({
        painelId: s.plain.id,
        usuarioId: i % 2 ? bia.id : s.ana.id,
        daysAgo: i,
        carregado,
        erro: i === 4,
      })),
      // Vendas por Região: 2 views, 20 days ago (in 30 days, not in 7).
      { painelId: s.rls.id, usuarioId: s.ana.id, daysAgo: 20, carregado: 900 },
      { painelId: s.rls.id, usuarioId: s.ana.id, daysAgo: 20 },
      // Outside 90 days: counted nowhere.
      { painelId: s.never.id, usuarioId: s.ana.id, daysAgo: 120 },
    ]);
    const per = async (dias: number) => {
      const res = await ctx.request('GET', `/api/uso/paineis?dias=${dias}`, { token: s.adminToken });
      expect(res.statusCode).toBe(200);
      return res.json<{ dias: number; paineis: UsoPainel[] }>();
    };
    const week = await per(7);
    expect(week.dias).toBe(7);
    expect(week.paineis.map((p) => [p.nomePainel, p.visualizacoes])).toEqual([
      ['Vendas', 5],
      ['Nunca Aberto', 0],
      ['Vendas por Região', 0],
    ]);
    expect(week.paineis[0]).toMatchObject({
      pessoas: 2,
      carregadoP50: 300,
      carregadoP95: 500,
      renderizadoP50: 800,
      renderizadoP95: 1000,
      erros: 1,
      classificacaoNome: 'Sem Classificação',
    });
    expect(Date.parse(week.paineis[0]!.ultimaVisualizacao!)).toBeGreaterThan(Date.now() - 60_000);
    expect(week.paineis[1]).toMatchObject({ ultimaVisualizacao: null, carregadoP50: null, erros: 0 });

    const month = await per(30);
    expect(month.paineis.map((p) => [p.nomePainel, p.visualizacoes, p.pessoas, p.carregadoP95])).toEqual([
      ['Vendas', 5, 2, 500],
      ['Vendas por Região', 2, 1, 900],
      ['Nunca Aberto', 0, 0, null],
    ]);
    // Today's openings are added live, without reading the past days again.
    await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.anaToken });
    await ctx.app.openingRecorder.flush();
    expect((await per(7)).paineis.find((p) => p.nomePainel === 'Vendas por Região')!.visualizacoes).toBe(1);
  });

  it('answers views and people per day, every day of the period, oldest first', async () => {
    const s = await setup();
    await pastViews([
      { painelId: s.plain.id, usuarioId: s.ana.id, daysAgo: 2 },
      { painelId: s.rls.id, usuarioId: s.ana.id, daysAgo: 2 },
      { painelId: s.plain.id, usuarioId: s.admin.id, daysAgo: 2 },
      { painelId: s.plain.id, usuarioId: s.ana.id, daysAgo: 40 },
    ]);
    const res = await ctx.request('GET', '/api/uso/por-dia?dias=7', { token: s.adminToken });
    expect(res.statusCode).toBe(200);
    const { porDia } = res.json<{ porDia: { dia: string; visualizacoes: number; pessoas: number }[] }>();
    expect(porDia).toHaveLength(7);
    expect(porDia.map((d) => d.dia)).toEqual([...porDia.map((d) => d.dia)].sort());
    expect(porDia.reduce((sum, d) => sum + d.visualizacoes, 0)).toBe(3);
    expect(porDia.filter((d) => d.visualizacoes > 0)).toEqual([
      expect.objectContaining({ visualizacoes: 3, pessoas: 2 }),
    ]);
    const ninety = await ctx.request('GET', '/api/uso/por-dia?dias=90', { token: s.adminToken });
    expect(ninety.json<{ porDia: unknown[] }>().porDia).toHaveLength(90);
    expect(ninety.json<{ porDia: { visualizacoes: number }[] }>().porDia.reduce((n, d) => n + d.visualizacoes, 0)).toBe(
      4,
    );
  });

  it('lists the active people without a sign-in in the period, and each panel’s openings with identity', async () => {
    const s = await setup();
    await createUser(ctx.db, { email: 'inativa@empresa.com.br', active: false });
    // Ana signs in now; the admin signed in 10 days ago.
    await ctx.db.execute(sql`insert into ultimos_logins (usuario_id, momento) values
      (${s.ana.id}, now()), (${s.admin.id}, now() - interval '10 days')`);
    const res = await ctx.request('GET', '/api/uso/sem-login?dias=7', { token: s.adminToken });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ total: number; pessoas: { email: string; ultimoLogin: string | null }[] }>();
    expect(body.pessoas.map((p) => p.email)).toEqual(['admin@empresa.com.br']);
    expect(body.total).toBe(1);
    expect(Date.parse(body.pessoas[0]!.ultimoLogin!)).toBeLessThan(Date.now() - 9 * 86_400_000);
    const month = await ctx.request('GET', '/api/uso/sem-login?dias=30', { token: s.adminToken });
    expect(month.json<{ total: number }>().total).toBe(0);

    await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.anaToken });
    await ctx.app.openingRecorder.flush();
    const detail = await ctx.request('GET', `/api/uso/paineis/${s.rls.id}?dias=7`, { token: s.adminToken });
    expect(detail.statusCode).toBe(200);
    expect(detail.json<UsoDetalhePainel>()).toMatchObject({
      painelId: s.rls.id,
      nomePainel: 'Vendas por Região',
      total: 1,
      visualizacoes: [
        {
          usuarioId: s.ana.id,
          displayName: 'Ana Souza',
          email: 'ana@empresa.com.br',
          identidade: 'ana@empresa.com.br',
          papeis: ['Diretoria', 'Sul'],
          tokenDoCache: false,
        },
      ],
    });
    const missing = await ctx.request('GET', '/api/uso/paineis/999999?dias=7', { token: s.adminToken });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a period other than 7, 30 or 90 days, in Portuguese', async () => {
    const s = await setup();
    for (const path of ['por-dia', 'paineis', 'sem-login']) {
      const res = await ctx.request('GET', `/api/uso/${path}?dias=15`, { token: s.adminToken });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('O período (dias) deve ser 7, 30 ou 90.');
    }
  });

  it('purges views past retention and, when set, takes the person out of older views but keeps the counts', async () => {
    const s = await setup();
    await pastViews([1, 20, 500].map((daysAgo) => ({ painelId: s.plain.id, usuarioId: s.ana.id, daysAgo })));
    await ctx.db.execute(sql`update visualizacoes set identidade = 'ana@empresa.com.br'`);
    await purgeOldViews(ctx.db, { ...ctx.config.usage, retentionDays: 400, anonymiseAfterDays: 10 });
    const left = await rows<{ usuario_id: string | null; identidade: string | null; dias: number }>(
      ctx.db,
      sql`select usuario_id, identidade, extract(day from now() - momento)::int as dias from visualizacoes order by momento`,
    );
    expect(left).toEqual([
      { usuario_id: null, identidade: null, dias: 20 },
      { usuario_id: s.ana.id, identidade: 'ana@empresa.com.br', dias: 1 },
    ]);
    const month = await ctx.request('GET', '/api/uso/paineis?dias=30', { token: s.adminToken });
    expect(month.json<{ paineis: UsoPainel[] }>().paineis[0]).toMatchObject({ visualizacoes: 2, pessoas: 1 });
  });
});
