/**
 * A value that is either there already or on its way. The hottest reads (opening a panel) are answered from memory
 * nearly always, and there each promise and `await` is a measurable share of the request's cost
 * (docs/decisions/017-request-logs.md); they return the value itself then, and a promise only when they must wait.
 */
export type MaybePromise<T> = T | Promise<T>;

/** What a promise of R resolves to. Not Awaited<R>: Fastify's reply is a thenable of its own, and stays a reply. */
type Settled<R> = R extends Promise<infer U> ? U : R;

/** `next` applied to the value: at once when it is there, after it arrives otherwise. */
export function whenReady<T, R>(value: MaybePromise<T>, next: (value: T) => R): R | Promise<Settled<R>> {
  return value instanceof Promise ? (value.then(next) as Promise<Settled<R>>) : next(value);
}
