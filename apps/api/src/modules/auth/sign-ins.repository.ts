import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ultimosLogins } from '../../db/schema.ts';

/** A person's latest successful sign-in. */
export async function markSignedIn(db: Db, usuarioId: string, at: Date): Promise<void> {
  await db
    .insert(ultimosLogins)
    .values({ usuarioId, momento: at })
    .onConflictDoUpdate({ target: ultimosLogins.usuarioId, set: { momento: at } });
}

/** Many people's latest sign-ins at once; an earlier one than the one stored changes nothing. */
export async function insertLastSignIns(db: Db, signIns: { usuarioId: string; momento: Date }[]): Promise<void> {
  if (signIns.length === 0) return;
  await db.execute(sql`
    insert into ultimos_logins (usuario_id, momento)
    select usuario_id, max(momento)
    from json_to_recordset(${JSON.stringify(
      signIns.map((s) => ({ usuario_id: s.usuarioId, momento: s.momento.toISOString() })),
    )}::json) as s(usuario_id text, momento timestamptz)
    group by usuario_id
    on conflict (usuario_id) do update set momento = greatest(ultimos_logins.momento, excluded.momento)`);
}
