import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.ts';

const WINDOW = sql`interval '1 minute'`;

export const userKey = (username: string) => `usuario:${username.trim().toLowerCase()}`;
export const addressKey = (ip: string) => `ip:${ip}`;

/** Failures in the last minute per key. Kept in the database so that every API instance counts them all. */
export async function recentFailures(db: Db, keys: string[]): Promise<Map<string, number>> {
  const found = await rows<{ chave: string; n: number }>(
    db,
    sql`
    select chave, count(*)::int as n from tentativas_login
    where chave = any(${sql.param(keys)}::text[]) and momento > now() - ${WINDOW}
    group by chave`,
  );
  return new Map(found.map((r) => [r.chave, r.n]));
}

export async function recordFailure(db: Db, keys: string[]): Promise<void> {
  await db.execute(sql`insert into tentativas_login (chave) select unnest(${sql.param(keys)}::text[])`);
}

export async function purgeOldAttempts(db: Db): Promise<void> {
  await db.execute(sql`delete from tentativas_login where momento < now() - interval '1 hour'`);
}
