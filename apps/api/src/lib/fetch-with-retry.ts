export interface RetryPolicy {
  /** Per attempt, from sending the request to the last byte of the answer. */
  timeoutMs: number;
  /** Retries after the first attempt, on network errors, 429 and 5xx. */
  maxRetries: number;
  /**
   * Longest wait between attempts. A server that asks (Retry-After) for longer is not retried: its answer stands,
   * rather than making someone wait for it or asking again before it said to.
   */
  maxRetryAfterMs: number;
  /** The wait before the first retry when the server gave no Retry-After; doubled for each retry after it… */
  firstBackoffMs: number;
  /** …up to this. */
  longestBackoffMs: number;
  /** Whether an attempt that timed out is tried again (a background job may; a person waiting should not). */
  retryTimeouts: boolean;
  /**
   * Whether a 429 is tried again here (default true). False hands it to the caller at once, Retry-After included, for
   * a caller that shares the wait with other requests (Graph's mail limits, held in the database).
   */
  retryThrottled?: boolean;
  /**
   * The whole call: every attempt, every wait, and building each request (which may wait for a token). No retry
   * is begun that could not finish in it. None when absent.
   */
  deadlineMs?: number;
  sleep: (ms: number) => Promise<void>;
}

/** Statuses whose answers have no body (a Response cannot be built with one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** An HTTP-date starts with the day's name (IMF-fixdate, RFC 850 and asctime alike); Date.parse takes much more. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/** How long a Retry-After asks to wait: delay-seconds or an HTTP-date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  const text = header?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = HTTP_DATE.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait before retry `attempt` (0 for the first) when the server gave no Retry-After. */
const backoffMs = (policy: RetryPolicy, attempt: number) =>
  Math.min(policy.longestBackoffMs, policy.firstBackoffMs * 2 ** attempt);

/** An answer's Retry-After in whole seconds (rounded up), as a Microsoft error or export job reports it; null when none. */
export function retryAfterSeconds(response: Response): number | null {
  const ms = retryAfterMs(response.headers.get('retry-after'));
  return ms === null ? null : Math.ceil(ms / 1000);
}

function isTimeout(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/**
 * A request to a Microsoft API, retried on throttling (honouring Retry-After), server errors and network
 * errors. The request is built anew for each attempt, so it carries a fresh token; `request` gets a signal that
 * aborts when the deadline passes, for what it waits on. The answer's body is read within the attempt's timeout,
 * so an answer that never finishes is a timeout like one that never starts, and a body cut short is a network
 * error. Answers the first success or the final failure as it came (its body already read); throws the network
 * error (a `TimeoutError` for a timeout) when no attempt got a whole answer.
 */
export async function fetchWithRetry(
  request: (signal: AbortSignal | undefined) => Promise<[string, RequestInit]>,
  policy: RetryPolicy,
): Promise<Response> {
  const deadline = policy.deadlineMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + policy.deadlineMs;
  const remaining = () => deadline - Date.now();
  const deadlineSignal = Number.isFinite(deadline) ? AbortSignal.timeout(Math.max(0, remaining())) : undefined;
  for (let attempt = 0; ; attempt++) {
    const [url, init] = await request(deadlineSignal);
    const timeoutMs = Math.min(policy.timeoutMs, remaining());
    let response: Response;
    try {
      if (timeoutMs <= 0) throw new DOMException('The call ran out of time before this attempt.', 'TimeoutError');
      const signal = AbortSignal.timeout(timeoutMs);
      const answer = await fetch(url, { ...init, signal });
      const body = NULL_BODY.has(answer.status) ? null : await answer.arrayBuffer();
      response = new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    } catch (error) {
      const wait = backoffMs(policy, attempt);
      const retry = attempt < policy.maxRetries && (!isTimeout(error) || policy.retryTimeouts) && wait < remaining();
      if (!retry) throw error;
      await policy.sleep(wait);
      continue;
    }
    const throttled = response.status === 429 && policy.retryThrottled !== false;
    if ((throttled || response.status >= 500) && attempt < policy.maxRetries) {
      const asked = retryAfterMs(response.headers.get('retry-after'));
      const wait = asked !== null && asked > 0 ? asked : backoffMs(policy, attempt);
      if (wait <= policy.maxRetryAfterMs && wait < remaining()) {
        await policy.sleep(wait);
        continue;
      }
    }
    return response;
  }
}
