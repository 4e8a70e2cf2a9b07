import { checkExchange } from '@paineis/microsoft-api/check-exchange';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStandIns } from './stand-ins.ts';
import { powerBiToken, testReport, vendas, WORKSPACE } from './test-helpers.ts';
import type { StandInRefresh, StandInRefreshCycle, StandInReport, StandIns } from './types.ts';

/** Response bodies are checked by shape, so tests read them untyped. */
function json(response: Response): Promise<any> {
  return response.json();
}

const OTHER_WORKSPACE = 'aaaaaaaa-0000-4000-8000-000000000002';
const financeiro = testReport(2, { name: 'Financeiro', rls: true });
const tempoReal = testReport(3, { name: 'Operação em tempo real', rls: false });
const emOutro: StandInReport = {
  ...testReport(4, { name: 'Custos', rls: false }),
  workspaceId: OTHER_WORKSPACE,
};
const FAILED_JSON = JSON.stringify({
  errorCode: 'ModelRefreshFailed_CredentialsNotSpecified',
  errorDescription: 'As credenciais da fonte de dados estão ausentes ou expiraram.',
});

const FINANCEIRO_REFRESHES: StandInRefresh[] = [
  { status: 'Unknown', refreshType: 'OnDemand', startTime: '2030-01-02T10:00:00.000Z' },
  {
    status: 'Failed',
    startTime: '2030-01-02T07:00:00.000Z',
    endTime: '2030-01-02T07:03:00.000Z',
    serviceExceptionJson: FAILED_JSON,
  },
  { status: 'Completed', startTime: '2030-01-01T07:00:00.000Z', endTime: '2030-01-01T07:05:00.000Z' },
];

describe('Power BI catalogue stand-in: workspaces, reports, pages, datasets, refresh history', () => {
  let s: StandIns;
  let token: string;

  beforeAll(async () => {
    s = await startStandIns({
      people: [],
      reports: [vendas, financeiro, tempoReal, emOutro],
      workspaces: [{ id: WORKSPACE, name: 'Comercial' }],
      datasets: [
        { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery' },
        {
          datasetId: financeiro.datasetId,
          refreshes: FINANCEIRO_REFRESHES,
        },
      ],
      recordExchanges: true,
    });
    token = await powerBiToken(s);
  });
  afterAll(() => s.close());
  beforeEach(() => {
    s.powerBi.reset();
    s.clearExchanges();
  });

  const get = (path: string, bearer: string | null = token) =>
    fetch(`${s.powerBiApiUrl}/v1.0/myorg${path}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  /** Every call so far, as Microsoft's description of the call has it. */
  function expectNoViolations(): void {
    const power = s.exchanges.filter((exchange) => exchange.service === 'power-bi');
    expect(power.length).toBeGreaterThan(0);
    expect(power.flatMap((exchange) => checkExchange(exchange))).toEqual([]);
  }

  it('lists the workspaces, declared names first and the others by default, with the OData context', async () => {
    const body = await json(await get('/groups'));
    expect(body['@odata.context']).toMatch(/\/v1\.0\/myorg\/\$metadata#groups$/);
    expect(body.value).toEqual([
      expect.objectContaining({ id: WORKSPACE, name: 'Comercial', isReadOnly: false, isOnDedicatedCapacity: true }),
      expect.objectContaining({ id: OTHER_WORKSPACE, name: 'Workspace 2' }),
    ]);
    expectNoViolations();
  });

  it('pages the workspaces by $top and $skip, and filters them by name', async () => {
    s.powerBi.setWorkspaces(
      Array.from({ length: 5 }, (_, index) => ({
        id: `dddddddd-0000-4000-8000-00000000000${index}`,
        name: `Área ${index}`,
      })),
    );
    try {
      const names = async (query: string) =>
        (await json(await get(`/groups${query}`))).value.map((group: { name: string }) => group.name);
      // The reports' two workspaces come after the five declared ones.
      expect(await names('?$top=3&$skip=0')).toEqual(['Área 0', 'Área 1', 'Área 2']);
      expect(await names('?$top=3&$skip=3')).toEqual(['Área 3', 'Área 4', 'Workspace 1']);
      expect(await names('?$top=3&$skip=6')).toEqual(['Workspace 2']);
      expect(await names('?$top=3&$skip=9')).toEqual([]);
      expect(await names("?$filter=contains(name,'área 1') or name eq 'Workspace 2'")).toEqual([
        'Área 1',
        'Workspace 2',
      ]);
      expectNoViolations();
      for (const query of ['?$top=-1', '?$top=dez', '?$skip=1.5', "?$filter=startswith(name,'A')"]) {
        const response = await get(`/groups${query}`);
        expect(response.status).toBe(400);
        expect((await json(response)).error.code).toBe('InvalidRequest');
      }
    } finally {
      s.powerBi.setWorkspaces([{ id: WORKSPACE, name: 'Comercial' }]);
    }
  });

  it("lists a workspace's reports with their dataset, never the dataset's workspace, and refuses an unknown one", async () => {
    const body = await json(await get(`/groups/${WORKSPACE}/reports`));
    expect(body['@odata.context']).toMatch(new RegExp(`/groups/${WORKSPACE}/\\$metadata#reports$`));
    expect(body.value.map((report: { name: string }) => report.name)).toEqual([
      'Vendas',
      'Financeiro',
      'Operação em tempo real',
    ]);
    expect(body.value[0]).toMatchObject({
      id: vendas.reportId,
      reportType: 'PowerBIReport',
      datasetId: vendas.datasetId,
      embedUrl: expect.stringContaining(`reportId=${vendas.reportId}`),
    });
    // Not a field of the swagger's Report (only of the admin scanner's related datasets): never sent.
    for (const report of body.value) expect(report).not.toHaveProperty('datasetWorkspaceId');
    const alone = await json(await get(`/groups/${WORKSPACE}/reports/${vendas.reportId}`));
    expect(alone).not.toHaveProperty('datasetWorkspaceId');
    const unknown = await get('/groups/eeeeeeee-0000-4000-8000-000000000009/reports');
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('PowerBIEntityNotFound');
    expectNoViolations();
  });

  it('lists a paginated report as Microsoft documents it: reportType PaginatedReport and no datasetId', async () => {
    const boletos: StandInReport = { ...testReport(5, { name: 'Boletos', rls: false }), reportType: 'PaginatedReport' };
    const untyped: StandInReport = { ...testReport(6, { name: 'Notas', rls: false }), reportTypeSent: false };
    s.powerBi.setReports([vendas, financeiro, tempoReal, emOutro, boletos, untyped]);
    try {
      const body = await json(await get(`/groups/${WORKSPACE}/reports`));
      const byName = (name: string) => body.value.find((report: { name: string }) => report.name === name);
      expect(byName('Boletos')).toMatchObject({ id: boletos.reportId, reportType: 'PaginatedReport' });
      expect(byName('Boletos')).not.toHaveProperty('datasetId');
      // "Returns a subset" of a report's properties: this one comes without its type.
      expect(byName('Notas')).toMatchObject({ id: untyped.reportId, datasetId: untyped.datasetId });
      expect(byName('Notas')).not.toHaveProperty('reportType');
      // A paginated report's dataset is no dataset of the workspace.
      const datasets = await json(await get(`/groups/${WORKSPACE}/datasets`));
      expect(datasets.value.map((entry: { id: string }) => entry.id)).not.toContain(boletos.datasetId);
      expectNoViolations();
    } finally {
      s.powerBi.setReports([vendas, financeiro, tempoReal, emOutro]);
    }
  });

  it("lists a report's pages in order, hidden ones too, and answers 404 once the report is deleted", async () => {
    const body = await json(await get(`/groups/${WORKSPACE}/reports/${vendas.reportId}/pages`));
    expect(body.value.map((page: { displayName: string; order: number }) => [page.displayName, page.order])).toEqual([
      ['Visão geral', 0],
      ['Detalhes', 1],
      ['Tendências', 2],
      ['Notas internas', 3],
    ]);
    s.powerBi.setReports([financeiro, tempoReal, emOutro]);
    try {
      for (const path of [`/reports/${vendas.reportId}/pages`, `/reports/${vendas.reportId}`]) {
        const gone = await get(`/groups/${WORKSPACE}${path}`);
        expect(gone.status).toBe(404);
        expect((await json(gone)).error.code).toBe('PowerBIEntityNotFound');
      }
    } finally {
      s.powerBi.setReports([vendas, financeiro, tempoReal, emOutro]);
    }
    expectNoViolations();
  });

  it("lists a workspace's datasets: import by default, DirectQuery not refreshable, RLS as identity required", async () => {
    const body = await json(await get(`/groups/${WORKSPACE}/datasets`));
    expect(body['@odata.context']).toMatch(new RegExp(`/groups/${WORKSPACE}/\\$metadata#datasets$`));
    // Declared first, then those only a report names; each once.
    expect(body.value.map((entry: { id: string }) => entry.id)).toEqual([
      tempoReal.datasetId,
      financeiro.datasetId,
      vendas.datasetId,
    ]);
    const byId = (datasetId: string) => body.value.find((entry: { id: string }) => entry.id === datasetId);
    expect(byId(vendas.datasetId)).toMatchObject({
      id: vendas.datasetId,
      name: 'Vendas',
      isRefreshable: true,
      isEffectiveIdentityRequired: false,
      targetStorageMode: 'Abf',
    });
    expect(byId(tempoReal.datasetId)).toMatchObject({ id: tempoReal.datasetId, isRefreshable: false });
    expect(byId(tempoReal.datasetId)).not.toHaveProperty('targetStorageMode');
    expect(byId(financeiro.datasetId)).toMatchObject({
      isEffectiveIdentityRequired: true,
      isEffectiveIdentityRolesRequired: true,
    });
    // A dataset is listed in its own workspace only.
    const other = await json(await get(`/groups/${OTHER_WORKSPACE}/datasets`));
    expect(other.value.map((entry: { id: string }) => entry.id)).toEqual([emOutro.datasetId]);
    const unknown = await get('/groups/eeeeeeee-0000-4000-8000-000000000009/datasets');
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('PowerBIEntityNotFound');
    expectNoViolations();
  });

  it('lists a dataset declared in a workspace no report is in, there and not where its reports are', async () => {
    const lone = { datasetId: 'cccccccc-0000-4000-8000-000000000099', workspaceId: OTHER_WORKSPACE, name: 'Só' };
    const shared = { datasetId: vendas.datasetId, workspaceId: 'aaaaaaaa-0000-4000-8000-000000000003' };
    s.powerBi.setDatasets([lone, shared]);
    try {
      const ids = async (workspaceId: string) =>
        (await json(await get(`/groups/${workspaceId}/datasets`))).value.map((entry: { id: string }) => entry.id);
      expect(await ids(OTHER_WORKSPACE)).toEqual([lone.datasetId, emOutro.datasetId]);
      expect(await ids(shared.workspaceId)).toEqual([vendas.datasetId]);
      expect(await ids(WORKSPACE)).toEqual([financeiro.datasetId, tempoReal.datasetId]);
      expectNoViolations();
    } finally {
      s.powerBi.setDatasets([
        { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery' },
        { datasetId: financeiro.datasetId, refreshes: FINANCEIRO_REFRESHES },
      ]);
    }
  });

  it('describes a dataset alone as it lists it (Datasets_GetDatasetInGroup, which the portal no longer asks)', async () => {
    const listed = await json(await get(`/groups/${WORKSPACE}/datasets`));
    for (const entry of listed.value) {
      const alone = await json(await get(`/groups/${WORKSPACE}/datasets/${entry.id}`));
      expect(alone).toEqual({
        '@odata.context': expect.stringMatching(/\$metadata#datasets\/\$entity$/),
        ...entry,
      });
    }
    // A dataset lives in one workspace.
    const elsewhere = await get(`/groups/${OTHER_WORKSPACE}/datasets/${vendas.datasetId}`);
    expect(elsewhere.status).toBe(404);
  });

  it('answers the refresh history newest first, cut at $top, in every status', async () => {
    const history = await json(await get(`/groups/${WORKSPACE}/datasets/${financeiro.datasetId}/refreshes`));
    expect(history.value.map((entry: { status: string }) => entry.status)).toEqual(['Unknown', 'Failed', 'Completed']);
    expect(history.value[0]).not.toHaveProperty('endTime');
    expect(history.value[1]).toMatchObject({ endTime: '2030-01-02T07:03:00.000Z', serviceExceptionJson: FAILED_JSON });
    expect(history.value[2]).toMatchObject({ refreshType: 'Scheduled', requestId: expect.any(String) });

    const top = await json(await get(`/groups/${WORKSPACE}/datasets/${financeiro.datasetId}/refreshes?$top=1`));
    expect(top.value).toHaveLength(1);

    // Undeclared: one Completed refresh before the stand-ins started; DirectQuery: none at all.
    const byDefault = await json(await get(`/groups/${WORKSPACE}/datasets/${vendas.datasetId}/refreshes?$top=5`));
    expect(byDefault.value).toEqual([expect.objectContaining({ status: 'Completed' })]);
    expect(Date.parse(byDefault.value[0].endTime)).toBeLessThan(Date.now());
    const direct = await json(await get(`/groups/${WORKSPACE}/datasets/${tempoReal.datasetId}/refreshes`));
    expect(direct.value).toEqual([]);

    s.powerBi.setRefreshes(vendas.datasetId, [
      { status: 'Disabled', startTime: '2030-01-03T00:00:00.000Z', endTime: '2030-01-03T00:00:01.000Z' },
    ]);
    const changed = await json(await get(`/groups/${WORKSPACE}/datasets/${vendas.datasetId}/refreshes`));
    expect(changed.value).toEqual([expect.objectContaining({ status: 'Disabled' })]);
    expectNoViolations();

    const zero = await get(`/groups/${WORKSPACE}/datasets/${vendas.datasetId}/refreshes?$top=0`);
    expect(zero.status).toBe(400);
  });

  it('answers a DirectQuery schedule for DirectQuery and live connections only; an import model without a schedule is not refreshable, and keeps its history', async () => {
    const live = testReport(7, { name: 'Ao vivo', rls: false });
    const semAgenda = testReport(8, { name: 'Sem agenda', rls: false });
    const lastRefresh = {
      status: 'Completed',
      startTime: '2030-01-01T07:00:00.000Z',
      endTime: '2030-01-01T07:05:00.000Z',
    } as const;
    s.powerBi.setReports([vendas, financeiro, tempoReal, emOutro, live, semAgenda]);
    s.powerBi.setDatasets([
      { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery' },
      { datasetId: financeiro.datasetId, refreshes: FINANCEIRO_REFRESHES },
      { datasetId: live.datasetId, storageMode: 'LiveConnection' },
      { datasetId: semAgenda.datasetId, isRefreshable: false, refreshes: [lastRefresh] },
    ]);
    try {
      const listed = await json(await get(`/groups/${WORKSPACE}/datasets`));
      const byId = (datasetId: string) => listed.value.find((entry: { id: string }) => entry.id === datasetId);
      // IsRefreshable is false for all three: it does not tell DirectQuery from an import model left unscheduled.
      for (const r of [tempoReal, live, semAgenda]) expect(byId(r.datasetId)).toMatchObject({ isRefreshable: false });
      expect(byId(semAgenda.datasetId)).toMatchObject({ targetStorageMode: 'Abf' });

      const schedule = (r: StandInReport) =>
        get(`/groups/${WORKSPACE}/datasets/${r.datasetId}/directQueryRefreshSchedule`);
      for (const r of [tempoReal, live]) {
        const answer = await schedule(r);
        expect(answer.status).toBe(200);
        expect(await json(answer)).toEqual({ frequency: 60, days: [], times: [], localTimeZoneId: 'UTC' });
      }
      for (const r of [semAgenda, vendas]) {
        const refused = await schedule(r);
        expect(refused.status).toBe(400);
        expect((await json(refused)).error.code).toBe('InvalidRequest');
      }
      const history = await json(await get(`/groups/${WORKSPACE}/datasets/${semAgenda.datasetId}/refreshes`));
      expect(history.value).toEqual([expect.objectContaining(lastRefresh)]);
      expectNoViolations();
    } finally {
      s.powerBi.setReports([vendas, financeiro, tempoReal, emOutro]);
      s.powerBi.setDatasets([
        { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery' },
        { datasetId: financeiro.datasetId, refreshes: FINANCEIRO_REFRESHES },
      ]);
    }
  });

  it("answers an import model's refresh schedule, declared or by default, and refuses a DirectQuery one", async () => {
    const weekdays = {
      days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const,
      times: ['07:30'],
      enabled: false,
      localTimeZoneId: 'UTC',
    };
    s.powerBi.setDatasets([
      { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery' },
      {
        datasetId: financeiro.datasetId,
        refreshes: FINANCEIRO_REFRESHES,
        refreshSchedule: { ...weekdays, days: [...weekdays.days] },
      },
    ]);
    try {
      const schedule = (r: StandInReport) => get(`/groups/${WORKSPACE}/datasets/${r.datasetId}/refreshSchedule`);
      expect(await json(await schedule(vendas))).toMatchObject({
        days: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
        times: ['06:00', '18:00'],
        enabled: true,
        localTimeZoneId: 'E. South America Standard Time',
        notifyOption: 'MailOnFailure',
      });
      expect(await json(await schedule(financeiro))).toMatchObject({ ...weekdays, days: [...weekdays.days] });
      const refused = await schedule(tempoReal);
      expect(refused.status).toBe(400);
      expect((await json(refused)).error.code).toBe('InvalidRequest');
      expectNoViolations();
    } finally {
      s.powerBi.setDatasets([
        { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery' },
        { datasetId: financeiro.datasetId, refreshes: FINANCEIRO_REFRESHES },
      ]);
    }
  });

  it('answers a cancelled refresh, an extendedStatus and an empty serviceExceptionJson, as Power BI documents them', async () => {
    s.powerBi.setRefreshes(vendas.datasetId, [
      {
        status: 'Unknown',
        extendedStatus: 'NotStarted',
        refreshType: 'ViaEnhancedApi',
        startTime: '2030-01-04T10:00:00.000Z',
      },
      {
        status: 'Cancelled',
        extendedStatus: 'Cancelled',
        refreshType: 'ViaEnhancedApi',
        startTime: '2030-01-04T08:00:00.000Z',
        endTime: '2030-01-04T08:10:00.000Z',
      },
      {
        status: 'Completed',
        startTime: '2030-01-03T07:00:00.000Z',
        endTime: '2030-01-03T07:05:00.000Z',
        serviceExceptionJson: '',
      },
    ]);
    try {
      const history = await json(await get(`/groups/${WORKSPACE}/datasets/${vendas.datasetId}/refreshes`));
      expect(history.value).toEqual([
        expect.objectContaining({ status: 'Unknown', extendedStatus: 'NotStarted' }),
        expect.objectContaining({ status: 'Cancelled', extendedStatus: 'Cancelled' }),
        expect.objectContaining({ status: 'Completed', serviceExceptionJson: '' }),
      ]);
      expect(history.value[0]).not.toHaveProperty('endTime');
      expectNoViolations();
    } finally {
      s.powerBi.setDatasets([
        { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery' },
        { datasetId: financeiro.datasetId, refreshes: FINANCEIRO_REFRESHES },
      ]);
    }
  });

  it("computes a refresh cycle's history from the clock: running, completed, failed every n-th cycle, recovered, cut at $top", async () => {
    const everyMs = 4 * 60_000;
    const durationMs = 20_000;
    const failure = JSON.stringify({
      errorCode: 'ModelRefresh_ShortMessage_ProcessingError',
      errorDescription: "A coluna 'Turno' não existe no conjunto de linhas.",
    });
    s.powerBi.setDatasets([
      { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery', refreshCycle: { everyMs, durationMs } },
      {
        datasetId: financeiro.datasetId,
        refreshes: FINANCEIRO_REFRESHES,
        refreshCycle: { everyMs, durationMs, failEvery: 3, failure },
      },
    ]);
    // Moments ahead of the real clock, so the service principal's token is valid then: cycle m follows a failed one.
    let m = Math.floor(Date.now() / everyMs) + 1;
    while (m % 3 !== 1) m++;
    const iso = (ms: number) => new Date(ms).toISOString();
    const startOf = (k: number) => k * everyMs;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const history = async (top?: number) => {
        const query = top === undefined ? '' : `?$top=${top}`;
        return (await json(await get(`/groups/${WORKSPACE}/datasets/${financeiro.datasetId}/refreshes${query}`))).value;
      };

      // 5 s into cycle m: its refresh runs; m − 1 completed after m − 2 failed; the declared history is not answered.
      vi.setSystemTime(startOf(m) + 5_000);
      const running = await history(4);
      expect(running).toEqual([
        expect.objectContaining({ status: 'Unknown', refreshType: 'Scheduled', startTime: iso(startOf(m)) }),
        expect.objectContaining({
          status: 'Completed',
          startTime: iso(startOf(m - 1)),
          endTime: iso(startOf(m - 1) + durationMs),
        }),
        expect.objectContaining({
          status: 'Failed',
          startTime: iso(startOf(m - 2)),
          endTime: iso(startOf(m - 2) + durationMs),
          serviceExceptionJson: failure,
        }),
        expect.objectContaining({ status: 'Completed', startTime: iso(startOf(m - 3)) }),
      ]);
      expect(running[0]).not.toHaveProperty('endTime');
      expect(running[0]).not.toHaveProperty('refreshAttempts');
      expect(running[1]).not.toHaveProperty('serviceExceptionJson');

      // At its end it completed, with the same requestId; every refresh keeps its id as newer ones come first.
      vi.setSystemTime(startOf(m) + durationMs);
      const ended = await history(2);
      expect(ended).toEqual([
        expect.objectContaining({ status: 'Completed', endTime: iso(startOf(m) + durationMs) }),
        expect.objectContaining({ status: 'Completed', startTime: iso(startOf(m - 1)) }),
      ]);
      expect(ended.map((r: { requestId: string }) => r.requestId)).toEqual(
        running.slice(0, 2).map((r: { requestId: string }) => r.requestId),
      );

      // The next cycle (the third) fails once its refresh ends, and the one after completes again.
      vi.setSystemTime(startOf(m + 1) + 30_000);
      expect(await history(1)).toEqual([
        expect.objectContaining({ status: 'Failed', startTime: iso(startOf(m + 1)), serviceExceptionJson: failure }),
      ]);
      vi.setSystemTime(startOf(m + 2) + 30_000);
      const recovered = await history();
      expect(recovered.slice(0, 2)).toEqual([
        expect.objectContaining({ status: 'Completed', startTime: iso(startOf(m + 2)) }),
        expect.objectContaining({ status: 'Failed', startTime: iso(startOf(m + 1)) }),
      ]);
      // Without $top, Power BI's 60, as many as the cycles give; one in three failed.
      expect(recovered).toHaveLength(60);
      expect(recovered.filter((r: { status: string }) => r.status === 'Failed')).toHaveLength(20);

      // A DirectQuery dataset refreshes nothing, cycle or not.
      const direct = await json(await get(`/groups/${WORKSPACE}/datasets/${tempoReal.datasetId}/refreshes`));
      expect(direct.value).toEqual([]);
      expectNoViolations();

      // Setting a history replaces the cycle.
      s.powerBi.setRefreshes(financeiro.datasetId, FINANCEIRO_REFRESHES);
      expect((await history()).map((r: { status: string }) => r.status)).toEqual(['Unknown', 'Failed', 'Completed']);
    } finally {
      vi.useRealTimers();
      s.powerBi.setDatasets([
        { datasetId: tempoReal.datasetId, storageMode: 'DirectQuery' },
        { datasetId: financeiro.datasetId, refreshes: FINANCEIRO_REFRESHES },
      ]);
    }
  });

  it('refuses a refresh cycle it cannot play', () => {
    const cycle = (refreshCycle: StandInRefreshCycle) => () =>
      s.powerBi.setDatasets([{ datasetId: vendas.datasetId, refreshCycle }]);
    expect(cycle({ everyMs: 0, durationMs: 0 })).toThrow(RangeError);
    expect(cycle({ everyMs: 60_000, durationMs: 60_000 })).toThrow(RangeError);
    expect(cycle({ everyMs: 60_000, durationMs: 1_000, failEvery: 0 })).toThrow(RangeError);
    expect(cycle({ everyMs: 60_000, durationMs: 1_000, failEvery: 2.5 })).toThrow(RangeError);
  });

  it('refuses every call on a workspace the service principal was removed from with 401, until restored or reset', async () => {
    s.powerBi.removeServicePrincipal(WORKSPACE.toUpperCase());
    const listed = await json(await get('/groups'));
    expect(listed.value.map((group: { id: string }) => group.id)).toEqual([OTHER_WORKSPACE]);
    for (const path of [
      '/reports',
      `/reports/${vendas.reportId}`,
      `/reports/${vendas.reportId}/pages`,
      '/datasets',
      `/datasets/${vendas.datasetId}/refreshes?$top=1`,
      `/datasets/${tempoReal.datasetId}/directQueryRefreshSchedule`,
    ]) {
      const refused = await get(`/groups/${WORKSPACE}${path}`);
      expect(refused.status, path).toBe(401);
      expect((await json(refused)).error.code).toBe('PowerBINotAuthorizedException');
    }
    const embed = await fetch(`${s.powerBiApiUrl}/v1.0/myorg/GenerateToken`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reports: [{ id: vendas.reportId }], datasets: [{ id: vendas.datasetId }] }),
    });
    expect(embed.status).toBe(401);
    // The other workspace is untouched.
    expect((await get(`/groups/${OTHER_WORKSPACE}/reports`)).status).toBe(200);
    expectNoViolations();

    s.powerBi.restoreServicePrincipal(WORKSPACE);
    expect((await get(`/groups/${WORKSPACE}/reports`)).status).toBe(200);
    s.powerBi.removeServicePrincipal(WORKSPACE);
    s.powerBi.reset();
    expect((await get(`/groups/${WORKSPACE}/reports`)).status).toBe(200);
  });

  it('plays the queued faults on these calls too: 429 with Retry-After, then serves again', async () => {
    s.powerBi.throttleNext(7);
    const throttled = await get(`/groups/${WORKSPACE}/datasets/${vendas.datasetId}/refreshes?$top=1`);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('7');
    expect((await json(throttled)).error.code).toBe('TooManyRequests');
    expect((await get('/groups')).status).toBe(200);
    s.powerBi.garbageNext('wrong-shape');
    expect(Array.isArray((await json(await get(`/groups/${WORKSPACE}/reports`))).value)).toBe(false);
    // Without a token Power BI refuses before any fault is taken.
    expect((await get('/groups', null)).status).toBe(403);
  });

  it('refuses duplicate ids in its controls', () => {
    expect(() =>
      s.powerBi.setWorkspaces([
        { id: WORKSPACE, name: 'a' },
        { id: WORKSPACE.toUpperCase(), name: 'b' },
      ]),
    ).toThrow(RangeError);
    expect(() => s.powerBi.setDatasets([{ datasetId: vendas.datasetId }, { datasetId: vendas.datasetId }])).toThrow(
      RangeError,
    );
  });
});
