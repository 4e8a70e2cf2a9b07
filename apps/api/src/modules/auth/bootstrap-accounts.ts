import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../demo/demo-data.ts';
import { demoDirectory } from '../../demo/demo-directory.ts';
import { recordAudit, SYSTEM_ACTOR } from '../audit/audit.ts';
import { applyConfiguredAdmins, deactivateUsers } from '../users/users.service.ts';
import { configuredRunSince, recordConfiguredRun } from './installation.repository.ts';
import {
  activeLocalAccountsExcept,
  deleteLocalAccounts,
  demoAccountHolders,
  findLocalAccount,
  upsertLocalAccount,
  type AccountHolder,
} from './local-accounts.repository.ts';

type StartLog = Pick<FastifyBaseLogger, 'info' | 'warn'>;

const QUIET: StartLog = { info: () => undefined, warn: () => undefined };

/** Why the start took an account away, or gave it back, as the audit trail and the log say it. */
const ACCOUNT_REASONS = {
  demo: 'conta de demonstração, fora do modo demonstração',
  demoPeople: 'pessoas dos dados de demonstração, fora do modo demonstração',
  unconfigured: 'administrador local fora da configuração (PORTAL_ADMIN_USERNAME)',
  configuredAgain: 'administrador local configurado de novo (PORTAL_ADMIN_USERNAME)',
} as const;

/**
 * The local accounts the configuration asks for, created or brought up to date at every start, and those it no
 * longer asks for taken away (docs/decisions/005-sign-in-and-sessions.md):
 * - the bootstrap admin (PORTAL_ADMIN_USERNAME / PORTAL_ADMIN_PASSWORD); one the configuration no longer names (taken
 *   out or renamed) is deactivated, and comes back when named again;
 * - in demo mode, demo.admin and demo.usuario with the password "demo", unless the database has run outside demo mode;
 * - outside demo mode, the database is marked as having done so, and the demo's people are deactivated, their local
 *   accounts (public passwords) removed.
 * A session is only good while its person is active (sessions.ts), so a deactivation ends the person's sessions on
 * every instance at once. Each change is audited and logged. Returns the accounts created or updated.
 */
export async function ensureLocalAccounts(db: Db, config: Config, log: StartLog = QUIET): Promise<string[]> {
  const done: string[] = [];
  // ADMIN_USERS is configuration too: applied before any sign-in or directory sync looks at roles.
  await applyConfiguredAdmins(db, config.adminUsers);
  if (!config.demoMode) {
    await recordConfiguredRun(db);
    await retireDemoAccounts(db, log);
  } else if (await configuredRunSince(db)) {
    log.warn(
      { accounts: DEMO_ACCOUNTS.map((a) => a.username) },
      'contas de demonstração não criadas: este banco de dados já foi usado fora do modo demonstração',
    );
  } else {
    for (const { username, user } of DEMO_ACCOUNTS) {
      await upsertLocalAccount(db, { username, password: DEMO_PASSWORD, user: { ...user, source: 'demo' } });
      done.push(username);
    }
  }
  if (config.bootstrapAdmin) {
    await ensureBootstrapAdmin(db, config.bootstrapAdmin, log);
    done.push(config.bootstrapAdmin.username);
  }
  await retireUnconfiguredAdmins(db, config.bootstrapAdmin?.username ?? null, log);
  return done;
}

async function ensureBootstrapAdmin(db: Db, admin: NonNullable<Config['bootstrapAdmin']>, log: StartLog) {
  const { username, password, email } = admin;
  const id = `local:${username.toLowerCase()}`;
  const before = await findLocalAccount(db, username);
  // Taken away by an earlier start (no longer configured then), and named again now.
  const comesBack = before?.id === id && !before.active;
  await db.transaction(async (tx) => {
    await upsertLocalAccount(tx, {
      username,
      password,
      user: { id, email, displayName: username, role: 'Admin', source: 'local' },
    });
    if (comesBack) {
      await recordAudit(tx, SYSTEM_ACTOR, {
        objeto: 'sessao',
        acao: 'alteracao',
        objetoId: id,
        objetoNome: username,
        mudancas: [
          { campo: 'ativo', antes: false, depois: true },
          { campo: 'motivo', depois: ACCOUNT_REASONS.configuredAgain },
        ],
      });
    }
  });
  if (comesBack) {
    log.info({ accounts: [username] }, `administrador local reativado pela configuração: ${username}`);
  }
}

/** Local accounts of the configuration that it no longer names: deactivated, so their sessions end. */
async function retireUnconfiguredAdmins(db: Db, configured: string | null, log: StartLog) {
  const retired = await db.transaction(async (tx) => {
    const holders = await activeLocalAccountsExcept(tx, configured);
    const turnedOff = new Set(await deactivateUsers(tx, ids(holders)));
    const gone = holders.filter((h) => turnedOff.has(h.id));
    for (const holder of gone) await auditRetired(tx, holder, ACCOUNT_REASONS.unconfigured, { turnedOff: true });
    return gone.map((h) => h.username!);
  });
  if (retired.length === 0) return;
  log.warn(
    { accounts: retired },
    `${count(retired.length, 'administrador local desativado', 'administradores locais desativados')} por não ${retired.length === 1 ? 'estar' : 'estarem'} mais na configuração (PORTAL_ADMIN_USERNAME): ${retired.join(', ')}; suas sessões deixam de valer`,
  );
}

/**
 * Outside demo mode, the demo's people are deactivated and the demo accounts removed, since their password is public:
 * one audit record per demo account, one for the rest of the demo's people.
 */
async function retireDemoAccounts(db: Db, log: StartLog) {
  // The demo's directory: its accounts' people and everyone else it seeds, whatever its sync recorded them as.
  const demoIds = demoDirectory().map((p) => p.id);
  const retired = await db.transaction(async (tx) => {
    const holders = await demoAccountHolders(tx, demoIds);
    const turnedOff = new Set(await deactivateUsers(tx, ids(holders)));
    // Only the accounts this start removed: another instance starting at the same time records the others.
    const removed = new Set(await deleteLocalAccounts(tx, ids(holders.filter((h) => h.username !== null))));
    const accounts = holders.filter((h) => removed.has(h.id));
    for (const holder of accounts) {
      await auditRetired(tx, holder, ACCOUNT_REASONS.demo, { turnedOff: turnedOff.has(holder.id), removed: true });
    }
    const people = holders.filter((h) => h.username === null && turnedOff.has(h.id)).length;
    if (people > 0) {
      await recordAudit(tx, SYSTEM_ACTOR, {
        objeto: 'sessao',
        acao: 'alteracao',
        objetoNome: 'pessoas de demonstração',
        mudancas: [
          { campo: 'ativo', antes: true, depois: false },
          { campo: 'pessoas', depois: people },
          { campo: 'motivo', depois: ACCOUNT_REASONS.demoPeople },
        ],
      });
    }
    return { accounts: accounts.map((h) => h.username!), people };
  });
  if (retired.accounts.length === 0 && retired.people === 0) return;
  const accounts =
    retired.accounts.length > 0
      ? `${count(retired.accounts.length, 'conta de demonstração desativada', 'contas de demonstração desativadas')} e sem senha (${retired.accounts.join(', ')}), com as sessões encerradas`
      : null;
  const people =
    retired.people > 0
      ? `${count(retired.people, 'pessoa dos dados de demonstração desativada', 'pessoas dos dados de demonstração desativadas')}`
      : null;
  log.warn(
    { accounts: retired.accounts, demoPeople: retired.people },
    `fora do modo demonstração: ${[accounts, people].filter(Boolean).join('; ')}`,
  );
}

/** One account taken away: its active flag, when the start turned it off, and its local account, when removed. */
async function auditRetired(
  db: Db,
  holder: AccountHolder,
  motivo: string,
  { turnedOff, removed = false }: { turnedOff: boolean; removed?: boolean },
) {
  await recordAudit(db, SYSTEM_ACTOR, {
    objeto: 'sessao',
    acao: 'alteracao',
    objetoId: holder.id,
    objetoNome: holder.username,
    mudancas: [
      ...(turnedOff ? [{ campo: 'ativo', antes: true, depois: false }] : []),
      ...(removed ? [{ campo: 'contaLocal', antes: holder.username }] : []),
      { campo: 'motivo', depois: motivo },
    ],
  });
}

const ids = (holders: readonly AccountHolder[]) => holders.map((h) => h.id);

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
