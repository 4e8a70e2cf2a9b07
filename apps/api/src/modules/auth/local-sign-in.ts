import type { LoginResponse } from '@paineis/contract/auth';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/http-error.ts';
import { addressKey, recentFailures, recordFailure, userKey } from './login-attempts.repository.ts';
import { findLocalAccount } from './local-accounts.repository.ts';
import { verifyPassword } from './passwords.ts';
import { signSessionToken } from './tokens.ts';

export const LOGIN_INVALID = 'Usuário ou senha inválidos.';
export const LOGIN_THROTTLED = 'Muitas tentativas de login. Aguarde um minuto e tente novamente.';

/**
 * A sign-in with a local account's username and password. Failures are counted per username and per
 * address in the database, so every instance refuses a guesser once either count reaches its limit.
 */
export async function signInLocally(
  db: Db,
  config: Config,
  credentials: { username: string; password: string },
  address: string,
): Promise<LoginResponse> {
  const keys = [userKey(credentials.username), addressKey(address)];
  const failures = await recentFailures(db, keys);
  if (
    (failures.get(keys[0]!) ?? 0) >= config.loginLimits.perUser ||
    (failures.get(keys[1]!) ?? 0) >= config.loginLimits.perAddress
  ) {
    throw new HttpError(429, LOGIN_THROTTLED);
  }
  const account = await findLocalAccount(db, credentials.username);
  const ok = await verifyPassword(account?.senhaHash ?? null, credentials.password);
  if (!account || !ok || !account.active) {
    await recordFailure(db, keys);
    throw new HttpError(401, LOGIN_INVALID);
  }
  const { token } = await signSessionToken(config.jwt, { ...account, username: account.username });
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
