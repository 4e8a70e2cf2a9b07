import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.ts';

/**
 * The installation's own facts (`instalacao`). 'execucao-configurada' marks a database that has served a start outside
 * demo mode: from then on it may hold real people and panels, so demo data, demo accounts and the demo's stand-in
 * sign-in never come back to it (docs/decisions/005-sign-in-and-sessions.md).
 */
const CONFIGURED_RUN = 'execucao-configurada';

/** Kept from the first start outside demo mode on; later starts leave it as it is. */
export async function recordConfiguredRun(db: Db): Promise<void> {
  await db.execute(sql`
    insert into instalacao (chave, valor) values (${CONFIGURED_RUN}, ${new Date().toISOString()})
    on conflict (chave) do nothing`);
}

/** When the database first started outside demo mode, or null if it never did. */
export async function configuredRunSince(db: Db): Promise<Date | null> {
  const [row] = await rows<{ since: Date | string }>(
    db,
    sql`select data_atualizacao as since from instalacao where chave = ${CONFIGURED_RUN}`,
  );
  return row ? new Date(row.since) : null;
}
