import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { MicrosoftError } from '../microsoft-error.ts';
import type { PowerBiClient } from './power-bi-client.ts';

/**
 * The Power BI client's catalogue calls (workspaces, reports, pages, datasets, refresh history) against the stand-in
 * Power BI: paging, ordering, both of Microsoft's spellings, malformed answers, and the two retry profiles.
 */

const WS = '0a0a0a0a-0000-4000-8000-00000000e001';
const report = (n: number, name: string, datasetId = `0c0c0c0c-0000-4000-8000-00000000e00${n}`): StandInReport => ({
  workspaceId: WS,
  reportId: `0b0b0b0b-0000-4000-8000-00000000e00${n}`,
  name,
  datasetId,
  rls: false,
});
const PAGINATED = '0b0b0b0b-0000-4000-8000-00000000e0a1';
const UNTYPED = '0b0b0b0b-0000-4000-8000-00000000e0a2';
const vendas = report(1, 'Vendas');
const aoVivo = report(2, 'Ao vivo');
const workspaces = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `0a0a0a0a-0000-4000-8000-00000000f00${i}`, name: `Área ${i}` }));

describe('the Power BI client’s catalogue calls', () => {
  const standIns = useStandIns({ people: [], reports: [vendas, aoVivo] });
  const sleeps: number[] = [];
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { sleep: async (ms: number) => void sleeps.push(ms), workspacePageSize: 2 },
  }));
  const client = (): PowerBiClient => ctx.app.powerBi!;
  const paths = () => standIns.current.powerBi.requests.map((request) => request.path);

  beforeEach(() => {
    sleeps.length = 0;
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports([vendas, aoVivo]);
    standIns.current.powerBi.setDatasets([{ datasetId: aoVivo.datasetId, storageMode: 'DirectQuery' }]);
  });

  it('follows the workspaces page by page until a page comes back short, even an empty one', async () => {
    // Four declared and the reports' own one: five, in pages of two.
    standIns.current.powerBi.setWorkspaces(workspaces(4));
    const all = await client().listWorkspaces();
    expect(all.map((workspace) => workspace.name)).toEqual(['Área 0', 'Área 1', 'Área 2', 'Área 3', 'Workspace 1']);
    expect(paths()).toEqual([
      '/v1.0/myorg/groups?$top=2&$skip=0',
      '/v1.0/myorg/groups?$top=2&$skip=2',
      '/v1.0/myorg/groups?$top=2&$skip=4',
    ]);
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setWorkspaces(workspaces(3));
    expect(await client().listWorkspaces()).toHaveLength(4);
    // Four fill two pages exactly: only an empty third page says there are no more.
    expect(paths()).toHaveLength(3);
  });

  it('lists reports with their dataset, and pages in their order', async () => {
    expect(await client().listReports(WS)).toEqual([
      {
        id: vendas.reportId,
        name: 'Vendas',
        datasetId: vendas.datasetId,
        // Not a field of Microsoft's Report: the stand-in never sends it.
        datasetWorkspaceId: null,
        reportType: 'PowerBIReport',
      },
      expect.objectContaining({ id: aoVivo.reportId, name: 'Ao vivo' }),
    ]);
    // A paginated report has no dataset; a report listed without its type is not taken for a Power BI report.
    const boletos: StandInReport = { ...vendas, reportId: PAGINATED, name: 'Boletos', reportType: 'PaginatedReport' };
    standIns.current.powerBi.setReports([vendas, boletos, { ...boletos, reportId: UNTYPED, reportTypeSent: false }]);
    expect((await client().listReports(WS)).slice(1)).toEqual([
      { id: PAGINATED, name: 'Boletos', datasetId: null, datasetWorkspaceId: null, reportType: 'PaginatedReport' },
      { id: UNTYPED, name: 'Boletos', datasetId: null, datasetWorkspaceId: null, reportType: null },
    ]);
    standIns.current.powerBi.setReports([
      {
        ...vendas,
        pages: [
          { name: 'ReportSectionB', displayName: 'Segunda', visibility: 0 },
          { name: 'ReportSectionA', displayName: 'Primeira', visibility: 1 },
        ],
      },
    ]);
    expect(await client().getPages(WS, vendas.reportId)).toEqual([
      { name: 'ReportSectionB', displayName: 'Segunda', order: 0 },
      { name: 'ReportSectionA', displayName: 'Primeira', order: 1 },
    ]);
  });

  it("lists a workspace's datasets in one call, telling an import dataset from a DirectQuery one", async () => {
    expect(await client().listDatasets(WS)).toEqual([
      { id: aoVivo.datasetId, name: 'Ao vivo', isRefreshable: false, storageMode: null },
      { id: vendas.datasetId, name: 'Vendas', isRefreshable: true, storageMode: 'Abf' },
    ]);
    expect(paths()).toEqual([`/v1.0/myorg/groups/${WS}/datasets`]);
    // A dataset of another workspace is listed there, not in its report's workspace.
    const elsewhere = '0a0a0a0a-0000-4000-8000-00000000e0ff';
    standIns.current.powerBi.setDatasets([{ datasetId: vendas.datasetId, workspaceId: elsewhere }]);
    expect((await client().listDatasets(WS)).map((dataset) => dataset.id)).toEqual([aoVivo.datasetId]);
    expect(await client().listDatasets(elsewhere, 'background')).toEqual([
      { id: vendas.datasetId, name: 'Vendas', isRefreshable: true, storageMode: 'Abf' },
    ]);
  });

  it('answers the refresh history newest first, whatever order Power BI lists it in', async () => {
    const failure = '{"errorCode":"ModelRefreshFailed_CredentialsNotSpecified"}';
    standIns.current.powerBi.setRefreshes(vendas.datasetId, [
      { status: 'Completed', startTime: '2030-01-01T07:00:00.000Z', endTime: '2030-01-01T07:04:00.000Z' },
      { status: 'Unknown', refreshType: 'ViaApi', startTime: '2030-01-03T07:00:00.000Z' },
      {
        status: 'Failed',
        startTime: '2030-01-02T07:00:00.000Z',
        endTime: '2030-01-02T07:01:00.000Z',
        serviceExceptionJson: failure,
      },
    ]);
    expect(await client().refreshHistory(WS, vendas.datasetId, 3)).toEqual([
      {
        status: 'Unknown',
        startTime: '2030-01-03T07:00:00.000Z',
        endTime: null,
        refreshType: 'ViaApi',
        serviceExceptionJson: null,
        extendedStatus: null,
      },
      {
        status: 'Failed',
        startTime: '2030-01-02T07:00:00.000Z',
        endTime: '2030-01-02T07:01:00.000Z',
        refreshType: 'Scheduled',
        serviceExceptionJson: failure,
        extendedStatus: null,
      },
      expect.objectContaining({ status: 'Completed', endTime: '2030-01-01T07:04:00.000Z' }),
    ]);
    expect(paths()).toEqual([`/v1.0/myorg/groups/${WS}/datasets/${vendas.datasetId}/refreshes?$top=3`]);
    expect(await client().refreshHistory(WS, aoVivo.datasetId, 1)).toEqual([]);
  });

  it('reads Cancelled (as a status or an extendedStatus) as cancelled, and an empty serviceExceptionJson as none', async () => {
    const at = (hour: number) => `2030-01-0${hour}T07:00:00.000Z`;
    standIns.current.powerBi.setRefreshes(vendas.datasetId, [
      { status: 'Unknown', extendedStatus: 'NotStarted', refreshType: 'ViaEnhancedApi', startTime: at(4) },
      { status: 'Cancelled', extendedStatus: 'Cancelled', refreshType: 'ViaEnhancedApi', startTime: at(3) },
      { status: 'Completed', startTime: at(2), endTime: at(2), serviceExceptionJson: '' },
    ]);
    const history = await client().refreshHistory(WS, vendas.datasetId, 3);
    expect(history.map((r) => [r.status, r.extendedStatus, r.serviceExceptionJson])).toEqual([
      ['Unknown', 'NotStarted', null],
      // Cancelled, with no end: not a refresh still running.
      ['Cancelled', 'Cancelled', null],
      ['Completed', null, null],
    ]);
  });

  it('tells a DirectQuery or live model by its DirectQuery schedule, which Power BI refuses an import model', async () => {
    standIns.current.powerBi.setDatasets([
      { datasetId: aoVivo.datasetId, storageMode: 'LiveConnection' },
      { datasetId: vendas.datasetId, isRefreshable: false },
    ]);
    expect(await client().isDirectQueryOrLive(WS, aoVivo.datasetId)).toBe(true);
    expect(await client().isDirectQueryOrLive(WS, vendas.datasetId, 'background')).toBe(false);
    expect(paths()).toEqual([
      `/v1.0/myorg/groups/${WS}/datasets/${aoVivo.datasetId}/directQueryRefreshSchedule`,
      `/v1.0/myorg/groups/${WS}/datasets/${vendas.datasetId}/directQueryRefreshSchedule`,
    ]);
    // Power BI down says nothing either way.
    standIns.current.powerBi.failNext(503, 4);
    await expect(client().isDirectQueryOrLive(WS, aoVivo.datasetId)).rejects.toMatchObject({ failure: 'unavailable' });
  });

  it('reads a 200 of the wrong shape as malformed, and a refusal with its status', async () => {
    const calls: [string, () => Promise<unknown>][] = [
      ['workspaces', () => client().listWorkspaces()],
      ['reports', () => client().listReports(WS)],
      ['pages', () => client().getPages(WS, vendas.reportId)],
      ['datasets', () => client().listDatasets(WS)],
      ['refreshes', () => client().refreshHistory(WS, vendas.datasetId, 1)],
    ];
    for (const [name, call] of calls) {
      standIns.current.powerBi.garbageNext('wrong-shape');
      const error = await call().catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(MicrosoftError);
      expect((error as MicrosoftError).failure, name).toBe('malformed');
    }
    standIns.current.powerBi.removeServicePrincipal(WS);
    for (const call of [() => client().listReports(WS), () => client().listDatasets(WS)]) {
      const refused = await call().catch((e: unknown) => e);
      expect(refused).toMatchObject({
        failure: 'refused',
        details: { status: 401, code: 'PowerBINotAuthorizedException' },
      });
    }
  });

  it('waits out a long Retry-After in the background, not while a person waits', async () => {
    standIns.current.powerBi.throttleNext(60);
    const person = await client()
      .refreshHistory(WS, vendas.datasetId, 1)
      .catch((e: unknown) => e);
    expect(person).toMatchObject({ failure: 'throttled' });
    expect(sleeps).toEqual([]);
    standIns.current.powerBi.throttleNext(60);
    expect(await client().refreshHistory(WS, vendas.datasetId, 1, 'background')).toHaveLength(1);
    expect(sleeps).toEqual([60_000]);
  });

  it('reads a refresh schedule as given, and refuses to take a non-object for one', async () => {
    standIns.current.powerBi.setDatasets([
      { datasetId: aoVivo.datasetId, storageMode: 'DirectQuery' },
      {
        datasetId: vendas.datasetId,
        refreshSchedule: {
          days: ['Monday', 'Friday'],
          times: ['07:00', '12:30'],
          enabled: true,
          localTimeZoneId: 'UTC',
        },
      },
    ]);
    expect(await client().refreshSchedule(WS, vendas.datasetId)).toEqual({
      days: ['Monday', 'Friday'],
      times: ['07:00', '12:30'],
      enabled: true,
      timeZoneId: 'UTC',
    });
    await expect(client().refreshSchedule(WS, aoVivo.datasetId)).rejects.toMatchObject({
      service: 'power-bi',
      failure: 'refused',
      status: 400,
    });
    standIns.current.powerBi.garbageNext('not-json');
    await expect(client().refreshSchedule(WS, vendas.datasetId)).rejects.toMatchObject({ failure: 'malformed' });
  });
});
