import { sql } from 'drizzle-orm';
import type { AtualizacoesPaineis, RelatorioPowerBi, SaudePainel, WorkspacePowerBi } from '@paineis/contract/power-bi';
import { powerBiToken } from '@paineis/microsoft-stand-ins/test-helpers';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/context.ts';
import { microsoftConfig, useStandIns } from '../../test/microsoft.ts';
import { rows } from '../db/client.ts';
import { DEMO_ADMIN, DEMO_USER, DEMO_WORKSPACE_ID, demoGuid } from './demo-data.ts';
import { loadDemoData } from './load-demo-data.ts';
import {
  DEMO_DELETED_REPORT,
  DEMO_FINANCE_WORKSPACE_ID,
  DEMO_REFRESH_CYCLES,
  demoDatasets,
  demoDirectory,
  demoGroups,
  demoReports,
  demoWorkspaces,
} from './demo-directory.ts';

/**
 * The demo's Power BI, as demo mode starts the stand-ins (server.ts): through the portal's own routes and background
 * rounds, it shows every state the requirements ask for (docs/requirements.md#power-bi).
 */
describe("the demo's Power BI", () => {
  const standIns = useStandIns({
    people: demoDirectory(),
    reports: demoReports(),
    groups: demoGroups(),
    workspaces: demoWorkspaces(),
    datasets: demoDatasets(),
  });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { sleep: async () => undefined },
  }));

  async function demo() {
    await loadDemoData(ctx.db);
    const panels = await rows<{ id: number; nome: string }>(ctx.db, sql`select id, nome_painel as nome from paineis`);
    const panelId = (nome: string) => {
      const found = panels.find((panel) => panel.nome === nome);
      if (!found) throw new Error(`no demo panel '${nome}'`);
      return String(found.id);
    };
    const token = await ctx.tokenFor({ ...DEMO_ADMIN, role: 'Admin' });
    return { panelId, token };
  }

  it('offers two workspaces, with reports that are not panels yet beside those that are', async () => {
    const { token } = await demo();
    const workspaces = await ctx.request('GET', '/api/powerbi/workspaces', { token });
    expect(workspaces.statusCode).toBe(200);
    expect(workspaces.json<WorkspacePowerBi[]>()).toEqual([
      { id: DEMO_WORKSPACE_ID, nome: 'Painéis Corporativos' },
      { id: DEMO_FINANCE_WORKSPACE_ID, nome: 'Relatórios Financeiros' },
    ]);
    const finance = await ctx.request('GET', `/api/powerbi/workspaces/${DEMO_FINANCE_WORKSPACE_ID}/relatorios`, {
      token,
    });
    const notPanels = finance.json<RelatorioPowerBi[]>().filter((report) => report.painelId === null);
    expect(notPanels.length).toBeGreaterThanOrEqual(3);
    const corporate = await ctx.request('GET', `/api/powerbi/workspaces/${DEMO_WORKSPACE_ID}/relatorios`, { token });
    const reports = corporate.json<RelatorioPowerBi[]>();
    expect(reports.some((report) => report.painelId !== null)).toBe(true);
    expect(reports.filter((report) => report.painelId === null).map((report) => report.nome)).toEqual([
      'Indicadores ESG',
    ]);
  });

  it('shows every freshness state, and a panel whose report was deleted', async () => {
    const { panelId, token } = await demo();
    await ctx.app.freshness!.run();
    const freshness = (await ctx.request('GET', '/api/paineis/atualizacoes', { token })).json<AtualizacoesPaineis>();
    expect(freshness[panelId('DRE Consolidada')]).toMatchObject({
      status: 'falhou',
      mensagem: expect.stringContaining('as credenciais expiraram'),
      ultimaAtualizacao: expect.any(String),
    });
    expect(freshness[panelId('Orçamento vs Realizado')]?.status).toBe('em-andamento');
    expect(freshness[panelId('Custos por Centro de Custo')]).toMatchObject({
      status: 'cancelada',
      ultimaAtualizacao: expect.any(String),
    });
    // Not refreshable, yet an import model: its old data is not shown as real time.
    const clima = freshness[panelId('Pesquisa de Clima')];
    expect(clima?.status).toBe('concluida');
    expect(Date.now() - Date.parse(clima!.ultimaAtualizacao!)).toBeGreaterThan(20 * 24 * 60 * 60 * 1000);
    expect(freshness[panelId('Paradas de Máquina')]?.status).toBe('tempo-real');
    expect(freshness[panelId('Consumo de Energia')]?.status).toBe('tempo-real');
    // The sales panels the browser journeys use refreshed normally, at varied times.
    expect(freshness[panelId('Vendas por Região')]?.status).toBe('concluida');
    const completed = Object.values(freshness).filter((entry) => entry.status === 'concluida');
    const ages = new Set(completed.map((entry) => entry.ultimaAtualizacao));
    expect(ages.size).toBeGreaterThanOrEqual(5);
    const oldest = Math.min(...completed.map((entry) => Date.parse(entry.ultimaAtualizacao!)));
    expect(Date.now() - oldest).toBeGreaterThan(24 * 60 * 60 * 1000);

    await ctx.app.panelHealth!.run();
    const health = (await ctx.request('GET', '/api/paineis/saude', { token })).json<SaudePainel[]>();
    const broken = health.filter((entry) => entry.estado !== 'ok');
    expect(broken).toEqual([
      expect.objectContaining({ painelId: Number(panelId(DEMO_DELETED_REPORT)), estado: 'relatorio-nao-encontrado' }),
    ]);
  });

  it('refreshes two panels the demo user opens on cycles that follow the clock, one failing now and then', async () => {
    const METAS = 'Metas da Equipe Comercial';
    const PRODUCAO = 'Produção Diária';
    expect(Object.keys(DEMO_REFRESH_CYCLES)).toEqual([METAS, PRODUCAO]);
    const declared = (name: string) => demoDatasets().find((d) => d.datasetId === demoGuid(`dataset:${name}`));
    expect(declared(METAS)?.refreshCycle).toEqual({ everyMs: 3 * 60_000, durationMs: 20_000 });
    expect(declared(PRODUCAO)?.refreshCycle).toMatchObject({
      everyMs: 4 * 60_000,
      durationMs: 30_000,
      failEvery: 3,
      failure: expect.stringContaining('ModelRefresh_ShortMessage_ProcessingError'),
    });
    expect(declared(PRODUCAO)?.storageMode ?? 'Import').toBe('Import');

    // Power BI's history of the failing one: within its last six cycles (24 minutes) a failure and a later success.
    const s = standIns.current;
    const history = await fetch(
      `${s.powerBiApiUrl}/v1.0/myorg/groups/${DEMO_WORKSPACE_ID}/datasets/${demoGuid(`dataset:${PRODUCAO}`)}/refreshes?$top=6`,
      { headers: { authorization: `Bearer ${await powerBiToken(s)}` } },
    );
    const statuses = ((await history.json()) as { value: { status: string }[] }).value.map((r) => r.status);
    expect(statuses).toHaveLength(6);
    expect(statuses.lastIndexOf('Completed')).toBeGreaterThan(-1);
    expect(statuses.indexOf('Completed')).toBeLessThan(statuses.lastIndexOf('Failed'));

    // Both are among the demo user's panels, with a freshness of their cycle.
    const { panelId } = await demo();
    await ctx.app.freshness!.run();
    const token = await ctx.tokenFor(DEMO_USER);
    const freshness = (await ctx.request('GET', '/api/paineis/atualizacoes', { token })).json<AtualizacoesPaineis>();
    expect(['concluida', 'em-andamento']).toContain(freshness[panelId(METAS)]?.status);
    expect(['concluida', 'em-andamento', 'falhou']).toContain(freshness[panelId(PRODUCAO)]?.status);
  });
});
