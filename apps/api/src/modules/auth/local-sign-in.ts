import type { LoginResponse } from '@paineis/contract/auth';
import type { Config, LoginLimits } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { throttled, unauthenticated, type DomainFailure } from '../../lib/domain-failure.ts';
import { recordRefusedSignIn, type AuditActor } from '../audit/audit.ts';
import { signedIn } from './sign-ins.ts';
import { forgetAttempt, otherAttempts, recordAttempt, type Attempt } from './login-attempts.repository.ts';
import { findLocalAccount } from './local-accounts.repository.ts';
import { verifyPassword } from './passwords.ts';
import { signSessionToken } from './tokens.ts';

export const LOGIN_INVALID = 'Usuário ou senha inválidos.';
export const loginThrottled = (seconds: number) =>
  `Muitas tentativas de login. Aguarde ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'} e tente novamente.`;

/** How a slowed attempt waits: on a timer, holding no database connection and no CPU. Tests replace it. */
export const loginDelay = {
  wait: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/** The first wait once a username is past its slow-down threshold; each further failure doubles it. */
export const FIRST_DELAY_MS = 250;

/** The wait before checking a password, given the failures for its username from every address. */
export function delayFor(limits: LoginLimits, usernameFailures: number): number {
  if (usernameFailures < limits.slowAfterPerUser) return 0;
  return Math.min(limits.maxDelayMs, FIRST_DELAY_MS * 2 ** (usernameFailures - limits.slowAfterPerUser));
}

/** Attempts waiting on this instance, per app (its database) and username. */
const waiting = new WeakMap<Db, Map<string, number>>();

/**
 * A sign-in with a local account's username and password, audited: the sign-in, or who tried (the username as
 * typed: there may be no such account) and why it was refused. Failures are counted in the database, so every
 * instance sees them all:
 * - per (username, address) and per address: over either limit, refused as throttled with the seconds to wait,
 *   before any password is checked. Someone guessing elsewhere cannot reach the owner's own (username, address).
 * - per username from every address: past its threshold an attempt waits (250 ms, doubling, capped) before its
 *   password is checked, unless its address has no failure in the window. That slows a guesser spread over
 *   many addresses and never the owner at a clean address; the wait is a timer, and past a few waiting
 *   attempts for one username the next one is refused as throttled instead of given a place in the queue.
 */
export async function signInLocally(
  db: Db,
  config: Config,
  credentials: { username: string; password: string },
  ip: string,
): Promise<LoginResponse> {
  const limits = config.loginLimits;
  const attempt = await recordAttempt(db, credentials.username, ip);
  const others = await otherAttempts(db, attempt, limits);
  const who = { usuarioId: null, usuario: credentials.username, endereco: ip };
  if (others.pairFreeIn !== null || others.addressFreeIn !== null) {
    const seconds = Math.max(others.pairFreeIn ?? 0, others.addressFreeIn ?? 0);
    throw await refusal(db, attempt, seconds, who);
  }
  const delay = others.address > 0 ? delayFor(limits, others.username) : 0;
  if (delay > 0) await waitTurn(db, attempt, delay, limits.maxDelayedPerUser, who);

  const account = await findLocalAccount(db, credentials.username);
  const ok = await verifyPassword(account?.senhaHash ?? null, credentials.password);
  if (!account || !ok || !account.active) {
    await recordRefusedSignIn(db, who, 'Conta local', 'login_recusado', LOGIN_INVALID);
    throw unauthenticated(LOGIN_INVALID); // the attempt stays counted
  }
  await forgetAttempt(db, attempt);
  const { token } = await signSessionToken(config.jwt, { ...account, username: account.username });
  await signedIn(db, { usuarioId: account.id, usuario: account.email, endereco: ip }, 'Conta local');
  return {
    token,
    user: {
      id: account.id,
      username: account.username,
      displayName: account.displayName,
      email: account.email,
      role: account.role,
    },
  };
}

/** The refusal of an attempt before its password was checked, which is therefore not a failure; audited. */
async function refusal(db: Db, attempt: Attempt, seconds: number, who: AuditActor): Promise<DomainFailure> {
  await forgetAttempt(db, attempt);
  const whole = Math.max(1, Math.ceil(seconds));
  await recordRefusedSignIn(db, who, 'Conta local', 'limitado', loginThrottled(whole));
  return throttled(loginThrottled(whole), whole);
}

async function waitTurn(db: Db, attempt: Attempt, delay: number, maxWaiting: number, who: AuditActor): Promise<void> {
  const perUsername = waiting.get(db) ?? new Map<string, number>();
  waiting.set(db, perUsername);
  const now = perUsername.get(attempt.username) ?? 0;
  if (now >= maxWaiting) throw await refusal(db, attempt, delay / 1000, who);
  perUsername.set(attempt.username, now + 1);
  try {
    await loginDelay.wait(delay);
  } finally {
    const left = (perUsername.get(attempt.username) ?? 1) - 1;
    if (left > 0) perUsername.set(attempt.username, left);
    else perUsername.delete(attempt.username);
  }
}
