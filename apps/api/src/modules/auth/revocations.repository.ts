import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** The token stays refused until it would have expired anyway; then its row can go. */
export async function revokeToken(db: Db, jti: string, expiresAt: Date): Promise<void> {
  await db.execute(sql`
    insert into tokens_revogados (jti, expira_em) values (${jti}, ${expiresAt.toISOString()})
    on conflict (jti) do nothing`);
}

export async function purgeExpiredRevocations(db: Db): Promise<void> {
  await db.execute(sql`delete from tokens_revogados where expira_em < now()`);
}
