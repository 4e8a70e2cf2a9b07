import { MicrosoftError } from '../../integrations/microsoft-error.ts';

/** At most this many calls to Power BI at once in a round: well within its limits, and a round still ends soon. */
export const CONCURRENT_CALLS = 3;

/** Runs `task` over every item, at most `limit` at once. */
export async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** What the log keeps of a failed call to Power BI: its status and code, never a token. */
export function callFailure(error: unknown): Record<string, unknown> {
  if (error instanceof MicrosoftError) {
    return { powerBiStatus: error.status ?? error.failure, powerBiCode: error.code, powerBiRequestId: error.requestId };
  }
  return { err: error };
}
