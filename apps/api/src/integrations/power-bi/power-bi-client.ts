import { retryAfterSeconds, type RetryPolicy } from '../../lib/fetch-with-retry.ts';
import { isJsonObject as isRecord, MicrosoftError, readJsonAnswer } from '../microsoft-error.ts';
import type { EntraClient } from '../microsoft-identity/entra-client.ts';
import { callMicrosoft, RETRY_PROFILES, retryPolicy, withMoreTime, type RetryOptions } from '../retry-policy.ts';

export const POWER_BI_SCOPE = 'https://analysis.windows.net/powerbi/api/.default';

export interface PowerBiReport {
  id: string;
  name: string;
  embedUrl: string;
  datasetId: string;
}

export interface EffectiveIdentity {
  username: string;
  roles: string[];
  datasets: string[];
}

/**
 * GenerateToken's body (GenerateTokenRequestV2) as the portal sends it: to view reports only, so neither
 * `targetWorkspaces` (where a token may save) nor a report's `allowEdit` (docs/decisions/014).
 */
export interface GenerateTokenRequest {
  reports: { id: string }[];
  datasets: { id: string }[];
  identities?: EffectiveIdentity[];
}

export interface EmbedToken {
  token: string;
  expiration: string;
  /** The answer's RequestId header: how Power BI's support finds the call. */
  requestId: string | null;
}

/** ExportTo's body for a Power BI report (not a paginated one), as Microsoft documents it. */
export interface ExportToRequest {
  format: 'PDF' | 'PPTX';
  powerBIReportConfiguration: {
    defaultBookmark?: { state: string };
    pages?: { pageName: string }[];
    identities?: EffectiveIdentity[];
    settings?: { locale?: string };
  };
}

/** An export job's state. Power BI's 'Undefined' reads as 'Failed': nothing says it will ever finish. */
export interface PowerBiExport {
  id: string;
  status: 'NotStarted' | 'Running' | 'Succeeded' | 'Failed';
  percentComplete: number;
  /**
   * Power BI's Retry-After, in seconds; null when it gave none. While the job runs: when to poll again. On 'Failed':
   * the failure was transient (the system was busy), and the export may be started again after that long; a
   * 'Failed' without it is final (docs/decisions/015-export-as-power-bi-documents-it.md).
   */
  retryAfterSeconds: number | null;
}

export interface PowerBiFile {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Which retry profile a call runs under: 'person' when someone waits for the answer (RETRY_PROFILES.personWaiting),
 * 'background' for the portal's own jobs (the freshness read, the health check: RETRY_PROFILES.backgroundJob, which
 * waits out longer Retry-Afters).
 */
export type CallMode = 'person' | 'background';

/** A workspace (Group) the service principal can reach. */
export interface PowerBiWorkspace {
  id: string;
  name: string;
}

/** A report of a workspace, as Reports_GetReportsInGroup lists it. */
export interface PowerBiReportSummary {
  id: string;
  name: string;
  /** Null for a paginated report, which has no dataset (Power BI then sends none). */
  datasetId: string | null;
  /**
   * The dataset's workspace when Power BI names it (a report may use a dataset of another workspace). Not a field of
   * Microsoft's Report (only of the admin scanner's related datasets), so usually null: the reader then looks for the
   * dataset in the report's own workspace first.
   */
  datasetWorkspaceId: string | null;
  /**
   * 'PowerBIReport' or 'PaginatedReport'; null when Power BI did not say (the list "returns a subset" of the
   * properties), which proves nothing either way.
   */
  reportType: string | null;
}

/** A page of a report, in the report's order. */
export interface PowerBiPage {
  name: string;
  displayName: string;
  order: number;
}

/**
 * A dataset: whether it can be refreshed, and its storage mode (targetStorageMode: 'Abf' for import, 'PremiumFiles'
 * for large models, 'Unknown' or absent for DirectQuery and live connections, which have no refresh).
 */
export interface PowerBiDataset {
  id: string;
  name: string;
  isRefreshable: boolean;
  storageMode: string | null;
}

/**
 * One entry of a dataset's refresh history. 'Unknown' is a refresh in progress (no endTime yet) or one whose end
 * Power BI does not know; 'Cancelled' an enhanced refresh that was cancelled; 'Disabled' one a selective refresh
 * disabled (it did not run). `serviceExceptionJson` is Power BI's error as JSON text, on a 'Failed' one (null when
 * empty: "empty if no error").
 */
export interface PowerBiRefresh {
  status: 'Unknown' | 'Completed' | 'Failed' | 'Disabled' | 'Cancelled';
  /** An enhanced refresh's extendedStatus (e.g. 'NotStarted' on a queued one), when Power BI gives it. */
  extendedStatus: string | null;
  startTime: string | null;
  endTime: string | null;
  refreshType: string | null;
  serviceExceptionJson: string | null;
}

/** A dataset's scheduled refresh: weekdays ('Monday'…), times ('06:00'), whether it is on, its time zone id. */
export interface PowerBiRefreshSchedule {
  days: string[];
  times: string[];
  enabled: boolean;
  /** Power BI's localTimeZoneId (a Windows time zone id); null when it gave none. */
  timeZoneId: string | null;
}

/**
 * Overrides of the retries (RETRY_PROFILES.personWaiting: 8 s an attempt, 3 retries, Retry-After up to 10 s, 20 s a
 * call; the background calls start from RETRY_PROFILES.backgroundJob); an exported file gets four times the time.
 */
export interface PowerBiClientOptions extends RetryOptions {
  /** Workspaces asked for a page ($top); tests set fewer to see the paging. */
  workspacePageSize?: number;
}

/**
 * Power BI documents no limit on Groups_GetGroups' $top; 1000 keeps each answer small and, for a portal whose service
 * principal reaches a few dozen workspaces, still one call.
 */
const WORKSPACE_PAGE_SIZE = 1000;

const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function malformed(what: string): MicrosoftError {
  return new MicrosoftError('power-bi', 'malformed', `Power BI: resposta sem ${what}.`);
}

const groupPath = (workspaceId: string) => `/v1.0/myorg/groups/${encodeURIComponent(workspaceId)}`;
const reportPath = (workspaceId: string, reportId: string) =>
  `${groupPath(workspaceId)}/reports/${encodeURIComponent(reportId)}`;
const datasetPath = (workspaceId: string, datasetId: string) =>
  `${groupPath(workspaceId)}/datasets/${encodeURIComponent(datasetId)}`;
/** Export ids are base64 text: '/', '+' and '=' must be encoded in the path. */
const exportPath = (workspaceId: string, reportId: string, exportId: string) =>
  `${reportPath(workspaceId, reportId)}/exports/${encodeURIComponent(exportId)}`;

const isString = (value: unknown): value is string => typeof value === 'string';
const optionalText = (value: unknown): string | null => (text(value) ? value : null);

/** The `value` array of an OData collection answer; `malformed` when there is none. */
function collection(answer: unknown, what: string): unknown[] {
  if (!isRecord(answer) || !Array.isArray(answer.value)) throw malformed(what);
  return answer.value;
}

const REFRESH_STATUSES = new Set(['Unknown', 'Completed', 'Failed', 'Disabled', 'Cancelled']);

/**
 * A refresh entry; a status Power BI may add later reads as 'Unknown' (it says nothing about the data). An
 * extendedStatus 'Cancelled' is a cancelled refresh whatever the status beside it (the enhanced refresh page lists
 * Cancelled as a status, the swagger's refresh details only as an extendedStatus).
 */
function readRefresh(entry: unknown): PowerBiRefresh {
  if (!isRecord(entry) || !isString(entry.status)) throw malformed('o estado da atualização');
  const extendedStatus = optionalText(entry.extendedStatus);
  const status = REFRESH_STATUSES.has(entry.status) ? (entry.status as PowerBiRefresh['status']) : 'Unknown';
  return {
    status: extendedStatus === 'Cancelled' ? 'Cancelled' : status,
    extendedStatus,
    startTime: optionalText(entry.startTime),
    endTime: optionalText(entry.endTime),
    refreshType: optionalText(entry.refreshType),
    serviceExceptionJson: optionalText(entry.serviceExceptionJson),
  };
}

/**
 * A dataset. The swagger spells `IsRefreshable` while Microsoft's example and the live API write `isRefreshable`:
 * either is read (packages/microsoft-api/src/power-bi.ts).
 */
function readDataset(dataset: unknown): PowerBiDataset {
  if (!isRecord(dataset) || !text(dataset.id)) throw malformed('o id do dataset');
  const refreshable = dataset.isRefreshable ?? dataset.IsRefreshable;
  return {
    id: dataset.id,
    name: isString(dataset.name) ? dataset.name : '',
    isRefreshable: refreshable === true,
    storageMode: optionalText(dataset.targetStorageMode),
  };
}

const startedAt = (refresh: PowerBiRefresh) => (refresh.startTime === null ? 0 : Date.parse(refresh.startTime) || 0);

const EXPORT_STATUSES = new Set(['NotStarted', 'Running', 'Succeeded', 'Failed']);

/**
 * An Export answer: 202 while the job runs, 200 once it ended (Succeeded or Failed). Retry-After is read whatever the
 * status, since on a 200 Failed it is what tells a transient failure from a final one.
 */
function readExport(job: unknown, response: Response): PowerBiExport {
  if (!isRecord(job) || !text(job.id) || typeof job.status !== 'string')
    throw malformed('o id e o estado da exportação');
  const status = EXPORT_STATUSES.has(job.status) ? (job.status as PowerBiExport['status']) : 'Failed';
  const percent = typeof job.percentComplete === 'number' ? job.percentComplete : 0;
  return {
    id: job.id,
    status,
    percentComplete: Math.round(Math.min(100, Math.max(0, percent))),
    retryAfterSeconds: retryAfterSeconds(response),
  };
}

/** Power BI REST over plain fetch, as the service principal. Failures are `MicrosoftError`s of 'power-bi'. */
export class PowerBiClient {
  private readonly retry: RetryPolicy;
  private readonly backgroundRetry: RetryPolicy;
  private readonly fileRetry: RetryPolicy;
  private readonly workspacePageSize: number;

  constructor(
    private readonly apiUrl: string,
    private readonly entra: EntraClient,
    options: PowerBiClientOptions = {},
  ) {
    this.retry = retryPolicy(RETRY_PROFILES.personWaiting, options);
    // A report's file is megabytes, not a JSON answer: four times the time for each attempt and for the whole call.
    this.fileRetry = withMoreTime(this.retry, 4);
    this.backgroundRetry = retryPolicy(RETRY_PROFILES.backgroundJob, options);
    this.workspacePageSize = Math.max(1, options.workspacePageSize ?? WORKSPACE_PAGE_SIZE);
  }

  /**
   * Every workspace the service principal is a member of: Groups_GetGroups page by page ($top, $skip) until a page
   * comes back short, since Power BI gives no next link.
   */
  async listWorkspaces(mode: CallMode = 'person'): Promise<PowerBiWorkspace[]> {
    const workspaces: PowerBiWorkspace[] = [];
    for (let skip = 0; ; skip += this.workspacePageSize) {
      // `$` written as such, the way Microsoft's pages write the OData options.
      const path = `/v1.0/myorg/groups?$top=${this.workspacePageSize}&$skip=${skip}`;
      const page = collection(await this.call('GET', path, mode), 'a lista de workspaces');
      for (const group of page) {
        if (!isRecord(group) || !text(group.id)) throw malformed('o id do workspace');
        workspaces.push({ id: group.id, name: isString(group.name) ? group.name : '' });
      }
      if (page.length < this.workspacePageSize) return workspaces;
    }
  }

  /** The reports of a workspace (Power BI lists them all at once: the call has no paging). */
  async listReports(workspaceId: string, mode: CallMode = 'person'): Promise<PowerBiReportSummary[]> {
    const answer = await this.call('GET', `${groupPath(workspaceId)}/reports`, mode);
    return collection(answer, 'a lista de relatórios').map((report) => {
      if (!isRecord(report) || !text(report.id)) throw malformed('o id do relatório');
      return {
        id: report.id,
        name: isString(report.name) ? report.name : '',
        datasetId: optionalText(report.datasetId),
        datasetWorkspaceId: optionalText(report.datasetWorkspaceId),
        reportType: optionalText(report.reportType),
      };
    });
  }

  /** A report's pages in their order. Microsoft's own example writes `order` as a string ("0"): both are read. */
  async getPages(workspaceId: string, reportId: string, mode: CallMode = 'person'): Promise<PowerBiPage[]> {
    const answer = await this.call('GET', `${reportPath(workspaceId, reportId)}/pages`, mode);
    const pages = collection(answer, 'a lista de páginas').map((page, index) => {
      if (!isRecord(page) || !text(page.name)) throw malformed('o nome da página');
      const order = Number(page.order);
      return {
        name: page.name,
        displayName: isString(page.displayName) ? page.displayName : page.name,
        order: page.order !== undefined && page.order !== '' && Number.isFinite(order) ? order : index,
      };
    });
    return pages.sort((a, b) => a.order - b.order);
  }

  /**
   * The datasets of a workspace, as Datasets_GetDatasetsInGroup lists them all at once (no paging): whether each can be
   * refreshed and its storage mode. A dataset is listed in its own workspace, which may not be its reports'.
   */
  async listDatasets(workspaceId: string, mode: CallMode = 'person'): Promise<PowerBiDataset[]> {
    const answer = await this.call('GET', `${groupPath(workspaceId)}/datasets`, mode);
    return collection(answer, 'a lista de datasets').map(readDataset);
  }

  /**
   * Whether the dataset is DirectQuery or a live connection: Datasets_GetDirectQueryRefreshScheduleInGroup is
   * documented only "for a specified DirectQuery or LiveConnection dataset", so its answer (200, a schedule) says
   * so. Power BI refusing it (a 4xx other than 429: what it answers for an import model is not documented) reads as
   * false; any other failure is thrown, since it says nothing.
   */
  async isDirectQueryOrLive(workspaceId: string, datasetId: string, mode: CallMode = 'person'): Promise<boolean> {
    try {
      const answer = await this.call('GET', `${datasetPath(workspaceId, datasetId)}/directQueryRefreshSchedule`, mode);
      if (!isRecord(answer)) throw malformed('o agendamento do DirectQuery');
      return true;
    } catch (error) {
      if (error instanceof MicrosoftError && error.failure === 'refused') return false;
      throw error;
    }
  }

  /**
   * An import model's scheduled refresh (Datasets_GetRefreshScheduleInGroup): the weekdays and times, in its own time
   * zone (a Windows time zone id, e.g. 'E. South America Standard Time'). A day or a time Power BI might add later is
   * kept as given.
   */
  async refreshSchedule(
    workspaceId: string,
    datasetId: string,
    mode: CallMode = 'person',
  ): Promise<PowerBiRefreshSchedule> {
    const answer = await this.call('GET', `${datasetPath(workspaceId, datasetId)}/refreshSchedule`, mode);
    if (!isRecord(answer)) throw malformed('o agendamento de atualização');
    const strings = (value: unknown) => (Array.isArray(value) ? value.filter(isString) : []);
    return {
      days: strings(answer.days),
      times: strings(answer.times),
      enabled: answer.enabled === true,
      timeZoneId: optionalText(answer.localTimeZoneId),
    };
  }

  /** The last `top` entries of a dataset's refresh history, newest first. */
  async refreshHistory(
    workspaceId: string,
    datasetId: string,
    top: number,
    mode: CallMode = 'person',
  ): Promise<PowerBiRefresh[]> {
    const path = `${datasetPath(workspaceId, datasetId)}/refreshes?$top=${Math.max(1, Math.floor(top))}`;
    const answer = await this.call('GET', path, mode);
    // Power BI lists the newest first already; sorted again so that nothing downstream depends on it.
    return collection(answer, 'o histórico de atualizações')
      .map(readRefresh)
      .sort((a, b) => startedAt(b) - startedAt(a));
  }

  /** The report's details; `malformed` unless Power BI named its id, embed URL and dataset. */
  async getReport(workspaceId: string, reportId: string, mode: CallMode = 'person'): Promise<PowerBiReport> {
    const report = await this.call('GET', reportPath(workspaceId, reportId), mode);
    if (!isRecord(report) || !text(report.id) || !text(report.datasetId)) {
      throw malformed('o id e o dataset do relatório');
    }
    if (!text(report.embedUrl) || !URL.canParse(report.embedUrl)) throw malformed('o embedUrl do relatório');
    return {
      id: report.id,
      name: typeof report.name === 'string' ? report.name : '',
      embedUrl: report.embedUrl,
      datasetId: report.datasetId,
    };
  }

  /** An embed token; `malformed` unless Power BI gave the token and a readable expiration. */
  async generateToken(body: GenerateTokenRequest): Promise<EmbedToken> {
    let requestId: string | null = null;
    const token = await this.call('POST', '/v1.0/myorg/GenerateToken', 'person', body, (response) => {
      requestId = response.headers.get('requestid');
    });
    if (!isRecord(token) || !text(token.token)) throw malformed('o token de incorporação');
    if (!text(token.expiration) || Number.isNaN(Date.parse(token.expiration))) throw malformed('a validade do token');
    return { token: token.token, expiration: token.expiration, requestId };
  }

  /** Starts exporting a report to a file (202 Accepted): the job to poll with exportStatus. */
  async exportTo(workspaceId: string, reportId: string, body: ExportToRequest): Promise<PowerBiExport> {
    let answer: Response | undefined;
    const job = await this.call('POST', `${reportPath(workspaceId, reportId)}/ExportTo`, 'person', body, (response) => {
      answer = response;
    });
    return readExport(job, answer!);
  }

  /** An export job's state, with the Retry-After Power BI gave: while it runs (202), or with a transient Failed. */
  async exportStatus(workspaceId: string, reportId: string, exportId: string): Promise<PowerBiExport> {
    let answer: Response | undefined;
    const job = await this.call('GET', exportPath(workspaceId, reportId, exportId), 'person', undefined, (response) => {
      answer = response;
    });
    return readExport(job, answer!);
  }

  /** The exported file's bytes, once the job succeeded. A file takes longer than a JSON answer: more time for it. */
  async exportFile(workspaceId: string, reportId: string, exportId: string): Promise<PowerBiFile> {
    const response = await this.send(
      'GET',
      `${exportPath(workspaceId, reportId, exportId)}/file`,
      undefined,
      '*/*',
      this.fileRetry,
    );
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    };
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    mode: CallMode,
    body?: unknown,
    onAnswer?: (response: Response) => void,
  ): Promise<unknown> {
    const retry = mode === 'background' ? this.backgroundRetry : this.retry;
    const response = await this.send(method, path, body, 'application/json', retry);
    onAnswer?.(response);
    return readJsonAnswer('power-bi', response);
  }

  /** The successful answer (any 2xx: ExportTo and a running job answer 202), or the failure as a MicrosoftError. */
  private send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    accept: string,
    retry: RetryPolicy,
  ): Promise<Response> {
    const token = (signal: AbortSignal | undefined) => this.entra.appToken(POWER_BI_SCOPE, signal);
    return callMicrosoft('power-bi', this.apiUrl + path, { method, accept, body, token }, retry);
  }
}
