import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { GraphClient, GraphUser } from '../../integrations/microsoft-graph/graph-client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import type { EntraIdentity } from '../../integrations/microsoft-identity/entra-client.ts';
import { toDirectoryPerson } from './directory-sync.ts';
import {
  insertUsers,
  isConfiguredAdmin,
  markConfiguredAdmins,
  storedDirectoryPerson,
  upsertLocalAccountUser,
  upsertSignedInUser,
  type DirectoryPerson,
  type NewUser,
  type Role,
  type StoredUser,
} from './users.repository.ts';

/**
 * What other modules may ask of the users module. Its repository stays private: every write to `usuarios`
 * goes through here or through the module's own directory sync.
 */

export type { NewUser, Role, StoredUser };

/** Everyone the portal holds, by id: name, e-mail, UPN, whether admin and whether active. From memory. */
export { directoryEntries, type DirectoryEntry } from './users.repository.ts';

/** Who belongs to which Entra group, at any depth, from memory (group-membership.ts). */
export {
  groupMembership,
  groupsOfPerson,
  groupsOfPersonNow,
  publicGroups,
  publicGroupsNow,
  type DirectoryGroup,
} from './group-membership.ts';
/** Demo data: groups written before the first sync (demo/load-demo-data.ts). */
export { seedGroups, type StoredGroup, type StoredMembership } from './groups.repository.ts';
/** Public Microsoft 365 groups: anyone may join them (docs/decisions/018-access-by-group.md, "Public groups"). */
export { PUBLIC_VISIBILITY } from './groups.repository.ts';

/** Why a Microsoft sign-in was refused after Entra ID's answer was accepted (the audit trail's reason). */
export const SIGN_IN_REFUSALS = {
  disabled: 'conta desativada no diretório',
  directoryUnavailable: 'diretório indisponível e pessoa ainda não sincronizada',
  notInDirectory: 'pessoa não encontrada no diretório',
} as const;

export type MicrosoftSignIn = { user: StoredUser } | { refused: string };

/**
 * Records a Microsoft sign-in (docs/decisions/013-identity-from-the-directory.md). The person is the ID token's
 * `oid`; what the portal keeps of them is read from Graph at once, or, when Graph cannot answer, taken from the
 * row the last sync or sign-in stored (refused when there is none). An account Graph says is disabled is refused.
 * The person is Admin when Entra gives them the app role `Admin` or ADMIN_USERS names them; an Admin role Entra
 * granted is withdrawn when the token no longer carries it.
 */
export async function recordMicrosoftSignIn(
  db: Db,
  graph: GraphClient,
  identity: EntraIdentity,
  adminUsers: readonly string[],
  log: FastifyBaseLogger,
): Promise<MicrosoftSignIn> {
  const signIn = async (person: DirectoryPerson): Promise<MicrosoftSignIn> => ({
    user: await upsertSignedInUser(db, {
      ...person,
      entraAdmin: identity.appRoles.includes('Admin'),
      configAdmin: isConfiguredAdmin(adminUsers, person),
    }),
  });
  let read: GraphUser | null | 'unavailable';
  try {
    read = await graph.getUser(identity.oid);
  } catch (error) {
    const failed = error instanceof MicrosoftError ? error : null;
    log.warn(
      { err: error, userId: identity.oid, graphStatus: failed?.status, graphCode: failed?.code },
      'Microsoft Graph não respondeu no login',
    );
    read = 'unavailable';
  }
  if (read !== 'unavailable' && read?.accountEnabled === false) return { refused: SIGN_IN_REFUSALS.disabled };
  const fresh = read !== 'unavailable' && read !== null ? toDirectoryPerson(read) : null;
  if (fresh) return signIn(fresh);
  // Graph could not say who this is (down, or not yet aware of a new account): the person as last stored.
  const stored = await storedDirectoryPerson(db, identity.oid);
  if (!stored) {
    return {
      refused: read === 'unavailable' ? SIGN_IN_REFUSALS.directoryUnavailable : SIGN_IN_REFUSALS.notInDirectory,
    };
  }
  log.warn({ userId: identity.oid }, 'login Microsoft com os dados do diretório já guardados (Graph não os deu)');
  return signIn(stored);
}

/** The user behind a local account, inside that account's transaction. */
export const ensureLocalAccountUser = upsertLocalAccountUser;

/** Seeds people who are not there yet (demo data, tests, the benchmark). */
export const seedUsers = (db: Db, users: NewUser[], source: string) => insertUsers(db, users, source);

/** At start: people whose local account the configuration dropped, and the demo's people outside demo mode. */
export { deactivateUsers } from './users.repository.ts';

/** At start: the people ADMIN_USERS names are Admins, before any sign-in or directory sync looks at roles. */
export const applyConfiguredAdmins = (db: Db, adminUsers: readonly string[]) => markConfiguredAdmins(db, adminUsers);
