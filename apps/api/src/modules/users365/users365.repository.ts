import { asc, eq } from 'drizzle-orm';
import type { Usuario365 } from '@paineis/contract/users';
import type { Db } from '../../db/client.ts';
import { usuarios } from '../../db/schema.ts';

/**
 * Names sorted as people read them (pt-BR: 'Álvaro' before 'Bruno', 'bruna' before 'Carlos'), not in the
 * database's byte order, which puts accented and lower-case initials after 'Z'. The query's own order
 * leaves the rows nearly sorted, so this sort stays cheap for tens of thousands of users.
 */
const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });
const byDisplayName = (a: Usuario365, b: Usuario365) =>
  collator.compare(a.displayName, b.displayName) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function activeUsers(db: Db): Promise<Usuario365[]> {
  const rows = await db
    .select({
      id: usuarios.id,
      displayName: usuarios.displayName,
      email: usuarios.email,
      department: usuarios.department,
    })
    .from(usuarios)
    .where(eq(usuarios.active, true))
    .orderBy(asc(usuarios.displayName), asc(usuarios.id));
  return rows.sort(byDisplayName);
}
