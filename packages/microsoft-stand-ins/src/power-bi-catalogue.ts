import type { FastifyInstance, FastifyRequest } from 'fastify';
import { embedUrlFor, isRecord, pagesOf, sameId } from './power-bi-common.ts';
import { invalid, notFound, sendError, type PowerBiError } from './power-bi-errors.ts';
import { stableGuid, type StandInContext } from './stand-in-context.ts';
import type {
  StandInDataset,
  StandInRefresh,
  StandInRefreshCycle,
  StandInRefreshSchedule,
  StandInReport,
  StandIns,
  StandInStorageMode,
  StandInWorkspace,
} from './types.ts';

/**
 * The Power BI REST calls that describe what is there, as Microsoft's description of the API has them
 * (microsoft/PowerBI-CSharp sdk/swaggers/swagger.json, and the pages under https://learn.microsoft.com/rest/api/power-bi/):
 * - Groups_GetGroups (GET /v1.0/myorg/groups, `$filter`, `$top`, `$skip`): the workspaces the service principal is a
 *   member of. Power BI gives no next link: a client pages with $top and $skip until a page comes back short.
 * - Reports_GetReportsInGroup (GET …/groups/{g}/reports): every report of the workspace at once, no paging.
 * - Reports_GetPagesInGroup (GET …/groups/{g}/reports/{r}/pages): the report's pages with their `order`.
 * - Datasets_GetDatasetsInGroup (GET …/groups/{g}/datasets): every dataset of the workspace at once, no query option
 *   and no paging; a dataset is listed in its own workspace, not in those of reports over it elsewhere.
 * - Datasets_GetDatasetInGroup (GET …/groups/{g}/datasets/{d}): the same dataset alone (the portal no longer asks).
 * - Datasets_GetRefreshHistoryInGroup (GET …/groups/{g}/datasets/{d}/refreshes, `$top` of at least 1; the last 60
 *   entries without it), newest first.
 * - Datasets_GetRefreshScheduleInGroup (GET …/groups/{g}/datasets/{d}/refreshSchedule): an import model's scheduled
 *   refresh (StandInDataset.refreshSchedule); a DirectQuery or live-connection dataset is refused 400 InvalidRequest
 *   (not documented by Microsoft: the project's assumption).
 *
 * How Power BI refuses, as the stand-in plays it:
 * - a report that was deleted: 404 PowerBIEntityNotFound (what GetReport answers for a report that does not exist;
 *   https://github.com/microsoft/PowerBI-JavaScript/issues/279, a Power BI maintainer: "if the report with specific
 *   ID is Not exists, Get Reports API … should return Not Found (404)");
 * - a workspace the service principal is not a member of: 401 PowerBINotAuthorizedException on every call under
 *   /groups/{g} (reported for GetReportInGroup, GetReportsInGroup and GetGroups with a service principal left out of
 *   the workspace, e.g. https://github.com/microsoft/PowerBI-Developer-Samples/issues/20 and the Fabric community's
 *   "Power BI REST API using Service Principal"; the body's code is the one Power BI sends with its 401s). Microsoft
 *   documents neither status; both are the project's reading of what Power BI is seen to answer.
 * - a DirectQuery or live-connection dataset: `isRefreshable: false` ("The value will return `false` for other
 *   connection modes, such as 'DirectQuery' and 'LiveConnection'", swagger, DatasetMiscProperties.IsRefreshable) and
 *   an empty refresh history (its data is read at the source, so nothing is refreshed into the model; the empty
 *   history is not documented by Microsoft: an assumption). An import model with no schedule and no recent refresh is
 *   `isRefreshable: false` too (StandInDataset.isRefreshable), and keeps its history.
 * - Datasets_GetDirectQueryRefreshScheduleInGroup (GET …/groups/{g}/datasets/{d}/directQueryRefreshSchedule):
 *   documented only "for a specified DirectQuery or LiveConnection dataset"; the stand-in answers such a dataset its
 *   schedule (Power BI's default cache refresh, hourly), and refuses an import model with 400 InvalidRequest. What
 *   Power BI answers for an import model is not documented: that refusal is the project's assumption
 *   (docs/decisions/019-power-bi-seen-from-the-portal.md).
 * - a paginated report (StandInReport.reportType 'PaginatedReport'): listed with reportType 'PaginatedReport' and no
 *   datasetId ("Since paginated reports (RDL) don't have a dataset, the dataset ID value in the API response for
 *   paginated reports isn't displayed", https://learn.microsoft.com/rest/api/power-bi/reports/get-reports-in-group).
 * - `datasetWorkspaceId` is not a field of the swagger's Report: it is only in the admin scanner's
 *   RelatedDatasetProperties ("returned only if the related dataset belongs to a different workspace"). The stand-in
 *   never sends it on Get Reports In Group nor Get Report In Group.
 *
 * A dataset may be declared with a refresh cycle (StandInDataset.refreshCycle): its history is then computed from the
 * clock at each request, a refresh every so often, running for a while, failing every n-th time. That is a demo and
 * test device (the demo's panels refresh, fail and recover within minutes of `npm start`), not Microsoft's behaviour:
 * Power BI refreshes on its schedule or when asked, and fails for its own reasons.
 */

/** An import model's scheduled refresh unless declared: twice a day, every day, in Brasília's time. */
const DEFAULT_REFRESH_SCHEDULE: StandInRefreshSchedule = {
  days: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  times: ['06:00', '18:00'],
  enabled: true,
  localTimeZoneId: 'E. South America Standard Time',
};

/** Refresh history entries answered without `$top` ("the last available 60 entries"). */
const DEFAULT_REFRESH_TOP = 60;

/** A refresh cycle's failure unless declared: a processing error, as Power BI writes one in serviceExceptionJson. */
export const REFRESH_CYCLE_FAILURE = JSON.stringify({
  errorCode: 'ModelRefresh_ShortMessage_ProcessingError',
  errorDescription: 'Ocorreu um erro ao processar os dados do modelo semântico. Tente atualizá-lo novamente.',
});

/** Throws for a refresh cycle that cannot be played (see StandInRefreshCycle). */
export function checkRefreshCycle(cycle: StandInRefreshCycle): void {
  const { everyMs, durationMs, failEvery } = cycle;
  if (!Number.isSafeInteger(everyMs) || everyMs <= 0)
    throw new RangeError('refreshCycle.everyMs: a whole number above 0');
  if (!Number.isFinite(durationMs) || durationMs < 0 || durationMs >= everyMs) {
    throw new RangeError('refreshCycle.durationMs: at least 0 and below everyMs');
  }
  if (failEvery !== undefined && (!Number.isSafeInteger(failEvery) || failEvery < 1)) {
    throw new RangeError('refreshCycle.failEvery: a whole number of 1 or more');
  }
}

/**
 * The `count` newest refreshes of a refresh cycle at `now` (ms), newest first: the current cycle's (running or ended),
 * then those before it. Pure, so tests may read it at any moment.
 */
export function refreshCycleHistory(cycle: StandInRefreshCycle, now: number, count: number): StandInRefresh[] {
  const current = Math.floor(now / cycle.everyMs);
  const history: StandInRefresh[] = [];
  for (let k = current; history.length < count; k--) {
    const start = k * cycle.everyMs;
    const end = start + cycle.durationMs;
    const base = { refreshType: cycle.refreshType ?? 'Scheduled', startTime: new Date(start).toISOString() };
    if (now < end) {
      history.push({ ...base, status: 'Unknown' });
    } else if (cycle.failEvery !== undefined && k % cycle.failEvery === cycle.failEvery - 1) {
      const serviceExceptionJson = cycle.failure ?? REFRESH_CYCLE_FAILURE;
      history.push({ ...base, status: 'Failed', endTime: new Date(end).toISOString(), serviceExceptionJson });
    } else {
      history.push({ ...base, status: 'Completed', endTime: new Date(end).toISOString() });
    }
  }
  return history;
}

type GroupRoute = { Params: { workspaceId: string } };
type ReportRoute = { Params: { workspaceId: string; reportId: string } };
type DatasetRoute = { Params: { workspaceId: string; datasetId: string } };

/** What Power BI sends as targetStorageMode for each storage mode (none for those it does not refresh). */
const TARGET_STORAGE_MODE: Record<StandInStorageMode, string | undefined> = {
  Import: 'Abf',
  LargeImport: 'PremiumFiles',
  DirectQuery: undefined,
  LiveConnection: undefined,
};

const refreshable = (mode: StandInStorageMode) => mode === 'Import' || mode === 'LargeImport';

const isPaginated = (report: StandInReport) => report.reportType === 'PaginatedReport';
/** The reports that have a dataset: a paginated report has none. */
const withDataset = (reports: readonly StandInReport[]) => reports.filter((report) => !isPaginated(report));

function whole(text: string | undefined, name: string, min: number): number | PowerBiError | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    return invalid(`Invalid value '${text}' for query option ${name}: a whole number of ${min} or more.`);
  }
  return Number(text);
}

const queryValue = (request: FastifyRequest, name: string): string | undefined => {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
};

/**
 * The part of OData's $filter the stand-in reads: `name eq '…'` and `contains(name,'…')`, joined by `or` (the
 * swagger's own example). Anything else is refused as Power BI refuses a filter it cannot parse: null.
 */
function nameFilter(filter: string): ((name: string) => boolean) | null {
  const tests: ((name: string) => boolean)[] = [];
  for (const clause of filter.split(/\s+or\s+/i)) {
    const eq = /^\s*name\s+eq\s+'((?:[^']|'')*)'\s*$/i.exec(clause);
    const contains = /^\s*contains\(\s*name\s*,\s*'((?:[^']|'')*)'\s*\)\s*$/i.exec(clause);
    const match = eq ?? contains;
    if (!match) return null;
    const value = match[1]!.replace(/''/g, "'");
    tests.push(eq ? (name) => name === value : (name) => name.toLowerCase().includes(value.toLowerCase()));
  }
  return (name) => tests.some((test) => test(name));
}

export interface PowerBiCatalogue {
  register(api: FastifyInstance): void;
  /** The refusal of a call on a workspace the service principal was removed from, or null. */
  refusal(request: FastifyRequest): PowerBiError | null;
  /** A Report as Power BI writes it, in a list or alone. */
  reportObject(report: StandInReport): Record<string, unknown>;
  controls: Pick<
    StandIns['powerBi'],
    'setWorkspaces' | 'setDatasets' | 'setRefreshes' | 'removeServicePrincipal' | 'restoreServicePrincipal'
  > & { reset(): void };
}

export function powerBiCatalogue(ctx: StandInContext): PowerBiCatalogue {
  for (const declared of ctx.datasets) if (declared.refreshCycle) checkRefreshCycle(declared.refreshCycle);
  /** Workspaces the service principal was removed from, by lower-case id. */
  const removed = new Set<string>();

  /**
   * Declared workspaces, then one for each other workspace the reports name, then one for each other workspace a
   * declared dataset lives in (a workspace may hold datasets and no report).
   */
  function workspaces(): StandInWorkspace[] {
    const all = [...ctx.workspaces];
    const named = [
      ...ctx.reports.map((r) => r.workspaceId),
      ...ctx.datasets.flatMap((d) => (d.workspaceId === undefined ? [] : [d.workspaceId])),
    ];
    const reportWorkspaces = [...new Map(named.map((id) => [id.toLowerCase(), id]))];
    reportWorkspaces.forEach(([, id], index) => {
      if (!all.some((workspace) => sameId(workspace.id, id))) all.push({ id, name: `Workspace ${index + 1}` });
    });
    return all;
  }

  const member = (workspaceId: string) => !removed.has(workspaceId.toLowerCase());
  const findWorkspace = (id: string) => workspaces().find((workspace) => sameId(workspace.id, id));

  /** A dataset as the stand-in serves it, declared or by default; undefined when neither a declaration nor a report names it. */
  function dataset(datasetId: string):
    | (Required<Omit<StandInDataset, 'refreshes' | 'refreshCycle' | 'refreshSchedule'>> & {
        refreshes: StandInRefresh[];
        refreshCycle?: StandInRefreshCycle;
        rls: boolean;
      })
    | undefined {
    const declared = ctx.datasets.find((candidate) => sameId(candidate.datasetId, datasetId));
    const over = withDataset(ctx.reports).filter((report) => sameId(report.datasetId, datasetId));
    const workspaceId = declared?.workspaceId ?? over[0]?.workspaceId;
    if (workspaceId === undefined) return undefined;
    const storageMode = declared?.storageMode ?? 'Import';
    const hourBefore = ctx.startedAt - 60 * 60 * 1000;
    const defaultRefreshes: StandInRefresh[] = refreshable(storageMode)
      ? [
          {
            status: 'Completed',
            refreshType: 'Scheduled',
            startTime: new Date(hourBefore).toISOString(),
            endTime: new Date(hourBefore + 2 * 60 * 1000).toISOString(),
          },
        ]
      : [];
    return {
      datasetId: declared?.datasetId ?? over[0]!.datasetId,
      workspaceId,
      name: declared?.name ?? over[0]?.name ?? 'Modelo semântico',
      storageMode,
      // Microsoft's IsRefreshable: false for DirectQuery and live connections whatever is declared.
      isRefreshable: refreshable(storageMode) && (declared?.isRefreshable ?? true),
      refreshes: declared?.refreshes ?? defaultRefreshes,
      // A DirectQuery or live-connection dataset refreshes nothing, cycle or not.
      ...(declared?.refreshCycle && refreshable(storageMode) ? { refreshCycle: declared.refreshCycle } : {}),
      rls: over.some((report) => report.rls),
    };
  }

  /** Every dataset living in the workspace: the declared ones, then those only reports name, each once. */
  function datasetsIn(workspaceId: string) {
    const ids = new Map<string, string>();
    for (const id of [...ctx.datasets.map((d) => d.datasetId), ...withDataset(ctx.reports).map((r) => r.datasetId)]) {
      if (!ids.has(id.toLowerCase())) ids.set(id.toLowerCase(), id);
    }
    return [...ids.values()]
      .map((id) => dataset(id))
      .filter(
        (found): found is NonNullable<typeof found> => found !== undefined && sameId(found.workspaceId, workspaceId),
      );
  }

  const context = (path: string) => `${ctx.authorityHost}/v1.0/myorg/${path}`;

  /** Without datasetWorkspaceId, which the swagger's Report does not have (see above). */
  function reportObject(report: StandInReport) {
    const { reportType, ...described } = describedReport(report);
    return report.reportTypeSent === false ? described : { reportType, ...described };
  }

  function describedReport(report: StandInReport) {
    if (isPaginated(report)) {
      return {
        id: report.reportId,
        reportType: 'PaginatedReport',
        name: report.name,
        webUrl: `https://app.powerbi.com/groups/${report.workspaceId}/rdlreports/${report.reportId}`,
        embedUrl: `https://app.powerbi.com/rdlEmbed?reportId=${report.reportId}&groupId=${report.workspaceId}`,
        isOwnedByMe: false,
        users: [],
        subscriptions: [],
      };
    }
    return {
      id: report.reportId,
      reportType: 'PowerBIReport',
      name: report.name,
      webUrl: `https://app.powerbi.com/groups/${report.workspaceId}/reports/${report.reportId}`,
      embedUrl: embedUrlFor(report),
      isFromPbix: true,
      isOwnedByMe: false,
      datasetId: report.datasetId,
      users: [],
      subscriptions: [],
    };
  }

  function groupObject(workspace: StandInWorkspace) {
    const reports = ctx.reports.filter((report) => sameId(report.workspaceId, workspace.id));
    const capacity = reports.find((report) => (report.capacity ?? 'Embedded') !== 'Shared');
    return {
      id: workspace.id,
      isReadOnly: false,
      isOnDedicatedCapacity: reports.length === 0 || capacity !== undefined,
      ...(reports.length === 0 || capacity
        ? { capacityId: stableGuid(`capacity|${capacity?.capacityId ?? 'capacidade-padrao'}`) }
        : {}),
      type: 'Workspace',
      name: workspace.name,
    };
  }

  /**
   * A Dataset as Power BI writes it, in a workspace's list or alone. Spelled as the live API and Microsoft's example
   * spell them (isRefreshable…); the swagger's definition capitalises some (IsRefreshable…):
   * packages/microsoft-api/src/power-bi.ts accepts both.
   */
  function datasetObject(found: NonNullable<ReturnType<typeof dataset>>) {
    const targetStorageMode = TARGET_STORAGE_MODE[found.storageMode];
    return {
      id: found.datasetId,
      name: found.name,
      webUrl: `https://app.powerbi.com/groups/${found.workspaceId}/datasets/${found.datasetId}`,
      addRowsAPIEnabled: false,
      configuredBy: 'admin@contoso.com.br',
      isRefreshable: found.isRefreshable,
      isEffectiveIdentityRequired: found.rls,
      isEffectiveIdentityRolesRequired: found.rls,
      isOnPremGatewayRequired: false,
      ...(targetStorageMode ? { targetStorageMode } : {}),
      createdDate: new Date(ctx.startedAt - 30 * 24 * 60 * 60 * 1000).toISOString(),
      createReportEmbedURL: `https://app.powerbi.com/reportEmbed?datasetId=${found.datasetId}&groupId=${found.workspaceId}`,
      qnaEmbedURL: `https://app.powerbi.com/qnaEmbed?datasetId=${found.datasetId}&groupId=${found.workspaceId}`,
      upstreamDatasets: [],
      users: [],
    };
  }

  /** `index` tells apart declared refreshes with one start; a cycle's start alone names its refresh (undefined). */
  function refreshObject(datasetId: string, refresh: StandInRefresh, index?: number) {
    const requestId = stableGuid(`refresh|${datasetId}|${refresh.startTime}${index === undefined ? '' : `|${index}`}`);
    const attempt = {
      attemptId: 1,
      startTime: refresh.startTime,
      ...(refresh.endTime ? { endTime: refresh.endTime } : {}),
      ...(refresh.serviceExceptionJson !== undefined ? { serviceExceptionJson: refresh.serviceExceptionJson } : {}),
      type: 'Data',
    };
    return {
      requestId,
      id: Number.parseInt(requestId.slice(0, 8), 16),
      refreshType: refresh.refreshType ?? 'Scheduled',
      startTime: refresh.startTime,
      ...(refresh.endTime ? { endTime: refresh.endTime } : {}),
      ...(refresh.serviceExceptionJson !== undefined ? { serviceExceptionJson: refresh.serviceExceptionJson } : {}),
      status: refresh.status,
      ...(refresh.extendedStatus ? { extendedStatus: refresh.extendedStatus } : {}),
      ...(refresh.status === 'Unknown' && !refresh.endTime ? {} : { refreshAttempts: [attempt] }),
    };
  }

  function register(api: FastifyInstance): void {
    api.get('/groups', async (request, reply) => {
      const top = whole(queryValue(request, '$top'), '$top', 0);
      const skip = whole(queryValue(request, '$skip'), '$skip', 0);
      if (typeof top === 'object') return sendError(reply, top);
      if (typeof skip === 'object') return sendError(reply, skip);
      const filterText = queryValue(request, '$filter');
      const filter = filterText === undefined ? () => true : nameFilter(filterText);
      if (!filter) return sendError(reply, invalid(`The stand-in cannot read the $filter '${filterText}'.`));
      const listed = workspaces().filter((workspace) => member(workspace.id) && filter(workspace.name));
      const start = skip ?? 0;
      const page = listed.slice(start, top === undefined ? undefined : start + top);
      return { '@odata.context': context('$metadata#groups'), value: page.map(groupObject) };
    });

    api.get<GroupRoute>('/groups/:workspaceId/reports', async (request, reply) => {
      const { workspaceId } = request.params;
      if (!findWorkspace(workspaceId)) return sendError(reply, notFound(`Workspace ${workspaceId} was not found.`));
      const reports = ctx.reports.filter((report) => sameId(report.workspaceId, workspaceId));
      return {
        '@odata.context': context(`groups/${workspaceId}/$metadata#reports`),
        value: reports.map(reportObject),
      };
    });

    api.get<ReportRoute>('/groups/:workspaceId/reports/:reportId/pages', async (request, reply) => {
      const { workspaceId, reportId } = request.params;
      const report = ctx.reports.find(
        (candidate) => sameId(candidate.reportId, reportId) && sameId(candidate.workspaceId, workspaceId),
      );
      if (!report) return sendError(reply, notFound(`Report ${reportId} was not found in workspace ${workspaceId}.`));
      // Every page, hidden ones too: the REST API's Page has no visibility (the embedded report's API has).
      return {
        '@odata.context': context(`groups/${workspaceId}/$metadata#pages`),
        value: pagesOf(report).map((page, order) => ({ name: page.name, displayName: page.displayName, order })),
      };
    });

    api.get<GroupRoute>('/groups/:workspaceId/datasets', async (request, reply) => {
      const { workspaceId } = request.params;
      const listed = datasetsIn(workspaceId);
      // A workspace exists when declared, or when a report or a dataset lives there.
      if (!findWorkspace(workspaceId) && listed.length === 0) {
        return sendError(reply, notFound(`Workspace ${workspaceId} was not found.`));
      }
      return {
        '@odata.context': context(`groups/${workspaceId}/$metadata#datasets`),
        value: listed.map(datasetObject),
      };
    });

    api.get<DatasetRoute>('/groups/:workspaceId/datasets/:datasetId', async (request, reply) => {
      const { workspaceId, datasetId } = request.params;
      const found = dataset(datasetId);
      if (!found || !sameId(found.workspaceId, workspaceId)) {
        return sendError(reply, notFound(`Dataset ${datasetId} was not found in workspace ${workspaceId}.`));
      }
      return {
        '@odata.context': context(`groups/${found.workspaceId}/$metadata#datasets/$entity`),
        ...datasetObject(found),
      };
    });

    api.get<DatasetRoute>(
      '/groups/:workspaceId/datasets/:datasetId/directQueryRefreshSchedule',
      async (request, reply) => {
        const { workspaceId, datasetId } = request.params;
        const found = dataset(datasetId);
        if (!found || !sameId(found.workspaceId, workspaceId)) {
          return sendError(reply, notFound(`Dataset ${datasetId} was not found in workspace ${workspaceId}.`));
        }
        // Documented for DirectQuery and LiveConnection datasets only; an import model's refusal is an assumption.
        if (refreshable(found.storageMode)) {
          return sendError(reply, invalid(`Dataset ${datasetId} is not a DirectQuery or LiveConnection dataset.`));
        }
        // Microsoft's "Frequency schedule example" of the call, with Power BI's default hourly cache refresh.
        return { frequency: 60, days: [], times: [], localTimeZoneId: 'UTC' };
      },
    );

    api.get<DatasetRoute>('/groups/:workspaceId/datasets/:datasetId/refreshSchedule', async (request, reply) => {
      const { workspaceId, datasetId } = request.params;
      const found = dataset(datasetId);
      if (!found || !sameId(found.workspaceId, workspaceId)) {
        return sendError(reply, notFound(`Dataset ${datasetId} was not found in workspace ${workspaceId}.`));
      }
      // A model read at its source has no scheduled refresh; what Power BI answers for one is not documented.
      if (!refreshable(found.storageMode)) {
        return sendError(reply, invalid(`Dataset ${datasetId} is a DirectQuery or LiveConnection dataset.`));
      }
      const declared = ctx.datasets.find((candidate) => sameId(candidate.datasetId, datasetId))?.refreshSchedule;
      return {
        '@odata.context': context(
          `groups/${found.workspaceId}/$metadata#Microsoft.PowerBI.ServiceContracts.Api.V1.RefreshSchedule`,
        ),
        ...(declared ?? DEFAULT_REFRESH_SCHEDULE),
        notifyOption: declared?.notifyOption ?? 'MailOnFailure',
      };
    });

    api.get<DatasetRoute>('/groups/:workspaceId/datasets/:datasetId/refreshes', async (request, reply) => {
      const { workspaceId, datasetId } = request.params;
      const found = dataset(datasetId);
      if (!found || !sameId(found.workspaceId, workspaceId)) {
        return sendError(reply, notFound(`Dataset ${datasetId} was not found in workspace ${workspaceId}.`));
      }
      const top = whole(queryValue(request, '$top'), '$top', 1);
      if (typeof top === 'object') return sendError(reply, top);
      const count = top ?? DEFAULT_REFRESH_TOP;
      // A cycle's refresh keeps its requestId from running to ended, and as newer ones come before it.
      const value = found.refreshCycle
        ? refreshCycleHistory(found.refreshCycle, Date.now(), count).map((refresh) =>
            refreshObject(found.datasetId, refresh),
          )
        : found.refreshes.slice(0, count).map((refresh, index) => refreshObject(found.datasetId, refresh, index));
      return { '@odata.context': context(`groups/${found.workspaceId}/$metadata#refreshes`), value };
    });
  }

  function refusal(request: FastifyRequest): PowerBiError | null {
    if (removed.size === 0) return null;
    const denied = (workspaceId: string): PowerBiError => ({
      status: 401,
      code: 'PowerBINotAuthorizedException',
      message: `The service principal is not a member of workspace ${workspaceId}.`,
    });
    const { workspaceId } = (request.params ?? {}) as { workspaceId?: string };
    if (workspaceId !== undefined) return member(workspaceId) ? null : denied(workspaceId);
    // GenerateToken names its reports in the body.
    const body = request.body;
    if (request.method === 'POST' && isRecord(body) && Array.isArray(body.reports)) {
      for (const item of body.reports) {
        const id = isRecord(item) && typeof item.id === 'string' ? item.id : '';
        const report = ctx.reports.find((candidate) => sameId(candidate.reportId, id));
        if (report && !member(report.workspaceId)) return denied(report.workspaceId);
      }
    }
    return null;
  }

  const uniqueIds = (ids: string[], what: string) => {
    if (new Set(ids.map((id) => id.toLowerCase())).size !== ids.length) throw new RangeError(`${what} must be unique`);
  };

  return {
    register,
    refusal,
    reportObject,
    controls: {
      setWorkspaces(list) {
        uniqueIds(
          list.map((workspace) => workspace.id),
          'workspace ids',
        );
        ctx.workspaces = list.map((workspace) => ({ ...workspace }));
      },
      setDatasets(list) {
        uniqueIds(
          list.map((entry) => entry.datasetId),
          'dataset ids',
        );
        for (const entry of list) if (entry.refreshCycle) checkRefreshCycle(entry.refreshCycle);
        ctx.datasets = list.map((entry) => ({ ...entry }));
      },
      setRefreshes(datasetId, refreshes) {
        const index = ctx.datasets.findIndex((entry) => sameId(entry.datasetId, datasetId));
        const entry: StandInDataset = { ...(ctx.datasets[index] ?? { datasetId }), refreshes: [...refreshes] };
        // The history set is the one answered: a cycle would hide it.
        delete entry.refreshCycle;
        if (index === -1) ctx.datasets.push(entry);
        else ctx.datasets[index] = entry;
      },
      removeServicePrincipal(workspaceId) {
        removed.add(workspaceId.toLowerCase());
      },
      restoreServicePrincipal(workspaceId) {
        removed.delete(workspaceId.toLowerCase());
      },
      reset() {
        removed.clear();
      },
    },
  };
}
