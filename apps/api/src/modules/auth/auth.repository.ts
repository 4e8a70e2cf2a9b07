import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.ts';

export interface SessionUser {
  id: string;
  email: string;
  /** The directory's user principal name; null for people who never came from Graph. */
  upn: string | null;
  displayName: string;
  role: 'Admin' | 'User';
  active: boolean;
  revoked: boolean;
}

/** One round trip per request: the token's user and whether the token was revoked. */
export async function findSessionUser(db: Db, userId: string, jti: string): Promise<SessionUser | null> {
  const [row] = await rows<{
    id: string;
    email: string;
    upn: string | null;
    display_name: string;
    role: 'Admin' | 'User';
    active: boolean;
    revoked: boolean;
  }>(
    db,
    sql`
    select u.id, u.email, u.upn, u.display_name, u.role, u.active,
           exists (select 1 from tokens_revogados t where t.jti = ${jti}) as revoked
    from usuarios u where u.id = ${userId}`,
  );
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    upn: row.upn,
    displayName: row.display_name,
    role: row.role,
    active: row.active,
    revoked: row.revoked,
  };
}
