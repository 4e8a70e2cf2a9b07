/**
 * A request made as the app starts, before the code of the screen that will want its answer has arrived
 * (app/first-screen.ts), then handed to that screen's first request for the same thing. Free of React and of the
 * query client, so that the entry chunk that makes it stays small.
 */
export interface EarlyAnswer<T> {
  /** Asks now; the screen's first request for the same key takes this answer. */
  prefetch: (key: string, request: () => Promise<T>) => Promise<T>;
  /**
   * The answer asked early for this key, taken once (any other key drops it), or a new request. A failed early
   * request is made again, so that its error is handled as the screen's own (a 401 signs out).
   */
  takeOrAsk: (key: string, request: () => Promise<T>) => Promise<T>;
  /** The answer asked early for this key if it has already arrived: then taken, as by `takeOrAsk`. */
  takeArrived: (key: string) => T | undefined;
}

interface Entry<T> {
  key: string;
  answer: Promise<T>;
  /** Set once the answer has arrived. */
  value?: T;
}

export function earlyAnswer<T>(): EarlyAnswer<T> {
  let early: Entry<T> | null = null;
  return {
    prefetch(key, request) {
      const entry: Entry<T> = { key, answer: request() };
      // Handled by whoever takes it; one nobody takes must not be reported as unhandled.
      entry.answer.then(
        (value) => (entry.value = value),
        () => undefined,
      );
      early = entry;
      return entry.answer;
    },
    takeOrAsk(key, request) {
      const taken = early;
      early = null;
      return taken && taken.key === key ? taken.answer.catch(request) : request();
    },
    takeArrived(key) {
      const value = early?.key === key ? early.value : undefined;
      if (value !== undefined) early = null;
      return value;
    },
  };
}
