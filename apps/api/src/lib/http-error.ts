/**
 * An answer of the HTTP layer itself, whose message is meant for the client, in Portuguese: a missing or refused
 * session, a sign-in to slow down. What a module refuses is a DomainFailure (lib/domain-failure.ts).
 */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 502 | 503 | 504,
    message: string,
    /** Whole seconds before trying again, sent as `Retry-After` (a 429 or a busy 503); a 429 without it says a minute. */
    public readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A 429 that says when to come back: at least one second, rounded up. */
export const tooManyRequests = (message: string, seconds: number) =>
  new HttpError(429, message, Math.max(1, Math.ceil(seconds)));
