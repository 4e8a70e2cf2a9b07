import { describe, expect, it } from 'vitest';
import { checkExchange, operationOf } from './check-exchange.ts';
import { REDACTED, type Exchange } from './exchange.ts';

/**
 * The Power BI catalogue calls (workspaces, a workspace's reports and datasets, a report's pages, a dataset's refresh
 * history)
 * as Microsoft's swagger describes them: each case breaks one thing and expects exactly that violation, and the
 * spellings Microsoft itself uses in two ways are both accepted.
 */

const GROUP = '0a0a0a0a-0000-4000-8000-000000000001';
const REPORT = '0b0b0b0b-0000-4000-8000-000000000001';
const DATASET = '0c0c0c0c-0000-4000-8000-000000000001';

function exchange(url: string, answer: unknown, status = 200, answerHeaders: Record<string, string> = {}): Exchange {
  return {
    service: 'power-bi',
    method: 'GET',
    url,
    request: { headers: { authorization: `Bearer ${REDACTED}` } },
    answer: {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', requestid: 'r-1', ...answerHeaders },
      body: answer,
      bytes: JSON.stringify(answer).length,
    },
  };
}

const found = (e: Exchange) => checkExchange(e).map((v) => `${v.part} ${v.at}: ${v.message}`);

const groups = (query: string, value: unknown[] = [{ id: GROUP, name: 'Comercial', isReadOnly: false }]) =>
  exchange(`/v1.0/myorg/groups${query}`, { '@odata.context': 'x/$metadata#groups', value });
const refreshes = (query: string, value: unknown[]) =>
  exchange(`/v1.0/myorg/groups/${GROUP}/datasets/${DATASET}/refreshes${query}`, { value });
const datasetsAnswer = (body: Record<string, unknown>) =>
  exchange(`/v1.0/myorg/groups/${GROUP}/datasets`, {
    '@odata.context': `x/groups/${GROUP}/$metadata#datasets`,
    value: [{ id: DATASET, name: 'Vendas', ...body }],
  });

describe('the Power BI catalogue calls, as Microsoft describes them', () => {
  it('names each call by its operationId', () => {
    const ids = [
      '/v1.0/myorg/groups?$top=100&$skip=0',
      `/v1.0/myorg/groups/${GROUP}/reports`,
      `/v1.0/myorg/groups/${GROUP}/reports/${REPORT}/pages`,
      `/v1.0/myorg/groups/${GROUP}/reports/${REPORT}`,
      `/v1.0/myorg/groups/${GROUP}/datasets`,
      `/v1.0/myorg/groups/${GROUP}/datasets/${DATASET}/refreshes?$top=1`,
      `/v1.0/myorg/groups/${GROUP}/datasets/${DATASET}/directQueryRefreshSchedule`,
      // The portal no longer asks for a dataset alone: a workspace's list says what it needs of each.
      `/v1.0/myorg/groups/${GROUP}/datasets/${DATASET}`,
    ].map((url) => operationOf(exchange(url, {}))?.operation.id);
    expect(ids).toEqual([
      'Groups_GetGroups',
      'Reports_GetReportsInGroup',
      'Reports_GetPagesInGroup',
      'Reports_GetReportInGroup',
      'Datasets_GetDatasetsInGroup',
      'Datasets_GetRefreshHistoryInGroup',
      'Datasets_GetDirectQueryRefreshScheduleInGroup',
      undefined,
    ]);
  });

  it('takes workspaces paged by $top and $skip, filtered by $filter, and nothing else', () => {
    expect(found(groups('?$top=100&$skip=200'))).toEqual([]);
    expect(found(groups("?$filter=contains(name,'marketing')"))).toEqual([]);
    expect(found(groups('?$top=-1'))).toEqual(['request query.$top: not a whole number (int32) of 0 or more']);
    expect(found(groups('?$orderby=name'))).toEqual(['request query: Unrecognized key: "$orderby"']);
    expect(found(groups('', [{ name: 'sem id' }]))).toEqual([
      'answer body.value[0].id: Invalid input: expected string, received undefined',
    ]);
    // The swagger's wrapper names its context 'odata.context'; the live API '@odata.context'.
    expect(found(exchange('/v1.0/myorg/groups', { 'odata.context': 'x', value: [] }))).toEqual([]);
  });

  it("takes a workspace's reports with or without datasetWorkspaceId, and a report's pages with order as a number or text", () => {
    const reports = (value: unknown[]) => exchange(`/v1.0/myorg/groups/${GROUP}/reports`, { value });
    // Not a field of Microsoft's Report (only of the admin scanner's related datasets): never expected, taken when sent.
    expect(found(reports([{ id: REPORT, name: 'Vendas', datasetId: DATASET }]))).toEqual([]);
    expect(found(reports([{ id: REPORT, name: 'Vendas', datasetId: DATASET, datasetWorkspaceId: GROUP }]))).toEqual([]);
    expect(found(reports([{ id: REPORT, datasetId: DATASET, datasetWorkspaceId: 'outro' }]))).toEqual([
      'answer body.value[0].datasetWorkspaceId: Invalid GUID',
    ]);
    // A paginated report has no dataset: Power BI sends no datasetId; a report may come without its reportType.
    expect(found(reports([{ id: REPORT, name: 'Boletos', reportType: 'PaginatedReport' }]))).toEqual([]);
    expect(found(reports([{ id: REPORT, name: 'Boletos' }]))).toEqual([]);
    expect(found(reports([{ id: REPORT, reportType: 'RDL' }]))).toEqual([
      expect.stringMatching(/^answer body\.value\[0\]\.reportType: Invalid option/),
    ]);
    const pages = (order: unknown) =>
      exchange(`/v1.0/myorg/groups/${GROUP}/reports/${REPORT}/pages`, {
        value: [{ name: 'ReportSection', displayName: 'Visão geral', order }],
      });
    expect(found(pages(0))).toEqual([]);
    // Microsoft's own example of the call writes "0".
    expect(found(pages('0'))).toEqual([]);
    expect(found(pages('primeira'))).toEqual(['answer body.value[0].order: not a whole number']);
    expect(found(exchange(`/v1.0/myorg/groups/nao-e-guid/reports`, { value: [] }))).toEqual([
      'request path.groupId: Invalid GUID',
    ]);
  });

  it("lists a workspace's datasets in both of Microsoft's spellings of their fields, and no third", () => {
    expect(
      found(datasetsAnswer({ isRefreshable: true, isEffectiveIdentityRequired: false, targetStorageMode: 'Abf' })),
    ).toEqual([]);
    expect(found(datasetsAnswer({ IsRefreshable: true, IsEffectiveIdentityRequired: false }))).toEqual([]);
    expect(found(datasetsAnswer({ isrefreshable: true }))).toEqual([
      "answer body.value[0].isrefreshable: spelled 'isRefreshable' in Microsoft's description",
    ]);
    expect(found(datasetsAnswer({ isRefreshable: 'sim' }))).toEqual([
      'answer body.value[0].isRefreshable: Invalid input: expected boolean, received string',
    ]);
    // The swagger's wrapper (Datasets) names its context 'odata.context'; the live API '@odata.context'.
    expect(found(exchange(`/v1.0/myorg/groups/${GROUP}/datasets`, { 'odata.context': 'x', value: [] }))).toEqual([]);
    expect(found(exchange(`/v1.0/myorg/groups/${GROUP}/datasets`, { id: DATASET, name: 'Vendas' }))).toEqual([
      'answer body.value: Invalid input: expected array, received undefined',
    ]);
    // The call takes no query option, and a workspace is named by its GUID.
    expect(found(exchange(`/v1.0/myorg/groups/${GROUP}/datasets?$top=10`, { value: [] }))).toEqual([
      'request query.$top: not a parameter of the call',
    ]);
    expect(found(exchange('/v1.0/myorg/groups/nao-e-guid/datasets', { value: [] }))).toEqual([
      'request path.groupId: Invalid GUID',
    ]);
  });

  it('holds refresh history entries to their four statuses, a Failed one to its error as JSON', () => {
    const completed = { status: 'Completed', startTime: '2030-01-01T07:00:00Z', endTime: '2030-01-01T07:05:00Z' };
    expect(found(refreshes('?$top=1', [completed]))).toEqual([]);
    expect(found(refreshes('', [{ status: 'Unknown', startTime: '2030-01-01T07:00:00Z' }]))).toEqual([]);
    expect(
      found(
        refreshes('?$top=3', [
          { ...completed, status: 'Failed', serviceExceptionJson: '{"errorCode":"ModelRefreshFailed"}' },
        ]),
      ),
    ).toEqual([]);
    expect(found(refreshes('?$top=0', []))).toEqual(['request query.$top: not a whole number (int32) of 1 or more']);
    expect(found(refreshes('', [{ ...completed, status: 'Running' }]))).toEqual([
      expect.stringMatching(/^answer body\.value\[0\]\.status: Invalid option/),
    ]);
    expect(found(refreshes('', [{ ...completed, status: 'Failed' }]))).toEqual([
      'answer body.value[0].serviceExceptionJson: a Failed refresh carries its error',
    ]);
    expect(found(refreshes('', [{ ...completed, status: 'Failed', serviceExceptionJson: 'falhou' }]))).toEqual([
      'answer body.value[0].serviceExceptionJson: not JSON text',
    ]);
    expect(found(refreshes('', [{ status: 'Completed', startTime: '2030-01-01T07:00:00Z' }]))).toEqual([
      'answer body.value[0].endTime: a refresh that ended has an endTime',
    ]);
  });

  it('takes an enhanced refresh: Cancelled, an extendedStatus, and serviceExceptionJson empty when there is no error', () => {
    const ended = { startTime: '2030-01-01T07:00:00Z', endTime: '2030-01-01T07:05:00Z' };
    expect(
      found(
        refreshes('?$top=3', [
          // The example of asynchronous-refresh.md's GET /refreshes: queued.
          {
            status: 'Unknown',
            extendedStatus: 'NotStarted',
            refreshType: 'ViaEnhancedApi',
            startTime: ended.startTime,
          },
          { ...ended, status: 'Cancelled', extendedStatus: 'Cancelled', refreshType: 'ViaEnhancedApi' },
          { ...ended, status: 'Completed', extendedStatus: 'Completed', serviceExceptionJson: '' },
        ]),
      ),
    ).toEqual([]);
    expect(found(refreshes('', [{ ...ended, status: 'Completed', extendedStatus: 'Terminado' }]))).toEqual([
      expect.stringMatching(/^answer body\.value\[0\]\.extendedStatus: Invalid option/),
    ]);
  });

  it('takes a DirectQuery refresh schedule as Microsoft describes it: a frequency, or days and times', () => {
    const schedule = (body: unknown) =>
      exchange(`/v1.0/myorg/groups/${GROUP}/datasets/${DATASET}/directQueryRefreshSchedule`, body);
    // Microsoft's two examples of the call.
    expect(found(schedule({ frequency: 15, days: [], times: [], localTimeZoneId: 'UTC' }))).toEqual([]);
    expect(found(schedule({ days: ['Sunday', 'Friday'], times: ['05:00', '11:30'], localTimeZoneId: 'UTC' }))).toEqual(
      [],
    );
    expect(found(schedule({ frequency: 45 }))).toEqual([expect.stringMatching(/^answer body\.frequency: /)]);
    expect(found(schedule({ times: ['05:15'] }))).toEqual(['answer body.times[0]: a time is hh:mm, minutes 00 or 30']);
    // What Power BI answers for an import model is not documented: any refusal is taken in its error shape.
    expect(
      found(
        exchange(
          `/v1.0/myorg/groups/${GROUP}/datasets/${DATASET}/directQueryRefreshSchedule`,
          { error: { code: 'InvalidRequest', message: 'Not a DirectQuery dataset.' } },
          400,
        ),
      ),
    ).toEqual([]);
  });

  it("takes Power BI's refusals and throttling in its error shape", () => {
    const throttled = exchange(
      `/v1.0/myorg/groups/${GROUP}/datasets/${DATASET}/refreshes?$top=1`,
      { error: { code: 'TooManyRequests', message: 'Too many requests' } },
      429,
      { 'retry-after': '30' },
    );
    expect(found(throttled)).toEqual([]);
    for (const call of ['reports', 'datasets']) {
      const notMember = exchange(
        `/v1.0/myorg/groups/${GROUP}/${call}`,
        { error: { code: 'PowerBINotAuthorizedException' } },
        401,
      );
      expect(found(notMember), call).toEqual([]);
    }
    const badRetry = exchange('/v1.0/myorg/groups', { error: { code: 'TooManyRequests' } }, 429, {
      'retry-after': 'logo',
    });
    expect(found(badRetry)).toEqual(['answer header retry-after: not delay-seconds nor an HTTP-date']);
  });
});
