export interface RetryPolicy {
  /** Per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt, on network errors, 429 and 5xx. */
  maxRetries: number;
  /** Longest wait honoured for a Retry-After. */
  maxRetryAfterMs: number;
  /** The wait before retry `attempt` when the server gave no Retry-After. */
  backoff: (attempt: number) => number;
  /** Whether an attempt that timed out is tried again (a background job may; a person waiting should not). */
  retryTimeouts: boolean;
  sleep: (ms: number) => Promise<void>;
}

/**
 * A request to a Microsoft API, retried on throttling (honouring Retry-After), server errors and network
 * errors. The request is built anew for each attempt, so it carries a fresh token. Answers the first
 * success or the final failure as it came; throws the network error when no attempt got an answer.
 */
export async function fetchWithRetry(request: () => Promise<[string, RequestInit]>, policy: RetryPolicy) {
  for (let attempt = 0; ; attempt++) {
    const [url, init] = await request();
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(policy.timeoutMs) });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      if (attempt >= policy.maxRetries || (timedOut && !policy.retryTimeouts)) throw error;
      await policy.sleep(policy.backoff(attempt));
      continue;
    }
    if ((response.status === 429 || response.status >= 500) && attempt < policy.maxRetries) {
      const retryAfter = Number(response.headers.get('retry-after'));
      const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : policy.backoff(attempt);
      await response.body?.cancel();
      await policy.sleep(Math.min(wait, policy.maxRetryAfterMs));
      continue;
    }
    return response;
  }
}
