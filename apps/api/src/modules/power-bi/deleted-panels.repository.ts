import type { Db } from '../../db/client.ts';
import { PG_FOREIGN_KEY_VIOLATION, pgErrorCode } from '../../db/pg-errors.ts';

/**
 * Runs `write` in a savepoint of `tx`: when the foreign key refuses it (its panel was deleted while a round read
 * Power BI), that write alone is undone and left out, and the transaction goes on.
 */
export async function skippingDeletedPanel(tx: Db, write: (savepoint: Db) => Promise<void>): Promise<void> {
  try {
    await tx.transaction(async (savepoint) => write(savepoint as unknown as Db));
  } catch (error) {
    if (pgErrorCode(error) !== PG_FOREIGN_KEY_VIOLATION) throw error;
  }
}
