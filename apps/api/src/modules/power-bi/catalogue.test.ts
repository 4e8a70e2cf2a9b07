import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Painel } from '@paineis/contract/panels';
import type { RelatorioPowerBi, ResultadoImportacao, SaudePainel } from '@paineis/contract/power-bi';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { classificacao, createAdmin, createUser, panel, panelOver } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { rows } from '../../db/client.ts';
import { POWER_BI_NOT_CONFIGURED, POWER_BI_UNAVAILABLE } from '../../plugins/microsoft-error-answers.ts';
import { alreadyRegistered, repeatedInImport } from '../panels/panel-import.ts';
import { paginatedReports, reportsNotReachable, reportsWithoutDataset, workspaceNotReachable } from './catalogue.ts';

const COMERCIAL = '0a0a0a0a-0000-4000-8000-0000000000c1';
const FINANCEIRO = '0a0a0a0a-0000-4000-8000-0000000000c2';
/** A workspace the service principal is not a member of: Power BI does not list it, and refuses its reports. */
const ALHEIO = '0a0a0a0a-0000-4000-8000-0000000000c9';

const report = (workspaceId: string, n: number, name: string): StandInReport => ({
  workspaceId,
  reportId: `0b0b0b0b-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  datasetId: `0c0c0c0c-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  name,
  rls: false,
});

const vendas = report(COMERCIAL, 61, 'Vendas');
const metas = report(COMERCIAL, 62, 'Metas Comerciais');
const carteira = report(COMERCIAL, 63, 'Carteira de Clientes');
const dre = report(FINANCEIRO, 64, 'DRE');
const caixa = report(FINANCEIRO, 65, 'Fluxo de Caixa');
const REPORTS = [vendas, metas, carteira, dre, caixa];

const item = (r: StandInReport, nomePainel?: string) => ({
  workspaceId: r.workspaceId,
  reportId: r.reportId,
  ...(nomePainel === undefined ? {} : { nomePainel }),
});

describe('Power BI catalogue and import, against the stand-in Power BI', () => {
  const standIns = useStandIns({
    people: [],
    reports: REPORTS,
    workspaces: [
      { id: FINANCEIRO, name: 'Financeiro' },
      { id: COMERCIAL, name: 'Área Comercial' },
    ],
  });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { sleep: async () => undefined },
  }));
  beforeEach(() => {
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports(REPORTS);
  });
  // An import starts the freshness and health rounds: they end within their test.
  const rounds = () => Promise.all([ctx.app.freshness?.idle(), ctx.app.panelHealth?.idle()]);
  afterEach(rounds);

  async function tokens() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const user = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    return { admin: await ctx.tokenFor(admin), user: await ctx.tokenFor(user) };
  }
  const panels = async (token: string) => (await ctx.request('GET', '/api/paineis', { token })).json<Painel[]>();
  const creations = () =>
    rows<{ objeto_id: string; objeto_nome: string }>(
      ctx.db,
      sql`select objeto_id, objeto_nome from auditoria where objeto = 'painel' and acao = 'criacao' order by id`,
    );
  const reportCalls = () =>
    standIns.current.powerBi.requests.filter((r) => /\/groups\/[^/]+\/reports$/.test(r.path)).map((r) => r.path);

  it('lists the workspaces the service principal reaches, by name in pt-BR order', async () => {
    const { admin } = await tokens();
    const res = await ctx.request('GET', '/api/powerbi/workspaces', { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: COMERCIAL, nome: 'Área Comercial' },
      { id: FINANCEIRO, nome: 'Financeiro' },
    ]);
  });

  it("lists a workspace's reports by name, each with the panel already showing it (ids compared ignoring case)", async () => {
    const { admin } = await tokens();
    const shown = await panelOver(ctx.db, {
      workspaceId: COMERCIAL.toUpperCase(),
      reportId: vendas.reportId.toUpperCase(),
    });
    // The same report in another workspace is not the same report.
    await panelOver(ctx.db, { workspaceId: FINANCEIRO, reportId: metas.reportId });
    const res = await ctx.request('GET', `/api/powerbi/workspaces/${COMERCIAL.toUpperCase()}/relatorios`, {
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<RelatorioPowerBi[]>()).toEqual([
      {
        reportId: carteira.reportId,
        nome: 'Carteira de Clientes',
        datasetId: carteira.datasetId,
        workspaceId: COMERCIAL,
        painelId: null,
      },
      {
        reportId: metas.reportId,
        nome: 'Metas Comerciais',
        datasetId: metas.datasetId,
        workspaceId: COMERCIAL,
        painelId: null,
      },
      {
        reportId: vendas.reportId,
        nome: 'Vendas',
        datasetId: vendas.datasetId,
        workspaceId: COMERCIAL,
        painelId: shown.id,
      },
    ]);
  });

  it('answers 404 naming a workspace Power BI refuses, and 400 for an id that is not a GUID', async () => {
    const { admin } = await tokens();
    const refused = await ctx.request('GET', `/api/powerbi/workspaces/${ALHEIO}/relatorios`, { token: admin });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: workspaceNotReachable(ALHEIO) });
    const bad = await ctx.request('GET', '/api/powerbi/workspaces/nao-e-guid/relatorios', { token: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: 'ID do workspace (workspaceId) deve ser um GUID, como 00000000-0000-0000-0000-000000000000.',
    });
  });

  it('imports reports in list order at the end of the classification, named after the report unless named', async () => {
    const { admin } = await tokens();
    const comercial = await classificacao(ctx.db, 'Comercial');
    const outra = await classificacao(ctx.db, 'Outra');
    const first = await panel(ctx.db, { nomePainel: 'Existente', classificacaoId: comercial.id, ordem: 4 });
    await panel(ctx.db, { nomePainel: 'Alheio', classificacaoId: outra.id, ordem: 9 });

    const res = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: {
        classificacaoId: comercial.id,
        relatorios: [item(metas, '  Metas do Mês '), item(dre), item(carteira, '')],
      },
    });
    expect(res.statusCode).toBe(201);
    const result = res.json<ResultadoImportacao>();
    expect(result.ignorados).toEqual([]);
    expect(result.criados.map((c) => [c.nomePainel, c.workspaceId, c.reportId])).toEqual([
      ['Metas do Mês', COMERCIAL, metas.reportId],
      ['DRE', FINANCEIRO, dre.reportId],
      ['Carteira de Clientes', COMERCIAL, carteira.reportId],
    ]);
    // One listing per workspace named, however many of its reports are imported.
    expect(reportCalls().sort()).toEqual([
      `/v1.0/myorg/groups/${COMERCIAL}/reports`,
      `/v1.0/myorg/groups/${FINANCEIRO}/reports`,
    ]);

    const inComercial = (await panels(admin)).filter((p) => p.classificacaoId === comercial.id);
    expect(inComercial.map((p) => [p.id, p.nomePainel, p.ordem, p.usaRls, p.permiteExportacao])).toEqual([
      [first.id, 'Existente', 4, false, true],
      [result.criados[0]!.painelId, 'Metas do Mês', 5, false, true],
      [result.criados[1]!.painelId, 'DRE', 6, false, true],
      [result.criados[2]!.painelId, 'Carteira de Clientes', 7, false, true],
    ]);
    // Audited as panels created one by one are.
    expect((await creations()).slice(-3)).toEqual(
      result.criados.map((c) => ({ objeto_id: String(c.painelId), objeto_nome: c.nomePainel })),
    );
    // The catalogue now names the new panels.
    const listed = await ctx.request('GET', `/api/powerbi/workspaces/${COMERCIAL}/relatorios`, { token: admin });
    expect(listed.json<RelatorioPowerBi[]>().find((r) => r.reportId === carteira.reportId)?.painelId).toBe(
      result.criados[2]!.painelId,
    );
  });

  it('reads the new panels’ freshness and checks their reports at once, not at the next timed round', async () => {
    const { admin } = await tokens();
    const res = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [item(dre), item(caixa)] },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<ResultadoImportacao>().criados.map((c) => c.painelId);
    await rounds();
    const freshness = (await ctx.request('GET', '/api/paineis/atualizacoes', { token: admin })).json<object>();
    expect(Object.keys(freshness).sort()).toEqual(created.map(String).sort());
    const health = (await ctx.request('GET', '/api/paineis/saude', { token: admin })).json<SaudePainel[]>();
    expect(health.map((h) => [h.painelId, h.estado]).sort()).toEqual(created.map((id) => [id, 'ok']).sort());
  });

  it("imports into 'Sem Classificação' with classificacaoId 0 or null", async () => {
    const { admin } = await tokens();
    await panel(ctx.db, { nomePainel: 'Solto', ordem: 2 });
    for (const [classificacaoId, r] of [
      [0, dre],
      [null, caixa],
    ] as const) {
      const res = await ctx.request('POST', '/api/paineis/importar', {
        token: admin,
        body: { classificacaoId, relatorios: [item(r)] },
      });
      expect(res.statusCode).toBe(201);
    }
    expect((await panels(admin)).map((p) => [p.nomePainel, p.classificacaoId, p.ordem])).toEqual([
      ['Solto', 0, 2],
      ['DRE', 0, 3],
      ['Fluxo de Caixa', 0, 4],
    ]);
  });

  it('skips a report already a panel, or named twice, and says why; importing again creates nothing', async () => {
    const { admin } = await tokens();
    const existing = await panelOver(ctx.db, vendas, { nomePainel: 'Vendas Diárias' });
    const body = { classificacaoId: null, relatorios: [item(vendas), item(metas), item(metas, 'Outro nome')] };
    const res = await ctx.request('POST', '/api/paineis/importar', { token: admin, body });
    expect(res.statusCode).toBe(201);
    const result = res.json<ResultadoImportacao>();
    expect(result.criados.map((c) => c.nomePainel)).toEqual(['Metas Comerciais']);
    const metasId = result.criados[0]!.painelId;
    expect(result.ignorados).toEqual([
      {
        workspaceId: COMERCIAL,
        reportId: vendas.reportId,
        nome: 'Vendas',
        painelId: existing.id,
        motivo: alreadyRegistered('Vendas Diárias'),
      },
      {
        workspaceId: COMERCIAL,
        reportId: metas.reportId,
        nome: 'Metas Comerciais',
        painelId: metasId,
        motivo: repeatedInImport('Metas Comerciais'),
      },
    ]);
    expect(alreadyRegistered('Vendas Diárias')).toBe("Já cadastrado como o painel 'Vendas Diárias'.");
    expect(repeatedInImport('Metas Comerciais')).toBe(
      "Repetido nesta importação: já cadastrado acima como o painel 'Metas Comerciais'.",
    );

    const again = await ctx.request('POST', '/api/paineis/importar', { token: admin, body });
    expect(again.statusCode).toBe(201);
    expect(again.json<ResultadoImportacao>()).toMatchObject({
      criados: [],
      ignorados: [
        { painelId: existing.id, motivo: alreadyRegistered('Vendas Diárias') },
        { painelId: metasId, motivo: alreadyRegistered('Metas Comerciais') },
        { painelId: metasId, motivo: alreadyRegistered('Metas Comerciais') },
      ],
    });
    expect(await panels(admin)).toHaveLength(2);
  });

  it('two imports of the same report at once register it once', async () => {
    const { admin } = await tokens();
    const body = { classificacaoId: null, relatorios: [item(dre)] };
    const answers = await Promise.all(
      [1, 2].map(() => ctx.request('POST', '/api/paineis/importar', { token: admin, body })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    const results = answers.map((a) => a.json<ResultadoImportacao>());
    expect(results.map((r) => [r.criados.length, r.ignorados.length]).sort()).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(await panels(admin)).toHaveLength(1);
  });

  it('refuses reports Power BI does not show the portal, naming them, and creates nothing', async () => {
    const { admin } = await tokens();
    const gone = { workspaceId: COMERCIAL, reportId: '0b0b0b0b-0000-4000-8000-0000000000ff' };
    const res = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [item(metas), gone, { ...item(dre), reportId: carteira.reportId }] },
    });
    expect(res.statusCode).toBe(404);
    // A report of one workspace named under another is not found either.
    expect(res.json()).toEqual({
      message: reportsNotReachable([gone, { workspaceId: FINANCEIRO, reportId: carteira.reportId }]),
    });
    expect(res.json<{ message: string }>().message).toBe(
      `Relatórios não encontrados no Power BI ou sem acesso do portal: ${gone.reportId} (workspace ${COMERCIAL}), ` +
        `${carteira.reportId} (workspace ${FINANCEIRO}). Nenhum painel foi importado.`,
    );

    const refused = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [item(metas), { workspaceId: ALHEIO, reportId: metas.reportId }] },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: workspaceNotReachable(ALHEIO) });
    expect(await panels(admin)).toEqual([]);
    expect(await creations()).toEqual([]);
  });

  it('refuses a paginated report, and one Power BI lists without its type nor a dataset, naming them, and creates nothing', async () => {
    // As Power BI lists a paginated report: reportType 'PaginatedReport' and no datasetId.
    const boletos: StandInReport = { ...report(COMERCIAL, 66, 'Boletos'), reportType: 'PaginatedReport' };
    // The list "returns a subset" of a report's properties: this one comes without reportType, and has no dataset.
    const notas: StandInReport = {
      ...report(COMERCIAL, 67, 'Notas'),
      reportType: 'PaginatedReport',
      reportTypeSent: false,
    };
    standIns.current.powerBi.setReports([...REPORTS, boletos, notas]);
    const { admin } = await tokens();
    const listed = await ctx.request('GET', `/api/powerbi/workspaces/${COMERCIAL}/relatorios`, { token: admin });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<RelatorioPowerBi[]>().map((r) => r.nome)).toEqual([
      'Carteira de Clientes',
      'Metas Comerciais',
      'Vendas',
    ]);

    const paginated = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [item(vendas), item(boletos)] },
    });
    expect(paginated.statusCode).toBe(400);
    expect(paginated.json()).toEqual({ message: paginatedReports(["'Boletos'"]) });
    expect(paginated.json<{ message: string }>().message).toBe(
      "Relatórios paginados não podem ser importados como painéis: 'Boletos'. Nenhum painel foi importado.",
    );

    const untyped = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [item(vendas), item(notas)] },
    });
    expect(untyped.statusCode).toBe(400);
    expect(untyped.json()).toEqual({ message: reportsWithoutDataset(["'Notas'"]) });
    expect(untyped.json<{ message: string }>().message).toBe(
      "Relatórios sem modelo semântico (dataset) no Power BI não podem ser importados como painéis: 'Notas'. " +
        'Nenhum painel foi importado.',
    );
    expect(await panels(admin)).toEqual([]);
    expect(await creations()).toEqual([]);
  });

  it('drops a workspace the service principal was removed from, and refuses its reports and their import', async () => {
    const { admin } = await tokens();
    standIns.current.powerBi.removeServicePrincipal(FINANCEIRO);
    const listed = await ctx.request('GET', '/api/powerbi/workspaces', { token: admin });
    expect(listed.json()).toEqual([{ id: COMERCIAL, nome: 'Área Comercial' }]);
    const reports = await ctx.request('GET', `/api/powerbi/workspaces/${FINANCEIRO}/relatorios`, { token: admin });
    expect([reports.statusCode, reports.json()]).toEqual([404, { message: workspaceNotReachable(FINANCEIRO) }]);
    const imported = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [item(metas), item(dre)] },
    });
    expect([imported.statusCode, imported.json()]).toEqual([404, { message: workspaceNotReachable(FINANCEIRO) }]);
    expect(await panels(admin)).toEqual([]);
  });

  it('refuses an unknown classification and creates nothing', async () => {
    const { admin } = await tokens();
    const res = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: 999, relatorios: [item(metas), item(dre)] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Classificação (classificacaoId) 999 não existe.' });
    expect(await panels(admin)).toEqual([]);
    expect(await creations()).toEqual([]);
  });

  it('answers Power BI being down with the Microsoft error answer, and creates nothing', async () => {
    const { admin } = await tokens();
    standIns.current.powerBi.failNext(503, 10);
    const res = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [item(metas)] },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: POWER_BI_UNAVAILABLE });
    expect(await panels(admin)).toEqual([]);
  });

  it('refuses bad input with a Portuguese 400, without asking Power BI', async () => {
    const { admin } = await tokens();
    const cases: [unknown, string][] = [
      [{ classificacaoId: null, relatorios: [] }, "Campo 'relatorios': Escolha ao menos um relatório para importar."],
      [
        { classificacaoId: null, relatorios: Array.from({ length: 201 }, () => item(metas)) },
        "Campo 'relatorios': São aceitos no máximo 200 relatórios por importação.",
      ],
      [
        { classificacaoId: null, relatorios: [{ workspaceId: COMERCIAL, reportId: 'x' }] },
        'ID do relatório (reportId) deve ser um GUID, como 00000000-0000-0000-0000-000000000000.',
      ],
      [
        { classificacaoId: null, relatorios: [{ reportId: metas.reportId }] },
        'ID do workspace (workspaceId) é obrigatório.',
      ],
      [
        { classificacaoId: null, relatorios: [{ ...item(metas), nomePainel: 'x'.repeat(201) }] },
        'Nome do painel (nomePainel) deve ter no máximo 200 caracteres.',
      ],
      [{ classificacaoId: 'Vendas', relatorios: [item(metas)] }, 'Classificação (classificacaoId) deve ser um número.'],
      [{ classificacaoId: null, relatorios: 'todos' }, 'Relatórios (relatorios) deve ser uma lista.'],
    ];
    for (const [body, message] of cases) {
      const res = await ctx.request('POST', '/api/paineis/importar', { token: admin, body });
      expect([res.statusCode, res.json()]).toEqual([400, { message }]);
    }
    expect(reportCalls()).toEqual([]);
    expect(await panels(admin)).toEqual([]);
  });

  it('is for admins only: 403 for a user, 401 without a token, and Power BI is not asked', async () => {
    const { user } = await tokens();
    const calls: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/powerbi/workspaces'],
      ['GET', `/api/powerbi/workspaces/${COMERCIAL}/relatorios`],
      ['POST', '/api/paineis/importar', { classificacaoId: null, relatorios: [item(metas)] }],
    ];
    for (const [method, url, body] of calls) {
      expect((await ctx.request(method, url, { token: user, body })).statusCode).toBe(403);
      expect((await ctx.request(method, url, { body })).statusCode).toBe(401);
    }
    expect(standIns.current.powerBi.requests).toEqual([]);
  });
});

describe('Power BI catalogue without Power BI configured', () => {
  const ctx = useTestApp();

  it('answers 503 on every route, and imports nothing', async () => {
    const token = await ctx.tokenFor(await createAdmin(ctx.db));
    const calls: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/powerbi/workspaces'],
      ['GET', `/api/powerbi/workspaces/${COMERCIAL}/relatorios`],
      ['POST', '/api/paineis/importar', { classificacaoId: null, relatorios: [item(metas)] }],
    ];
    for (const [method, url, body] of calls) {
      const res = await ctx.request(method, url, { token, body });
      expect([url, res.statusCode, res.json()]).toEqual([url, 503, { message: POWER_BI_NOT_CONFIGURED }]);
    }
    expect((await ctx.request('GET', '/api/paineis', { token })).json<Painel[]>()).toEqual([]);
  });
});
