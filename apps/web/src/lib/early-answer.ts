/**
 * A request made as the app starts, before the code of the screen that will want its answer has arrived
 * (app/first-screen.ts), then handed to that screen's first request for the same thing. Free of React and of the
 * query client, so that the entry chunk that makes it stays small.
 */
export interface EarlyAnswer<T> {
  /** Asks now; the screen's first request for the same key takes this answer. */
  prefetch: (key: string) => Promise<T>;
  /** The answer asked early for this key, arrived or not: taken once; any other key drops it. */
  take: (key: string) => Promise<T> | null;
  /** The answer asked early for this key if it has already arrived: then taken, as by `take`. */
  takeArrived: (key: string) => T | undefined;
}

interface Entry<T> {
  key: string;
  answer: Promise<T>;
  /** Set once the answer has arrived. */
  value?: T;
}

export function earlyAnswer<T>(request: (key: string) => Promise<T>): EarlyAnswer<T> {
  let early: Entry<T> | null = null;
  return {
    prefetch(key) {
      const entry: Entry<T> = { key, answer: request(key) };
      // Handled by whoever takes it; one nobody takes must not be reported as unhandled.
      entry.answer.then(
        (value) => (entry.value = value),
        () => undefined,
      );
      early = entry;
      return entry.answer;
    },
    take(key) {
      const taken = early;
      early = null;
      return taken && taken.key === key ? taken.answer : null;
    },
    takeArrived(key) {
      const value = early?.key === key ? early.value : undefined;
      if (value !== undefined) early = null;
      return value;
    },
  };
}
