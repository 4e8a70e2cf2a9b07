/** Captured when this module loads, before any test fakes the clock. */
const realSetTimeout = globalThis.setTimeout;
const realNow = performance.now.bind(performance);

/**
 * Waits in real time until `check` passes (or throws its last failure after `timeoutMs`): for work that runs outside
 * a fake clock, such as the database's. vi.waitFor would move a fake clock on, and with it the timers under test.
 */
export async function eventually(check: () => unknown, timeoutMs = 10_000): Promise<void> {
  const deadline = realNow() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (realNow() > deadline) throw error;
      await new Promise((resolve) => realSetTimeout(resolve, 10));
    }
  }
}
