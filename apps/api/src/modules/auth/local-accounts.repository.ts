import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.ts';
import { ensureLocalAccountUser } from '../users/users.service.ts';
import { hashPassword } from './passwords.ts';

export interface LocalAccount {
  id: string;
  username: string;
  senhaHash: string;
  email: string;
  displayName: string;
  role: 'Admin' | 'User';
  active: boolean;
  department: string | null;
  jobTitle: string | null;
  officeLocation: string | null;
}

export async function findLocalAccount(db: Db, username: string): Promise<LocalAccount | null> {
  const [account] = await rows<LocalAccount>(
    db,
    sql`
    select u.id, c.username, c.senha_hash as "senhaHash", u.email, u.display_name as "displayName", u.role, u.active,
           u.department, u.job_title as "jobTitle", u.office_location as "officeLocation"
    from contas_locais c join usuarios u on u.id = c.usuario_id
    where lower(c.username) = lower(${username})`,
  );
  return account ?? null;
}

export interface LocalAccountInput {
  username: string;
  password: string;
  /** The user the account signs in as; created when missing. */
  user: { id: string; email: string; displayName: string; role: 'Admin' | 'User'; source: string };
}

/** Creates or updates a local account and its user (the bootstrap admin, the demo accounts). */
export async function upsertLocalAccount(db: Db, input: LocalAccountInput): Promise<void> {
  const senhaHash = await hashPassword(input.password);
  const { user } = input;
  await db.transaction(async (tx) => {
    await ensureLocalAccountUser(tx, user);
    await tx.execute(sql`
      insert into contas_locais (usuario_id, username, senha_hash)
      values (${user.id}, ${input.username}, ${senhaHash})
      on conflict (usuario_id) do update
        set username = excluded.username, senha_hash = excluded.senha_hash, data_atualizacao = now()`);
  });
}

/** A person whose access the start may take away, with their local account's username when they have one. */
export interface AccountHolder {
  id: string;
  email: string;
  username: string | null;
}

/**
 * The demo's people still active, or still holding a local account: everyone seeded as demo data, and the demo's
 * people by id, since the demo's directory sync records them as the directory's.
 */
export async function demoAccountHolders(db: Db, demoIds: readonly string[]): Promise<AccountHolder[]> {
  return rows<AccountHolder>(
    db,
    sql`
    select u.id, u.email, c.username
    from usuarios u left join contas_locais c on c.usuario_id = u.id
    where (u.source = 'demo' or u.id = any(${sql.param([...demoIds])}::text[]))
      and (u.active or c.usuario_id is not null)
    order by c.username nulls last, u.id`,
  );
}

/** The active local accounts made from the configuration (PORTAL_ADMIN_USERNAME) other than the one it names now. */
export async function activeLocalAccountsExcept(db: Db, username: string | null): Promise<AccountHolder[]> {
  return rows<AccountHolder>(
    db,
    sql`
    select u.id, u.email, c.username
    from contas_locais c join usuarios u on u.id = c.usuario_id
    where u.source = 'local' and u.active and (${username}::text is null or lower(c.username) <> lower(${username}))
    order by c.username`,
  );
}

/** Removes these people's local accounts, and with them their passwords; answers whose it removed. */
export async function deleteLocalAccounts(db: Db, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const removed = await rows<{ usuario_id: string }>(
    db,
    sql`delete from contas_locais where usuario_id = any(${sql.param([...userIds])}::text[]) returning usuario_id`,
  );
  return removed.map((r) => r.usuario_id);
}
