/**
 * Why the portal refuses what was asked, in its own terms: what the request names does not exist, is not valid,
 * conflicts with what is stored, is not this person's to do, or has to wait; the credentials given prove no one;
 * this person asked too often; or what was asked needs something the portal was not set up with. Modules and their
 * repositories throw it knowing nothing of HTTP; the error handler (plugins/error-handler.ts) answers each kind with
 * its status, as it answers a MicrosoftError (docs/decisions/008-api-modules-own-their-data.md).
 */
export type FailureKind =
  'not-found' | 'invalid' | 'conflict' | 'forbidden' | 'busy' | 'unauthenticated' | 'throttled' | 'unavailable';

export class DomainFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    /** What the person reads, in Portuguese. */
    message: string,
    /** Whole seconds before trying again (a `busy` refusal that knows when it ends; every `throttled` one). */
    readonly retryAfterSeconds?: number,
    /** Fields answered beside `message`, for a client that acts on the refusal (the capacity a 503 waits for). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainFailure';
  }
}

export const notFound = (message: string) => new DomainFailure('not-found', message);
export const invalid = (message: string) => new DomainFailure('invalid', message);
export const conflict = (message: string) => new DomainFailure('conflict', message);
export const forbidden = (message: string) => new DomainFailure('forbidden', message);
/** Not now: at least one second, rounded up. */
export const busy = (message: string, seconds: number) =>
  new DomainFailure('busy', message, Math.max(1, Math.ceil(seconds)));
/** Credentials that prove no one (a wrong username or password). */
export const unauthenticated = (message: string) => new DomainFailure('unauthenticated', message);
/** Too many attempts from this person or address: come back in at least one second, rounded up. */
export const throttled = (message: string, seconds: number) =>
  new DomainFailure('throttled', message, Math.max(1, Math.ceil(seconds)));
/** What was asked needs something this installation lacks (a mail transport), with no time when it will have it. */
export const unavailable = (message: string) => new DomainFailure('unavailable', message);

/** A list naming ids that do not exist: 400 naming the first five ('Grupos não encontrados: a, b e mais 3.'). */
export function unknownIds(what: string, missing: readonly string[]): DomainFailure {
  const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? ` e mais ${missing.length - 5}` : '');
  return invalid(`${what} não encontrados: ${shown}.`);
}
