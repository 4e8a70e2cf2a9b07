import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../demo/demo-data.ts';
import { applyConfiguredAdmins } from '../users/users.service.ts';
import { upsertLocalAccount } from './local-accounts.repository.ts';

/**
 * The local accounts the configuration asks for, created or brought up to date at every start: the
 * bootstrap admin (PORTAL_ADMIN_USERNAME / PORTAL_ADMIN_PASSWORD) and, in demo mode, demo.admin and
 * demo.usuario with the password "demo".
 */
export async function ensureLocalAccounts(db: Db, config: Config): Promise<string[]> {
  const done: string[] = [];
  // ADMIN_USERS is configuration too: applied before any sign-in or directory sync looks at roles.
  await applyConfiguredAdmins(db, config.adminUsers);
  if (config.demoMode) {
    for (const { username, user } of DEMO_ACCOUNTS) {
      await upsertLocalAccount(db, { username, password: DEMO_PASSWORD, user: { ...user, source: 'demo' } });
      done.push(username);
    }
  }
  if (config.bootstrapAdmin) {
    const { username, password, email } = config.bootstrapAdmin;
    await upsertLocalAccount(db, {
      username,
      password,
      user: { id: `local:${username.toLowerCase()}`, email, displayName: username, role: 'Admin', source: 'local' },
    });
    done.push(username);
  }
  return done;
}
