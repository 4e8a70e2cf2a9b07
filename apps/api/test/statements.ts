import { vi } from 'vitest';
import type { Db } from '../src/db/client.ts';

/**
 * Counts every statement either engine's driver is asked to run (drizzle's client: PGlite, or node-postgres's pool),
 * for tests that prove a read makes no database round trip.
 */
export function spyOnStatements(db: Db) {
  const client = (db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  const spies = ['query', 'exec', 'transaction', 'connect']
    .filter((name) => typeof client[name] === 'function')
    .map((name) => vi.spyOn(client, name as never));
  return {
    count: () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}
