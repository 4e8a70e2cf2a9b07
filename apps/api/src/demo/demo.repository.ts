import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client.ts';

/**
 * The demo's own statements (load-demo-data.ts): whether there is anything to load onto, and the lock that makes a
 * second instance starting on the same PostgreSQL wait for the first one's load. What it loads goes through the
 * modules' repositories.
 */

/** Whether the database holds nothing yet: demo data never lands on top of real data. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await rows<{ empty: boolean }>(
    db,
    sql`
    select not exists (select 1 from classificacoes) and not exists (select 1 from paineis)
       and not exists (select 1 from usuarios) as empty`,
  );
  return row?.empty ?? false;
}

/** Inside the loading transaction: instances starting together load one at a time, and the second finds data. */
export async function lockDemoLoad(db: Db): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(7301953)`);
}
