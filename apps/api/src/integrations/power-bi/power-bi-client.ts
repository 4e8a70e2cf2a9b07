import { fetchWithRetry, type RetryPolicy } from '../../lib/fetch-with-retry.ts';
import { errorFromFetchFailure, errorFromResponse, readJson } from '../microsoft-error.ts';
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
}

export interface PowerBiClientOptions {
  /** Per request; default 8 s. */
  timeoutMs?: number;
  /** Retries on 429 and 5xx; default 3. */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
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
      maxRetryAfterMs: 30_000,
      backoff: (attempt) => Math.min(8000, 500 * 2 ** attempt),
      retryTimeouts: false,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    };
  }

  async getReport(workspaceId: string, reportId: string): Promise<PowerBiReport> {
    const path = `/v1.0/myorg/groups/${encodeURIComponent(workspaceId)}/reports/${encodeURIComponent(reportId)}`;
    return (await this.call('GET', path)) as PowerBiReport;
  }

  async generateToken(body: GenerateTokenRequest): Promise<EmbedToken> {
    return (await this.call('POST', '/v1.0/myorg/GenerateToken', body)) as EmbedToken;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetchWithRetry(
        async () => [
          this.apiUrl + path,
          {
            method,
            headers: {
              authorization: `Bearer ${await this.entra.appToken(POWER_BI_SCOPE)}`,
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
    if (response.ok) return readJson('power-bi', response);
    throw await errorFromResponse('power-bi', response);
  }
}
