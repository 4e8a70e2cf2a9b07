import { fetchWithRetry, type RetryPolicy } from '../../lib/fetch-with-retry.ts';
import {
  errorFromFetchFailure,
  errorFromResponse,
  isJsonObject as isRecord,
  MicrosoftError,
  readJsonAnswer,
} from '../microsoft-error.ts';
import type { EntraClient } from '../microsoft-identity/entra-client.ts';

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

export interface GenerateTokenRequest {
  reports: { id: string }[];
  datasets: { id: string }[];
  targetWorkspaces: { id: string }[];
  identities?: EffectiveIdentity[];
}

export interface EmbedToken {
  token: string;
  expiration: string;
  /** The answer's RequestId header: how Power BI's support finds the call. */
  requestId: string | null;
}

export interface PowerBiClientOptions {
  /** Per request, to the last byte of the answer; default 8 s. */
  timeoutMs?: number;
  /** Retries on 429, 5xx and network errors; default 3. */
  maxRetries?: number;
  /** Longest Retry-After honoured; Power BI asking for longer is answered at once as throttled. Default 10 s. */
  maxRetryAfterMs?: number;
  /**
   * Each call (GetReport, GenerateToken) as a whole: the service principal's token, every attempt and every wait.
   * Default 20 s.
   */
  deadlineMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function malformed(what: string): MicrosoftError {
  return new MicrosoftError('power-bi', 'malformed', `Power BI: resposta sem ${what}.`);
}

/** Power BI REST over plain fetch, as the service principal. Failures are `MicrosoftError`s of 'power-bi'. */
export class PowerBiClient {
  private readonly retry: RetryPolicy;

  constructor(
    private readonly apiUrl: string,
    private readonly entra: EntraClient,
    options: PowerBiClientOptions = {},
  ) {
    // A person is waiting for the report: short waits, and a timeout is answered at once, not retried.
    this.retry = {
      timeoutMs: options.timeoutMs ?? 8000,
      maxRetries: options.maxRetries ?? 3,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 10_000,
      deadlineMs: options.deadlineMs ?? 20_000,
      backoff: (attempt) => Math.min(8000, 500 * 2 ** attempt),
      retryTimeouts: false,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    };
  }

  /** The report's details; `malformed` unless Power BI named its id, embed URL and dataset. */
  async getReport(workspaceId: string, reportId: string): Promise<PowerBiReport> {
    const path = `/v1.0/myorg/groups/${encodeURIComponent(workspaceId)}/reports/${encodeURIComponent(reportId)}`;
    const report = await this.call('GET', path);
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

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    onAnswer?: (response: Response) => void,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetchWithRetry(
        async (signal) => [
          this.apiUrl + path,
          {
            method,
            headers: {
              authorization: `Bearer ${await this.entra.appToken(POWER_BI_SCOPE, signal)}`,
              accept: 'application/json',
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          },
        ],
        this.retry,
      );
    } catch (error) {
      throw errorFromFetchFailure('power-bi', error);
    }
    if (response.ok) {
      onAnswer?.(response);
      return readJsonAnswer('power-bi', response);
    }
    throw await errorFromResponse('power-bi', response);
  }
}
