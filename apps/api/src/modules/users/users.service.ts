import type { Db } from '../../db/client.ts';
import type { EntraIdentity } from '../../integrations/microsoft-identity/entra-client.ts';
import {
  insertUsers,
  markConfiguredAdmins,
  upsertLocalAccountUser,
  upsertSignedInUser,
  type NewUser,
  type Role,
  type StoredUser,
} from './users.repository.ts';

/**
 * What other modules may ask of the users module. Its repository stays private: every write to `usuarios`
 * goes through here or through the module's own directory sync.
 */

export type { NewUser, Role, StoredUser };

/**
 * Records a Microsoft sign-in. The person is Admin when Entra gives them the app role `Admin` or their
 * e-mail is in ADMIN_EMAILS; an Admin role Entra granted is withdrawn when the token no longer carries it.
 */
export function recordMicrosoftSignIn(db: Db, identity: EntraIdentity, adminEmails: string[]): Promise<StoredUser> {
  return upsertSignedInUser(db, {
    id: identity.oid,
    email: identity.email,
    displayName: identity.displayName,
    department: identity.department,
    jobTitle: identity.jobTitle,
    officeLocation: identity.officeLocation,
    entraAdmin: identity.appRoles.includes('Admin'),
    configAdmin: adminEmails.includes(identity.email),
  });
}

/** The user behind a local account, inside that account's transaction. */
export const ensureLocalAccountUser = upsertLocalAccountUser;

/** Seeds people who are not there yet (demo data, tests, the benchmark). */
export const seedUsers = (db: Db, users: NewUser[], source: string) => insertUsers(db, users, source);

/** At start: the people ADMIN_EMAILS names are Admins, before any sign-in or directory sync looks at roles. */
export const applyConfiguredAdmins = (db: Db, adminEmails: string[]) => markConfiguredAdmins(db, adminEmails);
