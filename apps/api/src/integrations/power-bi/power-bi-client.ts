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
 * Overrides of the retries (RETRY_PROFILES.personWaiting: 8 s an attempt, 3 retries, Retry-After up to 10 s, 20 s a
 * call); an exported file gets four times the time.
 */
export type PowerBiClientOptions = RetryOptions;

const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function malformed(what: string): MicrosoftError {
  return new MicrosoftError('power-bi', 'malformed', `Power BI: resposta sem ${what}.`);
}

const reportPath = (workspaceId: string, reportId: string) =>
  `/v1.0/myorg/groups/${encodeURIComponent(workspaceId)}/reports/${encodeURIComponent(reportId)}`;
/** Export ids are base64 text: '/', '+' and '=' must be encoded in the path. */
const exportPath = (workspaceId: string, reportId: string, exportId: string) =>
  `${reportPath(workspaceId, reportId)}/exports/${encodeURIComponent(exportId)}`;

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
  private readonly fileRetry: RetryPolicy;

  constructor(
    private readonly apiUrl: string,
    private readonly entra: EntraClient,
    options: PowerBiClientOptions = {},
  ) {
    this.retry = retryPolicy(RETRY_PROFILES.personWaiting, options);
    // A report's file is megabytes, not a JSON answer: four times the time for each attempt and for the whole call.
    this.fileRetry = withMoreTime(this.retry, 4);
  }

  /** The report's details; `malformed` unless Power BI named its id, embed URL and dataset. */
  async getReport(workspaceId: string, reportId: string): Promise<PowerBiReport> {
    const report = await this.call('GET', reportPath(workspaceId, reportId));
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
    const token = await this.call('POST', '/v1.0/myorg/GenerateToken', body, (response) => {
      requestId = response.headers.get('requestid');
    });
    if (!isRecord(token) || !text(token.token)) throw malformed('o token de incorporação');
    if (!text(token.expiration) || Number.isNaN(Date.parse(token.expiration))) throw malformed('a validade do token');
    return { token: token.token, expiration: token.expiration, requestId };
  }

  /** Starts exporting a report to a file (202 Accepted): the job to poll with exportStatus. */
  async exportTo(workspaceId: string, reportId: string, body: ExportToRequest): Promise<PowerBiExport> {
    let answer: Response | undefined;
    const job = await this.call('POST', `${reportPath(workspaceId, reportId)}/ExportTo`, body, (response) => {
      answer = response;
    });
    return readExport(job, answer!);
  }

  /** An export job's state, with the Retry-After Power BI gave: while it runs (202), or with a transient Failed. */
  async exportStatus(workspaceId: string, reportId: string, exportId: string): Promise<PowerBiExport> {
    let answer: Response | undefined;
    const job = await this.call('GET', exportPath(workspaceId, reportId, exportId), undefined, (response) => {
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
    body?: unknown,
    onAnswer?: (response: Response) => void,
  ): Promise<unknown> {
    const response = await this.send(method, path, body, 'application/json', this.retry);
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
