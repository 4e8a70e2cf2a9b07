import { fetchWithRetry, type RetryPolicy } from '../lib/fetch-with-retry.ts';
import { errorFromFetchFailure, errorFromResponse, type MicrosoftService } from './microsoft-error.ts';

/** A retry policy but for how to wait, which is the client's (tests record the waits). */
export type RetryProfile = Omit<RetryPolicy, 'sleep'>;

/**
 * The one retry policy of the portal's calls to Microsoft's REST APIs (Graph, Power BI). Every call is retried on
 * 429 (honouring Retry-After up to a limit), 5xx and network errors, with a doubling backoff, each attempt within a
 * timeout (lib/fetch-with-retry.ts); the profiles below differ only in how long whoever waits for the call can wait.
 * Entra ID is not retried here: openid-client makes its requests, within the Entra client's timeout.
 */
export const RETRY_PROFILES = {
  /** A background job (the directory sync): it may wait, and retries timeouts too; no deadline. */
  backgroundJob: {
    timeoutMs: 30_000,
    maxRetries: 6,
    maxRetryAfterMs: 120_000,
    firstBackoffMs: 1000,
    longestBackoffMs: 30_000,
    retryTimeouts: true,
  },
  /** A person is waiting for a report (Power BI): short waits, and a timeout is answered at once, not retried. */
  personWaiting: {
    timeoutMs: 8000,
    maxRetries: 3,
    maxRetryAfterMs: 10_000,
    deadlineMs: 20_000,
    firstBackoffMs: 500,
    longestBackoffMs: 8000,
    retryTimeouts: false,
  },
  /** A person is signing in, and the last sync's data stands in when Graph is slow: shorter still. */
  signIn: {
    timeoutMs: 10_000,
    maxRetries: 2,
    maxRetryAfterMs: 5000,
    deadlineMs: 15_000,
    firstBackoffMs: 500,
    longestBackoffMs: 4000,
    retryTimeouts: false,
  },
} satisfies Record<string, RetryProfile>;

/** What a client's owner (app.ts, the tests) may set over its profile. */
export interface RetryOptions {
  /** Per attempt, to the last byte of the answer. */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Longest Retry-After honoured; a service asking for longer gets its answer reported at once. */
  maxRetryAfterMs?: number;
  /** Each call as a whole: the service principal's token, every attempt and every wait. */
  deadlineMs?: number;
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `profile`, with what `options` sets instead. */
export function retryPolicy(profile: RetryProfile, options: RetryOptions = {}): RetryPolicy {
  return {
    ...profile,
    timeoutMs: options.timeoutMs ?? profile.timeoutMs,
    maxRetries: options.maxRetries ?? profile.maxRetries,
    maxRetryAfterMs: options.maxRetryAfterMs ?? profile.maxRetryAfterMs,
    deadlineMs: options.deadlineMs ?? profile.deadlineMs,
    sleep: options.sleep ?? wait,
  };
}

const lesser = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

/**
 * `policy` held to `limits` (a call a person waits on, from a client set up for a background job): each time, count
 * and wait the lesser of the two, and timeouts retried only if both retry them.
 */
export function atMost(policy: RetryPolicy, limits: RetryProfile): RetryPolicy {
  return {
    ...policy,
    timeoutMs: Math.min(policy.timeoutMs, limits.timeoutMs),
    maxRetries: Math.min(policy.maxRetries, limits.maxRetries),
    maxRetryAfterMs: Math.min(policy.maxRetryAfterMs, limits.maxRetryAfterMs),
    deadlineMs: lesser(policy.deadlineMs, limits.deadlineMs),
    firstBackoffMs: Math.min(policy.firstBackoffMs, limits.firstBackoffMs),
    longestBackoffMs: Math.min(policy.longestBackoffMs, limits.longestBackoffMs),
    retryTimeouts: policy.retryTimeouts && limits.retryTimeouts,
    retryThrottled: policy.retryThrottled !== false && limits.retryThrottled !== false,
  };
}

/** `policy` with `factor` times the time for each attempt and for the whole call (a file of megabytes, say). */
export function withMoreTime(policy: RetryPolicy, factor: number): RetryPolicy {
  return {
    ...policy,
    timeoutMs: policy.timeoutMs * factor,
    deadlineMs: policy.deadlineMs === undefined ? undefined : policy.deadlineMs * factor,
  };
}

export interface MicrosoftRequest {
  method: 'GET' | 'POST' | 'PATCH';
  accept: string;
  /** Sent as JSON. */
  body?: unknown;
  /** The service principal's token, asked for each attempt; it gets a signal that aborts at the call's deadline. */
  token: (signal: AbortSignal | undefined) => Promise<string>;
}

/**
 * A call to a Microsoft API under `policy`: the successful answer (any 2xx), or the failure as a `MicrosoftError`
 * of `service` (`timeout` or `unreachable` when no attempt got an answer, else what the last answer stands for).
 */
export async function callMicrosoft(
  service: MicrosoftService,
  url: string,
  { method, accept, body, token }: MicrosoftRequest,
  policy: RetryPolicy,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetchWithRetry(
      async (signal) => [
        url,
        {
          method,
          headers: {
            authorization: `Bearer ${await token(signal)}`,
            accept,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
      ],
      policy,
    );
  } catch (error) {
    throw errorFromFetchFailure(service, error);
  }
  if (response.ok) return response;
  throw await errorFromResponse(service, response);
}
