import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AtualizacoesPaineis } from '@paineis/contract/power-bi';
import type { StandInDataset, StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panelOver } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { eventually } from '../../../test/eventually.ts';
import { spyOnStatements } from '../../../test/statements.ts';
import { versionFeedLive } from '../../db/versioned-cache.ts';
import { POWER_BI_NOT_CONFIGURED } from '../../plugins/microsoft-error-answers.ts';
import { FAILED_WITHOUT_REASON, failureMessage, MAX_MESSAGE } from './freshness.ts';

/**
 * docs/requirements.md#power-bi: each panel's last refresh, read from Power BI's refresh history in background rounds
 * over the stand-in Power BI, and answered from memory.
 */

const WS = '0a0a0a0a-0000-4000-8000-00000000a001';
const WS2 = '0a0a0a0a-0000-4000-8000-00000000a002';
const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const report = (n: number, name: string, dataset: number, workspaceId = WS): StandInReport => ({
  workspaceId,
  reportId: id('0b0b0b0b', 900 + n),
  name,
  datasetId: id('0c0c0c0c', 900 + dataset),
  rls: false,
});

const reports = {
  vendas: report(1, 'Vendas', 1),
  // Metas reads Vendas' dataset: one call for both.
  metas: report(2, 'Metas', 1),
  financeiro: report(3, 'Financeiro', 3),
  ao_vivo: report(4, 'Operação ao Vivo', 4),
  estoque: report(5, 'Estoque', 5),
  novo: report(6, 'Novo', 6),
  desativado: report(7, 'Desativado', 7),
  rh: report(8, 'RH', 8, WS2),
};

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const T = {
  vendasEnd: hoursAgo(2),
  vendasStart: hoursAgo(2.1),
  financeiroFailed: hoursAgo(1),
  financeiroCompleted: hoursAgo(26),
  estoqueRunning: hoursAgo(0.1),
  estoqueCompleted: hoursAgo(24),
  rhEnd: hoursAgo(5),
};

const CREDENTIALS =
  '{"errorCode":"ModelRefresh_ShortMessage_ProcessingError","errorDescription":"As credenciais da fonte de dados SQL expiraram."}';

const datasets: StandInDataset[] = [
  {
    datasetId: reports.vendas.datasetId,
    refreshes: [{ status: 'Completed', startTime: T.vendasStart, endTime: T.vendasEnd }],
  },
  {
    datasetId: reports.financeiro.datasetId,
    refreshes: [
      { status: 'Failed', startTime: T.financeiroFailed, endTime: hoursAgo(0.9), serviceExceptionJson: CREDENTIALS },
      { status: 'Completed', startTime: hoursAgo(26.2), endTime: T.financeiroCompleted },
    ],
  },
  { datasetId: reports.ao_vivo.datasetId, storageMode: 'DirectQuery' },
  {
    datasetId: reports.estoque.datasetId,
    refreshes: [
      { status: 'Unknown', startTime: T.estoqueRunning },
      { status: 'Completed', startTime: hoursAgo(24.5), endTime: T.estoqueCompleted },
    ],
  },
  { datasetId: reports.novo.datasetId, refreshes: [] },
  { datasetId: reports.desativado.datasetId, refreshes: [{ status: 'Disabled', startTime: hoursAgo(3) }] },
  {
    datasetId: reports.rh.datasetId,
    refreshes: [{ status: 'Completed', startTime: hoursAgo(5.2), endTime: T.rhEnd }],
  },
];

describe('the freshness of each panel’s data', () => {
  const standIns = useStandIns({ people: [], reports: Object.values(reports), datasets });
  const sleeps: number[] = [];
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: {
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
    },
  }));
  let spy: ReturnType<typeof spyOnStatements> | undefined;
  afterEach(() => spy?.restore());
  beforeEach(() => {
    sleeps.length = 0;
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports(Object.values(reports));
    standIns.current.powerBi.setDatasets(datasets);
  });

  async function organisation() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const panels = {
      vendas: await panelOver(ctx.db, reports.vendas, { nomePainel: 'Vendas' }),
      metas: await panelOver(ctx.db, reports.metas, { nomePainel: 'Metas' }),
      financeiro: await panelOver(ctx.db, reports.financeiro, { nomePainel: 'Financeiro' }),
      aoVivo: await panelOver(ctx.db, reports.ao_vivo, { nomePainel: 'Operação ao Vivo' }),
      estoque: await panelOver(ctx.db, reports.estoque, { nomePainel: 'Estoque' }),
      novo: await panelOver(ctx.db, reports.novo, { nomePainel: 'Novo' }),
      desativado: await panelOver(ctx.db, reports.desativado, { nomePainel: 'Desativado' }),
      rh: await panelOver(ctx.db, reports.rh, { nomePainel: 'RH' }),
    };
    await link(ctx.db, panels.vendas.id, [ana.id]);
    await link(ctx.db, panels.financeiro.id, [ana.id]);
    return { panels, admin: await ctx.tokenFor(admin), ana: await ctx.tokenFor(ana) };
  }

  const freshness = async (token: string) => {
    const res = await ctx.request('GET', '/api/paineis/atualizacoes', { token });
    expect(res.statusCode).toBe(200);
    return res.json<AtualizacoesPaineis>();
  };
  const calls = (fragment: string) => standIns.current.powerBi.requests.filter((r) => r.path.includes(fragment));

  it('tells every state: completed, failed with Power BI’s message, running, real time, unknown', async () => {
    const { panels, admin } = await organisation();
    await ctx.app.freshness!.run();
    const all = await freshness(admin);
    expect(Object.keys(all).sort()).toEqual(
      Object.values(panels)
        .map((p) => String(p.id))
        .sort(),
    );
    expect(all[panels.vendas.id]).toEqual({
      status: 'concluida',
      ultimaAtualizacao: T.vendasEnd,
      ultimaTentativa: T.vendasStart,
    });
    expect(all[panels.metas.id]).toEqual(all[panels.vendas.id]);
    // A failed refresh still says when the data last refreshed, and why the last one failed.
    expect(all[panels.financeiro.id]).toEqual({
      status: 'falhou',
      ultimaAtualizacao: T.financeiroCompleted,
      ultimaTentativa: T.financeiroFailed,
      mensagem: 'As credenciais da fonte de dados SQL expiraram.',
    });
    expect(all[panels.estoque.id]).toEqual({
      status: 'em-andamento',
      ultimaAtualizacao: T.estoqueCompleted,
      ultimaTentativa: T.estoqueRunning,
    });
    expect(all[panels.aoVivo.id]).toEqual({ status: 'tempo-real', ultimaAtualizacao: null, ultimaTentativa: null });
    expect(all[panels.novo.id]).toEqual({ status: 'desconhecida', ultimaAtualizacao: null, ultimaTentativa: null });
    expect(all[panels.desativado.id]).toMatchObject({ status: 'desconhecida', ultimaAtualizacao: null });
    // A dataset of another workspace, read through that workspace's own report list.
    expect(all[panels.rh.id]).toMatchObject({ status: 'concluida', ultimaAtualizacao: T.rhEnd });
  });

  it('asks each workspace’s reports and datasets once, and each refreshable dataset’s history once', async () => {
    await organisation();
    await ctx.app.freshness!.run();
    const requests = standIns.current.powerBi.requests;
    expect(requests.every((r) => r.method === 'GET' && r.status === 200)).toBe(true);
    for (const ws of [WS, WS2]) {
      expect(calls(`/groups/${ws}/reports`), ws).toHaveLength(1);
      expect(
        calls(`/groups/${ws}/datasets`).filter((r) => r.path.endsWith('/datasets')),
        ws,
      ).toHaveLength(1);
    }
    // Vendas and Metas share a dataset: one history for both, and no call for the dataset alone.
    const shared = reports.vendas.datasetId;
    expect(calls(`/datasets/${shared}`).map((r) => r.path.replace(/\?.*/, ''))).toEqual([
      `/v1.0/myorg/groups/${WS}/datasets/${shared}/refreshes`,
    ]);
    expect(calls(`/datasets/${shared}/refreshes`)[0]!.path).toMatch(/\$top=\d+/);
    // DirectQuery: its DirectQuery schedule alone, which says so; no history.
    expect(calls(`/datasets/${reports.ao_vivo.datasetId}`).map((r) => r.path)).toEqual([
      `/v1.0/myorg/groups/${WS}/datasets/${reports.ao_vivo.datasetId}/directQueryRefreshSchedule`,
    ]);
    // 2 workspaces × (reports + datasets), 6 import datasets’ histories and 1 DirectQuery schedule: 11 (16 when each
    // dataset was also asked for alone).
    expect(requests).toHaveLength(2 * 2 + 6 + 1);
  });

  it('finds a dataset of another workspace, which Power BI’s report does not name, and keeps it when that list fails', async () => {
    const WS3 = '0a0a0a0a-0000-4000-8000-00000000a003';
    const custos = report(9, 'Custos', 9);
    const custosEnd = hoursAgo(3);
    standIns.current.powerBi.setReports([...Object.values(reports), custos]);
    standIns.current.powerBi.setDatasets([
      ...datasets,
      {
        datasetId: custos.datasetId,
        workspaceId: WS3,
        refreshes: [{ status: 'Completed', startTime: hoursAgo(3.1), endTime: custosEnd }],
      },
    ]);
    const { panels, admin } = await organisation();
    const p = await panelOver(ctx.db, custos, { nomePainel: 'Custos' });
    await ctx.app.freshness!.run();
    expect(calls(`/groups/${WS3}/datasets`).map((r) => r.path)).toEqual([
      `/v1.0/myorg/groups/${WS3}/datasets`,
      `/v1.0/myorg/groups/${WS3}/datasets/${custos.datasetId}/refreshes?$top=10`,
    ]);
    expect(calls(`/groups/${WS3}/reports`)).toHaveLength(0);
    // Microsoft's Report has no datasetWorkspaceId, and the stand-in sends none: not in its report's workspace, the
    // dataset is looked for in the other workspaces the service principal is a member of.
    expect(calls('/groups?')).toHaveLength(1);
    // Reports of WS and WS2; the workspaces; datasets of WS, WS2 and WS3; 7 histories; Ao Vivo's DirectQuery schedule.
    expect(standIns.current.powerBi.requests).toHaveLength(2 + 1 + 3 + 7 + 1);
    const before = await freshness(admin);
    expect(before[p.id]).toMatchObject({ status: 'concluida', ultimaAtualizacao: custosEnd });

    // The service principal left the dataset's workspace: its dataset keeps its state, the others are read.
    standIns.current.powerBi.setRefreshes(custos.datasetId, [{ status: 'Disabled', startTime: hoursAgo(0.1) }]);
    standIns.current.powerBi.setRefreshes(reports.vendas.datasetId, [
      { status: 'Completed', startTime: hoursAgo(0.2), endTime: hoursAgo(0.1) },
    ]);
    standIns.current.powerBi.reset();
    standIns.current.powerBi.removeServicePrincipal(WS3);
    await ctx.app.freshness!.run();
    // Looked for where it was found before: no search of every workspace again.
    expect(calls('/groups?')).toHaveLength(0);
    expect(calls(`/groups/${WS3}/`).map((r) => r.status)).toEqual([401]);
    const after = await freshness(admin);
    expect(after[p.id]).toEqual(before[p.id]);
    expect(after[panels.vendas.id]?.ultimaAtualizacao).not.toBe(before[panels.vendas.id]?.ultimaAtualizacao);
  });

  it('reads the history of an import model Power BI calls not refreshable; Tempo real only where Power BI answers a DirectQuery schedule', async () => {
    // Microsoft's IsRefreshable: false for DirectQuery and live connections, and for an import model with no schedule
    // and no recent refresh, whose data is as old as its last refresh.
    const semAgenda = report(10, 'Sem agenda', 10);
    const live = report(11, 'Ao vivo (Analysis Services)', 11);
    const semAgendaStart = hoursAgo(30.1);
    const semAgendaEnd = hoursAgo(30);
    standIns.current.powerBi.setReports([...Object.values(reports), semAgenda, live]);
    standIns.current.powerBi.setDatasets([
      ...datasets,
      {
        datasetId: semAgenda.datasetId,
        isRefreshable: false,
        refreshes: [{ status: 'Completed', refreshType: 'OnDemand', startTime: semAgendaStart, endTime: semAgendaEnd }],
      },
      { datasetId: live.datasetId, storageMode: 'LiveConnection' },
    ]);
    const { panels, admin } = await organisation();
    const p = {
      semAgenda: await panelOver(ctx.db, semAgenda, { nomePainel: 'Sem agenda' }),
      live: await panelOver(ctx.db, live, { nomePainel: 'Ao vivo' }),
    };
    await ctx.app.freshness!.run();
    const all = await freshness(admin);
    expect(all[p.semAgenda.id]).toEqual({
      status: 'concluida',
      ultimaAtualizacao: semAgendaEnd,
      ultimaTentativa: semAgendaStart,
    });
    const realTime = { status: 'tempo-real', ultimaAtualizacao: null, ultimaTentativa: null };
    expect(all[p.live.id]).toEqual(realTime);
    expect(all[panels.aoVivo.id]).toEqual(realTime);
    // The DirectQuery schedule is asked of the datasets Power BI calls not refreshable only; their history of those
    // it refuses it for.
    const asked = (suffix: string) =>
      calls(suffix)
        .map((r) => r.path.split('/')[6])
        .sort();
    expect(asked('/directQueryRefreshSchedule')).toEqual(
      [reports.ao_vivo.datasetId, semAgenda.datasetId, live.datasetId].sort(),
    );
    expect(asked('/refreshes')).toContain(semAgenda.datasetId);
    expect(asked('/refreshes')).not.toContain(live.datasetId);
    expect(asked('/refreshes')).not.toContain(reports.ao_vivo.datasetId);
  });

  it('tells a cancelled refresh apart, passes over one a selective refresh disabled, and reads an empty error', async () => {
    const { panels, admin, ana } = await organisation();
    const cancelledStart = hoursAgo(0.5);
    const before = { start: hoursAgo(6.1), end: hoursAgo(6) };
    standIns.current.powerBi.setRefreshes(reports.vendas.datasetId, [
      // An enhanced refresh cancelled (asynchronous-refresh.md: "Cancelled indicates the refresh was canceled").
      {
        status: 'Cancelled',
        extendedStatus: 'Cancelled',
        refreshType: 'ViaEnhancedApi',
        startTime: cancelledStart,
        endTime: hoursAgo(0.4),
      },
      // "empty if no error".
      { status: 'Completed', startTime: before.start, endTime: before.end, serviceExceptionJson: '' },
    ]);
    standIns.current.powerBi.setRefreshes(reports.financeiro.datasetId, [
      { status: 'Disabled', startTime: hoursAgo(0.2) },
      { status: 'Completed', startTime: before.start, endTime: before.end },
    ]);
    standIns.current.powerBi.setRefreshes(reports.estoque.datasetId, [
      // Queued: the example of asynchronous-refresh.md's GET /refreshes.
      { status: 'Unknown', extendedStatus: 'NotStarted', refreshType: 'ViaEnhancedApi', startTime: hoursAgo(0.1) },
      { status: 'Completed', startTime: before.start, endTime: before.end },
    ]);
    await ctx.app.freshness!.run();
    const all = await freshness(admin);
    // Cancelled: not running, not failed; the data is that of the refresh before.
    expect(all[panels.vendas.id]).toEqual({
      status: 'cancelada',
      ultimaAtualizacao: before.end,
      ultimaTentativa: cancelledStart,
    });
    // Disabled by a selective refresh: it did not run, so it is neither the last attempt nor a change of the data.
    expect(all[panels.financeiro.id]).toEqual({
      status: 'concluida',
      ultimaAtualizacao: before.end,
      ultimaTentativa: before.start,
    });
    expect(all[panels.estoque.id]).toMatchObject({ status: 'em-andamento', ultimaAtualizacao: before.end });
    // A person reads the same state (without any message).
    expect((await freshness(ana))[panels.vendas.id]).toEqual(all[panels.vendas.id]);
  });

  it('waits out a 429 as Power BI’s Retry-After says, and reads everything', async () => {
    const { panels, admin } = await organisation();
    standIns.current.powerBi.failNext(429, 2);
    await ctx.app.freshness!.run();
    expect(standIns.current.powerBi.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect(sleeps.filter((ms) => ms === 1_000)).toHaveLength(2); // the stand-in's Retry-After: 1
    const all = await freshness(admin);
    expect(Object.values(all).filter((f) => f.status === 'desconhecida')).toHaveLength(2); // novo, desativado
    expect(all[panels.vendas.id]?.status).toBe('concluida');
  });

  it('answers a person only the panels they may open, without Power BI’s messages', async () => {
    const { panels, ana, admin } = await organisation();
    await ctx.app.freshness!.run();
    const mine = await freshness(ana);
    expect(Object.keys(mine).sort()).toEqual([String(panels.vendas.id), String(panels.financeiro.id)].sort());
    expect(mine[panels.financeiro.id]).toEqual({
      status: 'falhou',
      ultimaAtualizacao: T.financeiroCompleted,
      ultimaTentativa: T.financeiroFailed,
    });
    expect((await freshness(admin))[panels.financeiro.id]?.mensagem).toBe(
      'As credenciais da fonte de dados SQL expiraram.',
    );
  });

  it('keeps what it knew of a dataset, or a workspace, that Power BI does not answer for', async () => {
    const { panels, admin } = await organisation();
    await ctx.app.freshness!.run();
    const before = await freshness(admin);

    // Now Vendas refreshed again, but Power BI fails every call: nothing changes.
    standIns.current.powerBi.setRefreshes(reports.vendas.datasetId, [
      { status: 'Completed', startTime: hoursAgo(0.2), endTime: hoursAgo(0.1) },
    ]);
    standIns.current.powerBi.reset();
    standIns.current.powerBi.failNext(500, 1_000);
    await ctx.app.freshness!.run();
    expect(await freshness(admin)).toEqual(before);

    // A workspace the service principal left keeps its panels' datasets; the other workspace is read.
    standIns.current.powerBi.reset();
    standIns.current.powerBi.removeServicePrincipal(WS2);
    await ctx.app.freshness!.run();
    const after = await freshness(admin);
    expect(after[panels.rh.id]).toEqual(before[panels.rh.id]);
    expect(after[panels.vendas.id]?.ultimaAtualizacao).not.toBe(before[panels.vendas.id]?.ultimaAtualizacao);
  });

  it('keeps the last completed refresh known when the whole history read has none', async () => {
    const { panels, admin } = await organisation();
    await ctx.app.freshness!.run();
    const failedAt = hoursAgo(0.5);
    standIns.current.powerBi.setRefreshes(reports.vendas.datasetId, [
      { status: 'Failed', startTime: failedAt, endTime: hoursAgo(0.4), serviceExceptionJson: 'texto solto' },
    ]);
    await ctx.app.freshness!.run();
    expect((await freshness(admin))[panels.vendas.id]).toEqual({
      status: 'falhou',
      ultimaAtualizacao: T.vendasEnd,
      ultimaTentativa: failedAt,
      mensagem: 'texto solto',
    });
  });

  it('never makes a person wait for Power BI: before any round every panel is unknown, and nothing was asked', async () => {
    const { panels, ana, admin } = await organisation();
    const all = await freshness(admin);
    expect(all[panels.vendas.id]).toEqual({ status: 'desconhecida', ultimaAtualizacao: null, ultimaTentativa: null });
    expect(Object.keys(await freshness(ana))).toHaveLength(2);
    expect(standIns.current.powerBi.requests).toEqual([]);
  });

  it('answers the hot read from memory, without a statement to the database, with an ETag', async () => {
    const { admin, ana } = await organisation();
    await ctx.app.freshness!.run();
    await freshness(admin);
    await freshness(ana);
    await eventually(() => expect(versionFeedLive(ctx.db)).toBe(true));
    spy = spyOnStatements(ctx.db);
    for (let round = 0; round < 3; round++) {
      await freshness(admin);
      await freshness(ana);
    }
    const first = await ctx.request('GET', '/api/paineis/atualizacoes', { token: ana });
    const again = await ctx.request('GET', '/api/paineis/atualizacoes', {
      token: ana,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(spy.count()).toBe(0);
  });

  it('reads a panel pointed at another report at once, for that panel alone, and a panel saved unchanged not again', async () => {
    const { panels, admin } = await organisation();
    await ctx.app.freshness!.run();
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports(Object.values(reports));
    standIns.current.powerBi.setDatasets(datasets);
    const moved = await ctx.request('PUT', `/api/paineis/${panels.vendas.id}`, {
      token: admin,
      body: { nomePainel: 'Vendas', workspaceId: WS, reportId: reports.financeiro.reportId, usaRls: false },
    });
    expect(moved.statusCode).toBe(200);
    await ctx.app.tasks.idle();
    expect((await freshness(admin))[panels.vendas.id]?.status).toBe('falhou');
    // One workspace listing, one of its datasets and Financeiro's history: not a round over every panel.
    expect(calls('/refreshes').map((r) => r.path)).toEqual([
      expect.stringContaining(reports.financeiro.datasetId) as string,
    ]);
    // Saved again unchanged: nothing to read.
    const saved = await ctx.request('PUT', `/api/paineis/${panels.vendas.id}`, {
      token: admin,
      body: { nomePainel: 'Vendas do mês', workspaceId: WS, reportId: reports.financeiro.reportId, usaRls: false },
    });
    expect(saved.statusCode).toBe(200);
    await ctx.app.tasks.idle();
    expect(calls('/refreshes')).toHaveLength(1);
    expect(calls('/pages')).toHaveLength(1);
  });

  it('starts a round on an admin’s demand (202), and refuses everyone else', async () => {
    const { panels, admin, ana } = await organisation();
    expect((await ctx.request('POST', '/api/paineis/atualizacoes/verificar', { token: ana })).statusCode).toBe(403);
    expect((await ctx.request('POST', '/api/paineis/atualizacoes/verificar')).statusCode).toBe(401);
    expect((await ctx.request('GET', '/api/paineis/atualizacoes')).statusCode).toBe(401);
    expect(standIns.current.powerBi.requests).toEqual([]);
    const res = await ctx.request('POST', '/api/paineis/atualizacoes/verificar', { token: admin });
    expect(res.statusCode).toBe(202);
    await ctx.app.freshness!.idle();
    expect((await freshness(admin))[panels.vendas.id]?.status).toBe('concluida');
  });
});

describe('Power BI’s message on a failed refresh', () => {
  it('reads errorDescription, then message, then the code, then the text itself, bounded', () => {
    expect(failureMessage(CREDENTIALS)).toBe('As credenciais da fonte de dados SQL expiraram.');
    expect(failureMessage('{"error":{"code":"X","message":"Falhou a conexão."}}')).toBe('Falhou a conexão.');
    expect(failureMessage('{"errorCode":"ModelRefreshFailed_CredentialsNotSpecified"}')).toBe(
      'ModelRefreshFailed_CredentialsNotSpecified',
    );
    expect(failureMessage('not json')).toBe('not json');
    expect(failureMessage(null)).toBe(FAILED_WITHOUT_REASON);
    expect(failureMessage('x'.repeat(5_000))).toHaveLength(MAX_MESSAGE);
  });
});

describe('freshness without Microsoft configuration', () => {
  const ctx = useTestApp();

  it('answers every panel unknown, and says that no round can be started', async () => {
    const admin = await createAdmin(ctx.db);
    const p = await panelOver(ctx.db, reports.vendas);
    const token = await ctx.tokenFor(admin);
    expect(ctx.app.freshness).toBeNull();
    const res = await ctx.request('GET', '/api/paineis/atualizacoes', { token });
    expect(res.json()).toEqual({ [p.id]: { status: 'desconhecida', ultimaAtualizacao: null, ultimaTentativa: null } });
    const started = await ctx.request('POST', '/api/paineis/atualizacoes/verificar', { token });
    expect(started.statusCode).toBe(503);
    expect(started.json()).toEqual({ message: POWER_BI_NOT_CONFIGURED });
  });
});
