import type { StandInPerson } from '@paineis/microsoft-stand-ins/types';
import type { Db } from '../src/db/client.ts';
import { seedUsers } from '../src/modules/users/users.service.ts';

/**
 * Stores the stand-in directory's people as portal users, as the directory sync would (members, role 'User'), so that
 * a server started on this database keeps them at its own sync. Shared by the subscription durability test and bench.
 */
export async function seedDirectoryPeople(db: Db, people: StandInPerson[], origin: 'test' | 'bench'): Promise<void> {
  await seedUsers(
    db,
    people.map((p) => ({
      id: p.id,
      email: p.mail!,
      displayName: p.displayName,
      department: null,
      jobTitle: null,
      officeLocation: null,
      role: 'User' as const,
      upn: p.userPrincipalName,
      tipo: 'Member' as const,
    })),
    origin,
  );
}
