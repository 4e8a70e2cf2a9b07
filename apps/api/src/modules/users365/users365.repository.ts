import { asc, eq } from 'drizzle-orm';
import type { Usuario365 } from '@paineis/contract/users';
import type { Db } from '../../db/client.ts';
import { usuarios } from '../../db/schema.ts';
import { VersionedCache } from '../../db/versioned-cache.ts';

/** Active users as people read a list of names: case and accents ignored ('Álvaro', 'bruna', 'Carlos'). */
export async function activeUsers(db: Db): Promise<Usuario365[]> {
  return db
    .select({
      id: usuarios.id,
      displayName: usuarios.displayName,
      email: usuarios.email,
      department: usuarios.department,
    })
    .from(usuarios)
    .where(eq(usuarios.active, true))
    .orderBy(asc(usuarios.nomeOrdenacao), asc(usuarios.id));
}

const directory = new VersionedCache('usuarios', async (db) => JSON.stringify(await activeUsers(db)));

/**
 * The same list, already serialised, with the version of the users table: tens of thousands of users are
 * read and encoded once per change, not once per request, and the version makes a cheap ETag.
 */
export function activeUsersJson(db: Db) {
  return directory.get(db);
}
