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

/** A failed Power BI call: status, Power BI's error code and request id are for the log, never the browser. */
export class PowerBiError extends Error {
  constructor(
    message: string,
    readonly status: number | 'timeout' | 'network',
    readonly code: string | undefined,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

export interface PowerBiClientOptions {
  /** Per request; default 8 s. */
  timeoutMs?: number;
  /** Retries on 429 and 5xx; default 3. */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Power BI REST over plain fetch, as the service principal. */
export class PowerBiClient {
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly apiUrl: string,
    private readonly entra: EntraClient,
    options: PowerBiClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 8000;
    this.maxRetries = options.maxRetries ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async getReport(workspaceId: string, reportId: string): Promise<PowerBiReport> {
    const path = `/v1.0/myorg/groups/${encodeURIComponent(workspaceId)}/reports/${encodeURIComponent(reportId)}`;
    return (await this.call('GET', path)) as PowerBiReport;
  }

  async generateToken(body: GenerateTokenRequest): Promise<EmbedToken> {
    return (await this.call('POST', '/v1.0/myorg/GenerateToken', body)) as EmbedToken;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.entra.appToken(POWER_BI_SCOPE);
      let response: Response;
      try {
        response = await fetch(this.apiUrl + path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        const timedOut = (error as Error).name === 'TimeoutError';
        if (attempt < this.maxRetries && !timedOut) {
          await this.sleep(backoff(attempt));
          continue;
        }
        throw new PowerBiError(
          `Power BI: ${(error as Error).message}`,
          timedOut ? 'timeout' : 'network',
          undefined,
          null,
        );
      }
      if (response.ok) return response.json();
      const requestId = response.headers.get('requestid') ?? response.headers.get('request-id');
      if ((response.status === 429 || response.status >= 500) && attempt < this.maxRetries) {
        const retryAfter = Number(response.headers.get('retry-after'));
        await response.body?.cancel();
        await this.sleep(
          Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 30_000) : backoff(attempt),
        );
        continue;
      }
      const error = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
      throw new PowerBiError(
        `Power BI respondeu ${response.status}: ${error.error?.message ?? response.statusText}`,
        response.status,
        error.error?.code,
        requestId,
      );
    }
  }
}

/** 0.5 s, 1 s, 2 s... up to 8 s: the person is waiting for the report. */
const backoff = (attempt: number) => Math.min(8000, 500 * 2 ** attempt);
