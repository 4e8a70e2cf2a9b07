import { asc, eq, sql } from 'drizzle-orm';
import type { Usuario365 } from '@paineis/contract/users';
import { rows, type Database, type Db } from '../../db/client.ts';
import { usuarios } from '../../db/schema.ts';
import { VersionedCache } from '../../db/versioned-cache.ts';
import { guidKey } from '../../lib/guid.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';

/**
 * The one place that writes the `usuarios` table. People arrive from four sources: a Microsoft sign-in, the
 * directory sync, a local account (the bootstrap admin, the demo accounts), and seeded data (demo, tests,
 * benchmark). Each has its own rule for what it may overwrite, written here side by side.
 */

export type Role = 'Admin' | 'User';
/** Graph's userType. */
export type DirectoryType = 'Member' | 'Guest';

export interface NewUser {
  id: string;
  email: string;
  displayName: string;
  department: string | null;
  jobTitle: string | null;
  officeLocation: string | null;
  role: Role;
  /** The directory's identity, for seeded people who have one (demo data, tests); null otherwise. */
  upn?: string | null;
  tipo?: DirectoryType | null;
}

/**
 * One person as the directory (Graph) describes them, as the sync and a Microsoft sign-in write them
 * (docs/decisions/013-identity-from-the-directory.md): `email` is Graph's mail, else the UPN, lower-cased.
 */
export interface DirectoryPerson {
  id: string;
  email: string;
  upn: string | null;
  tipo: DirectoryType | null;
  displayName: string;
  department: string | null;
  jobTitle: string | null;
  officeLocation: string | null;
}

/** A person signing in with Microsoft: the directory's data, and where an Admin role would come from. */
export interface SignedInPerson extends DirectoryPerson {
  /** The ID token carries the Entra app role `Admin`. */
  entraAdmin: boolean;
  /** ADMIN_USERS names them (isConfiguredAdmin). */
  configAdmin: boolean;
}

export interface StoredUser {
  id: string;
  email: string;
  displayName: string;
  role: Role;
  department: string | null;
  jobTitle: string | null;
  officeLocation: string | null;
}

/** Inserts new users in one statement per batch (unnest keeps the parameter count small). */
export async function insertUsers(db: Db, users: NewUser[], source: string): Promise<void> {
  for (let i = 0; i < users.length; i += 5000) {
    const batch = users.slice(i, i + 5000);
    const col = <K extends keyof NewUser>(k: K) => sql.param(batch.map((u) => u[k] ?? null));
    await db.execute(sql`
      insert into usuarios (id, email, display_name, department, job_title, office_location, role, upn, tipo, source)
      select *, ${source} from unnest(
        ${col('id')}::text[], ${col('email')}::text[], ${col('displayName')}::text[], ${col('department')}::text[],
        ${col('jobTitle')}::text[], ${col('officeLocation')}::text[], ${col('role')}::text[], ${col('upn')}::text[],
        ${col('tipo')}::text[])`);
  }
}

/** The person as the last sync or sign-in stored them, for a sign-in while Graph cannot answer. */
export async function storedDirectoryPerson(db: Db, id: string): Promise<DirectoryPerson | null> {
  const [row] = await rows<{
    id: string;
    email: string;
    upn: string | null;
    tipo: DirectoryType | null;
    display_name: string;
    department: string | null;
    job_title: string | null;
    office_location: string | null;
  }>(
    db,
    sql`select id, email, upn, tipo, display_name, department, job_title, office_location from usuarios
        where id = ${id}`,
  );
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    upn: row.upn,
    tipo: row.tipo,
    displayName: row.display_name,
    department: row.department,
    jobTitle: row.job_title,
    officeLocation: row.office_location,
  };
}

/**
 * Creates or refreshes the person who just signed in with Microsoft, from the directory's data, and makes them
 * active again. The Admin role follows its source: granted by ADMIN_USERS ('config') or by the Entra app role
 * ('entra'); one Entra granted is withdrawn when the token no longer carries it; one from the configuration or
 * from elsewhere is left as it is.
 */
export async function upsertSignedInUser(db: Db, person: SignedInPerson): Promise<StoredUser> {
  const { entraAdmin, configAdmin } = person;
  const [user] = await rows<StoredUser>(
    db,
    sql`
    insert into usuarios (id, email, upn, tipo, display_name, department, job_title, office_location, role,
                          role_source, source, active)
    values (${person.id}, ${person.email}, ${person.upn}, ${person.tipo}, ${person.displayName}, ${person.department},
            ${person.jobTitle}, ${person.officeLocation}, ${configAdmin || entraAdmin ? 'Admin' : 'User'},
            ${configAdmin ? 'config' : entraAdmin ? 'entra' : null}, 'entra', true)
    on conflict (id) do update set
      email = excluded.email, upn = excluded.upn, tipo = excluded.tipo, display_name = excluded.display_name,
      department = excluded.department, job_title = excluded.job_title, office_location = excluded.office_location,
      role = case
        when ${configAdmin || entraAdmin} then 'Admin'
        when usuarios.role_source = 'entra' then 'User'
        else usuarios.role end,
      role_source = case
        when ${configAdmin} or usuarios.role_source = 'config' then 'config'
        when ${entraAdmin} then 'entra'
        when usuarios.role_source = 'entra' then null
        else usuarios.role_source end,
      active = true, data_atualizacao = now()
    returning id, email, display_name as "displayName", role, department, job_title as "jobTitle",
      office_location as "officeLocation"`,
  );
  return user!;
}

/**
 * Whether ADMIN_USERS (lower-cased) names this person: by object id, or by UPN for a member of the tenant, never a
 * guest (whose UPN is derived from an address of another tenant). markConfiguredAdmins applies the same rule in SQL.
 */
export function isConfiguredAdmin(
  adminUsers: readonly string[],
  person: Pick<DirectoryPerson, 'id' | 'upn' | 'tipo'>,
): boolean {
  return (
    adminUsers.includes(guidKey(person.id)) ||
    (person.tipo === 'Member' && person.upn !== null && adminUsers.includes(person.upn.toLowerCase()))
  );
}

/** ADMIN_USERS is configuration: those people are Admins, whatever Entra says, from the start on. */
export async function markConfiguredAdmins(db: Db, adminUsers: readonly string[]): Promise<void> {
  if (adminUsers.length === 0) return;
  const named = sql.param(adminUsers.map((e) => e.toLowerCase()));
  await db.execute(sql`
    update usuarios set role = 'Admin', role_source = 'config', data_atualizacao = now()
    where (lower(id) = any(${named}::text[]) or (tipo = 'Member' and lower(upn) = any(${named}::text[])))
      and (role <> 'Admin' or role_source is distinct from 'config')`);
}

/**
 * The user a local account signs in as: created when missing, otherwise given the configured role and made
 * active (the configuration is the source of truth for these accounts). Call inside the account's transaction.
 */
export async function upsertLocalAccountUser(
  db: Db,
  user: { id: string; email: string; displayName: string; role: Role; source: string },
): Promise<void> {
  await db.execute(sql`
    insert into usuarios (id, email, display_name, role, role_source, source)
    values (${user.id}, ${user.email}, ${user.displayName}, ${user.role}, ${user.role === 'Admin' ? 'config' : null},
            ${user.source})
    on conflict (id) do update set
      role = excluded.role, role_source = excluded.role_source, active = true, data_atualizacao = now()`);
}

export interface DirectoryChanges {
  desativados: number;
  /** People made Admin, and people whose Entra-granted Admin role was withdrawn; null when roles were not read. */
  admins: { granted: number; withdrawn: number } | null;
}

/**
 * Makes the directory's people the active Microsoft users, in one transaction: everyone listed is inserted
 * or updated (only when something changed), and Microsoft users no longer listed are marked inactive, never
 * deleted, so their links come back if they do. When `admins` (the holders of the Entra app role `Admin`)
 * is given, the Admin role follows it: granted to them, withdrawn from those Entra had made Admin before;
 * roles from the configuration (ADMIN_USERS, local accounts) are never touched.
 */
export async function replaceDirectory(
  database: Database,
  people: DirectoryPerson[],
  admins: ReadonlySet<string> | null,
): Promise<DirectoryChanges> {
  const ids = people.map((r) => r.id);
  return database.db.transaction(async (tx) => {
    for (let i = 0; i < people.length; i += 5000) {
      const batch = people.slice(i, i + 5000);
      const col = <K extends keyof DirectoryPerson>(k: K) => sql.param(batch.map((r) => r[k]));
      await tx.execute(sql`
        insert into usuarios (id, email, upn, tipo, display_name, department, job_title, office_location, source,
                              active)
        select id, email, upn, tipo, display_name, department, job_title, office_location, 'entra', true
        from unnest(${col('id')}::text[], ${col('email')}::text[], ${col('upn')}::text[], ${col('tipo')}::text[],
                    ${col('displayName')}::text[], ${col('department')}::text[], ${col('jobTitle')}::text[],
                    ${col('officeLocation')}::text[])
          as t(id, email, upn, tipo, display_name, department, job_title, office_location)
        on conflict (id) do update set
          email = excluded.email, upn = excluded.upn, tipo = excluded.tipo, display_name = excluded.display_name,
          department = excluded.department, job_title = excluded.job_title,
          office_location = excluded.office_location, source = 'entra', active = true, data_atualizacao = now()
        where (usuarios.email, usuarios.upn, usuarios.tipo, usuarios.display_name, usuarios.department,
               usuarios.job_title, usuarios.office_location, usuarios.source, usuarios.active)
          is distinct from (excluded.email, excluded.upn, excluded.tipo, excluded.display_name, excluded.department,
                            excluded.job_title, excluded.office_location, 'entra', true)`);
    }
    const gone = await tx.execute(sql`
      update usuarios set active = false, data_atualizacao = now()
      where source = 'entra' and active and not (id = any(${sql.param(ids)}::text[]))
      returning id`);
    const desativados = (gone as { rows: unknown[] }).rows.length;
    if (!admins) return { desativados, admins: null };
    const holders = sql.param([...admins]);
    const withdrawn = await tx.execute(sql`
      update usuarios set role = 'User', role_source = null, data_atualizacao = now()
      where role_source = 'entra' and not (id = any(${holders}::text[]))
      returning id`);
    const granted = await tx.execute(sql`
      update usuarios set role = 'Admin', role_source = 'entra', data_atualizacao = now()
      where id = any(${holders}::text[]) and role_source is distinct from 'config'
        and (role <> 'Admin' or role_source is null)
      returning id`);
    return {
      desativados,
      admins: {
        granted: (granted as { rows: unknown[] }).rows.length,
        withdrawn: (withdrawn as { rows: unknown[] }).rows.length,
      },
    };
  });
}

/** Turns a person's access on or off without touching anything else (their links stay). */
export async function setUserActive(db: Db, id: string, active: boolean): Promise<void> {
  await db
    .update(usuarios)
    .set({ active, dataAtualizacao: sql`now()` })
    .where(eq(usuarios.id, id));
}

/**
 * Turns off these people's access (their links stay) and answers those who had it: at start, the local accounts the
 * configuration no longer names and the demo's people outside demo mode (auth/bootstrap-accounts.ts).
 */
export async function deactivateUsers(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const turnedOff = await rows<{ id: string }>(
    db,
    sql`
    update usuarios set active = false, data_atualizacao = now()
    where id = any(${sql.param([...ids])}::text[]) and active
    returning id`,
  );
  return turnedOff.map((r) => r.id);
}

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

const directory = new VersionedCache(['usuarios'], async (db) => new PreparedJson(await activeUsers(db)));

/** A person as the explanations of access need them (modules/access). */
export interface DirectoryEntry {
  id: string;
  nome: string;
  email: string;
  upn: string | null;
  administrador: boolean;
  ativo: boolean;
}

/** Everyone the portal holds, by id, loaded once per change of the users table. */
const everyone = new VersionedCache(['usuarios'], async (db): Promise<ReadonlyMap<string, DirectoryEntry>> => {
  const found = await db
    .select({
      id: usuarios.id,
      nome: usuarios.displayName,
      email: usuarios.email,
      upn: usuarios.upn,
      role: usuarios.role,
      ativo: usuarios.active,
    })
    .from(usuarios);
  return new Map(found.map(({ role, ...p }) => [p.id, { ...p, administrador: role === 'Admin' }]));
});

export const directoryEntries = (db: Db) => everyone.get(db);

/**
 * The same list, already serialised and hashed: tens of thousands of users are read, encoded and compressed
 * once per change of the users table, not once per request.
 */
export function activeUsersJson(db: Db) {
  return directory.get(db);
}
