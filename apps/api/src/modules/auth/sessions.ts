import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { findSessionUser } from './auth.repository.ts';
import { purgeOldAttempts } from './login-attempts.repository.ts';
import { purgeExpiredRevocations, revokeToken } from './revocations.repository.ts';
import { verifySessionToken } from './tokens.ts';

/** Who a valid session token speaks for. */
export interface SessionPrincipal {
  id: string;
  email: string;
  displayName: string;
  role: 'Admin' | 'User';
  jti: string;
  expiresAt: Date;
}

/**
 * The person behind an `Authorization: Bearer` header, or null when there is no valid, unexpired,
 * unrevoked token of an active person. The role comes from the database, not from the token, so a
 * demotion or deactivation takes effect at once.
 */
const bearer = (authorization: string | undefined) =>
  (authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null)?.[1];

export async function authenticateSession(
  db: Db,
  jwt: Config['jwt'],
  authorization: string | undefined,
): Promise<SessionPrincipal | null> {
  const token = bearer(authorization);
  if (!token) return null;
  let claims;
  try {
    claims = await verifySessionToken(jwt, token);
  } catch {
    return null;
  }
  const user = await findSessionUser(db, claims.sub, claims.jti);
  if (!user || !user.active || user.revoked) return null;
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    jti: claims.jti,
    expiresAt: new Date(claims.exp * 1000),
  };
}

/** Refuses the header's token in every instance until it would have expired; an invalid one needs nothing. */
export async function revokeSession(db: Db, jwt: Config['jwt'], authorization: string | undefined): Promise<void> {
  const token = bearer(authorization);
  if (!token) return;
  let claims;
  try {
    claims = await verifySessionToken(jwt, token);
  } catch {
    return;
  }
  await revokeToken(db, claims.jti, new Date(claims.exp * 1000));
}

/** Forgets revocations of tokens that have expired anyway, and failed sign-ins older than the limits look at. */
export async function purgeStaleSignInRecords(db: Db): Promise<void> {
  await Promise.all([purgeExpiredRevocations(db), purgeOldAttempts(db)]);
}
