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
