/** An error whose message is meant for the client, in Portuguese. */
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

export const notFound = (message: string) => new HttpError(404, message);
export const badRequest = (message: string) => new HttpError(400, message);
export const conflict = (message: string) => new HttpError(409, message);
/** A 429 that says when to come back: at least one second, rounded up. */
export const tooManyRequests = (message: string, seconds: number) =>
  new HttpError(429, message, Math.max(1, Math.ceil(seconds)));
