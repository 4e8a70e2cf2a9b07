import { retryAfterMs } from '../lib/fetch-with-retry.ts';

/** The Microsoft services the portal calls. */
/** 'azure': Azure Resource Manager, where the Power BI capacity is paused, resumed and scaled. */
export type MicrosoftService = 'entra' | 'graph' | 'power-bi' | 'azure';

/**
 * How a call failed, in terms the HTTP side can map without knowing the service's own codes:
 * - `not-configured`: this server has no Microsoft configuration for it;
 * - `timeout`: no answer in time; `unreachable`: no connection at all;
 * - `throttled`: still 429 after the retries; `unavailable`: 5xx;
 * - `refused`: any other error status (permissions, unknown ids, bad request);
 * - `malformed`: an answer that could not be read;
 * - `identity-without-roles`: Power BI requires at least one role in an RLS identity, so the call is not made;
 * - `identity-over-limits`: the identity breaks another of Power BI's rules for it (power-bi/effective-identity.ts),
 *   so the call is not made either.
 */
export type MicrosoftFailure =
  | 'not-configured'
  | 'timeout'
  | 'unreachable'
  | 'throttled'
  | 'unavailable'
  | 'refused'
  | 'malformed'
  | 'identity-without-roles'
  | 'identity-over-limits';

/**
 * A failed call to a Microsoft service. The status, the service's error code and its request id are for
 * the log; the browser only ever gets the Portuguese message the HTTP side maps the failure to.
 */
export class MicrosoftError extends Error {
  constructor(
    readonly service: MicrosoftService,
    readonly failure: MicrosoftFailure,
    message: string,
    readonly details: {
      status?: number;
      code?: string | undefined;
      requestId?: string | null;
      /** The answer's Retry-After, in whole seconds, when it had a readable one (a 429 says when to come back). */
      retryAfterSeconds?: number | null;
    } = {},
  ) {
    super(message);
    this.name = 'MicrosoftError';
  }

  get status(): number | undefined {
    return this.details.status;
  }

  get code(): string | undefined {
    return this.details.code;
  }

  get requestId(): string | null {
    return this.details.requestId ?? null;
  }

  get retryAfterSeconds(): number | null {
    return this.details.retryAfterSeconds ?? null;
  }
}

const NAMES: Record<MicrosoftService, string> = {
  entra: 'Entra ID',
  graph: 'Microsoft Graph',
  'power-bi': 'Power BI',
  azure: 'Azure Resource Manager',
};

/** What an error status stands for, whichever service answered it. */
export const failureOfStatus = (status: number): MicrosoftFailure =>
  status === 429 ? 'throttled' : status >= 500 ? 'unavailable' : 'refused';

/** An error and its causes, outermost first (bounded: a cause chain can loop). */
export function causeChain(error: unknown): unknown[] {
  const errors: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && errors.length < 6; e = (e as { cause?: unknown }).cause) {
    errors.push(e);
  }
  return errors;
}

/** A JSON object (not null, not an array): what every Microsoft answer and list item must be. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The error an unsuccessful answer stands for. Microsoft services share one error body,
 * `{ "error": { "code", "message" } }`, and name the request in `request-id` (Graph, Entra), `requestid`
 * (Power BI) or `x-ms-request-id` (Azure Resource Manager).
 */
export async function errorFromResponse(service: MicrosoftService, response: Response): Promise<MicrosoftError> {
  const body = (await response.json().catch(() => ({}))) as { error?: { code?: unknown; message?: unknown } } | null;
  const error = body && typeof body === 'object' ? body.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const text = typeof error?.message === 'string' ? error.message : response.statusText;
  return new MicrosoftError(
    service,
    failureOfStatus(response.status),
    `${NAMES[service]} respondeu ${response.status}: ${text}`,
    {
      status: response.status,
      code,
      requestId:
        response.headers.get('request-id') ??
        response.headers.get('requestid') ??
        response.headers.get('x-ms-request-id'),
      retryAfterSeconds: retryAfterSecondsOf(response),
    },
  );
}

function retryAfterSecondsOf(response: Response): number | null {
  const ms = retryAfterMs(response.headers.get('retry-after'));
  return ms === null ? null : Math.ceil(ms / 1000);
}

/** The error a call that got no answer stands for: a timeout, or no connection. */
export function errorFromFetchFailure(service: MicrosoftService, error: unknown): MicrosoftError {
  if (error instanceof MicrosoftError) return error;
  const name = (error as Error | undefined)?.name;
  const timedOut = name === 'TimeoutError' || name === 'AbortError';
  return new MicrosoftError(service, timedOut ? 'timeout' : 'unreachable', `${NAMES[service]}: ${failureText(error)}`);
}

/**
 * What went wrong, with the innermost cause ('fetch failed' says nothing; 'connect ECONNREFUSED …' does), and
 * without credentials a URL may carry.
 */
function failureText(error: unknown): string {
  const messages = causeChain(error)
    .slice(0, 4)
    .map((e) => (e as { message?: unknown }).message)
    .filter((m): m is string => typeof m === 'string' && m !== '');
  const text = messages.length ? messages.join(': ') : String(error);
  return text.replace(/\/\/[^/@\s]*@/g, '//');
}

/** A successful answer's JSON, or a `malformed` error when it is not JSON. */
export async function readJson(service: MicrosoftService, response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch (error) {
    throw new MicrosoftError(
      service,
      'malformed',
      `${NAMES[service]}: resposta ilegível (${(error as Error).message})`,
      {
        status: response.status,
      },
    );
  }
}

/**
 * A successful answer's JSON, as `readJson`, but only from an answer that says it is JSON: a 200 in HTML or text
 * comes from something in the service's place (a proxy, a captive portal), and is `malformed` even when it parses.
 */
export async function readJsonAnswer(service: MicrosoftService, response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
    await response.body?.cancel().catch(() => undefined);
    throw new MicrosoftError(
      service,
      'malformed',
      `${NAMES[service]}: resposta não é JSON (${type ? `content-type ${type}` : 'sem content-type'})`,
      { status: response.status },
    );
  }
  return readJson(service, response);
}
