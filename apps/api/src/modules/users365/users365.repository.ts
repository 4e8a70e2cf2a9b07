import { asc, eq } from 'drizzle-orm';
import type { Usuario365 } from '@paineis/contract/users';
import type { Db } from '../../db/client.ts';
import { usuarios } from '../../db/schema.ts';

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
    .orderBy(asc(usuarios.displayName), asc(usuarios.id));
}
