import { asc, eq, sql } from 'drizzle-orm';
import type { Usuario365 } from '@paineis/contract/users';
import { rows, type Database, type Db } from '../../db/client.ts';
import { usuarios } from '../../db/schema.ts';
import { VersionedCache } from '../../db/versioned-cache.ts';

/**
 * The one place that writes the `usuarios` table. People arrive from four sources: a Microsoft sign-in, the
 * directory sync, a local account (the bootstrap admin, the demo accounts), and seeded data (demo, tests,
 * benchmark). Each has its own rule for what it may overwrite, written here side by side.
 */

export type Role = 'Admin' | 'User';

export interface NewUser {
  id: string;
  email: string;
  displayName: string;
  department: string | null;
  jobTitle: string | null;
  officeLocation: string | null;
  role: Role;
}

/** What a Microsoft sign-in knows of a person, from the validated ID token. */
export interface SignedInPerson {
  id: string;
  email: string;
  displayName: string;
  department: string | null;
  jobTitle: string | null;
  officeLocation: string | null;
  /** Signing in never demotes: Admin is granted here, never withdrawn. */
  grantAdmin: boolean;
}

/** One person of the directory, as the sync writes them. */
export interface DirectoryPerson {
  id: string;
  email: string;
  displayName: string;
  department: string | null;
}

export interface StoredUser {
  id: string;
  email: string;
  displayName: string;
  role: Role;
}

/** Inserts new users in one statement per batch (unnest keeps the parameter count small). */
export async function insertUsers(db: Db, users: NewUser[], source: string): Promise<void> {
  for (let i = 0; i < users.length; i += 5000) {
    const batch = users.slice(i, i + 5000);
    const col = <K extends keyof NewUser>(k: K) => sql.param(batch.map((u) => u[k]));
    await db.execute(sql`
      insert into usuarios (id, email, display_name, department, job_title, office_location, role, source)
      select *, ${source} from unnest(
        ${col('id')}::text[], ${col('email')}::text[], ${col('displayName')}::text[], ${col('department')}::text[],
        ${col('jobTitle')}::text[], ${col('officeLocation')}::text[], ${col('role')}::text[])`);
  }
}

/**
 * Creates or refreshes the person who just signed in with Microsoft. Profile fields the token lacks keep
 * what the directory gave; the person becomes active again.
 */
export async function upsertSignedInUser(db: Db, person: SignedInPerson): Promise<StoredUser> {
  const [user] = await rows<{ id: string; email: string; display_name: string; role: Role }>(
    db,
    sql`
    insert into usuarios (id, email, display_name, department, job_title, office_location, role, source, active)
    values (${person.id}, ${person.email}, ${person.displayName}, ${person.department},
            ${person.jobTitle}, ${person.officeLocation}, ${person.grantAdmin ? 'Admin' : 'User'}, 'entra', true)
    on conflict (id) do update set
      email = excluded.email, display_name = excluded.display_name,
      department = coalesce(excluded.department, usuarios.department),
      job_title = coalesce(excluded.job_title, usuarios.job_title),
      office_location = coalesce(excluded.office_location, usuarios.office_location),
      role = case when excluded.role = 'Admin' then 'Admin' else usuarios.role end,
      active = true, data_atualizacao = now()
    returning id, email, display_name, role`,
  );
  return { id: user!.id, email: user!.email, displayName: user!.display_name, role: user!.role };
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
    insert into usuarios (id, email, display_name, role, source)
    values (${user.id}, ${user.email}, ${user.displayName}, ${user.role}, ${user.source})
    on conflict (id) do update set role = excluded.role, active = true, data_atualizacao = now()`);
}

/**
 * Makes the directory's people the active Microsoft users, in one transaction: everyone listed is inserted
 * or updated (only when something changed), and Microsoft users no longer listed are marked inactive, never
 * deleted, so their links come back if they do. Answers how many were deactivated.
 */
export async function replaceDirectory(database: Database, people: DirectoryPerson[]): Promise<number> {
  const ids = people.map((r) => r.id);
  return database.db.transaction(async (tx) => {
    // Instances of the API on one PostgreSQL take turns.
    if (database.kind === 'postgres') await tx.execute(sql`select pg_advisory_xact_lock(7301954)`);
    for (let i = 0; i < people.length; i += 5000) {
      const batch = people.slice(i, i + 5000);
      const col = <K extends keyof DirectoryPerson>(k: K) => sql.param(batch.map((r) => r[k]));
      await tx.execute(sql`
        insert into usuarios (id, email, display_name, department, source, active)
        select id, email, display_name, department, 'entra', true
        from unnest(${col('id')}::text[], ${col('email')}::text[], ${col('displayName')}::text[],
                    ${col('department')}::text[]) as t(id, email, display_name, department)
        on conflict (id) do update set
          email = excluded.email, display_name = excluded.display_name, department = excluded.department,
          source = 'entra', active = true, data_atualizacao = now()
        where (usuarios.email, usuarios.display_name, usuarios.department, usuarios.source, usuarios.active)
          is distinct from (excluded.email, excluded.display_name, excluded.department, 'entra', true)`);
    }
    const gone = await tx.execute(sql`
      update usuarios set active = false, data_atualizacao = now()
      where source = 'entra' and active and not (id = any(${sql.param(ids)}::text[]))
      returning id`);
    return (gone as { rows: unknown[] }).rows.length;
  });
}

/** Turns a person's access on or off without touching anything else (their links stay). */
export async function setUserActive(db: Db, id: string, active: boolean): Promise<void> {
  await db
    .update(usuarios)
    .set({ active, dataAtualizacao: sql`now()` })
    .where(eq(usuarios.id, id));
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

const directory = new VersionedCache('usuarios', async (db) => JSON.stringify(await activeUsers(db)));

/**
 * The same list, already serialised, with the version of the users table: tens of thousands of users are
 * read and encoded once per change, not once per request, and the version makes a cheap ETag.
 */
export function activeUsersJson(db: Db) {
  return directory.get(db);
}
