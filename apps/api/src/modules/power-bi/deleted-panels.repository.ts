import type { Db } from '../../db/client.ts';
import { PG_FOREIGN_KEY_VIOLATION, pgErrorCode } from '../../db/pg-errors.ts';

/**
 * Writes a round's rows with `write` inside `tx`: all in one statement, and, when the foreign key refuses it (a panel
 * deleted while the round read Power BI), one at a time, each in a savepoint of its own, so that those of the panels
 * no longer there are left out and the transaction goes on.
 */
export async function writeSkippingDeletedPanels<T>(
  tx: Db,
  rows: T[],
  write: (db: Db, rows: T[]) => Promise<void>,
): Promise<void> {
  if (rows.length === 0) return;
  if (await refusedByForeignKey(tx, (savepoint) => write(savepoint, rows))) {
    for (const row of rows) await refusedByForeignKey(tx, (savepoint) => write(savepoint, [row]));
  }
}

/** Runs `write` in a savepoint of `tx`: true when the foreign key refused it (and it alone was undone). */
async function refusedByForeignKey(tx: Db, write: (savepoint: Db) => Promise<void>): Promise<boolean> {
  try {
    await tx.transaction(async (savepoint) => write(savepoint as unknown as Db));
    return false;
  } catch (error) {
    if (pgErrorCode(error) !== PG_FOREIGN_KEY_VIOLATION) throw error;
    return true;
  }
}
