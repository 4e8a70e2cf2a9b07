import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../audit/audit.ts';
import { findSessionUser } from './auth.repository.ts';
import { purgeOldAttempts } from './login-attempts.repository.ts';
import { purgeExpiredRevocations, revokeToken } from './revocations.repository.ts';
import { verifySessionToken } from './tokens.ts';
import { VersionedKeyedCache } from '../../db/versioned-cache.ts';
import type { TokenClaims } from '@paineis/contract/auth';

/** Who a valid session token speaks for. */
export interface SessionPrincipal {
  id: string;
  /** The directory's e-mail (Graph mail, else UPN), or a local account's. */
  email: string;
  /** The directory's user principal name; null for people who never came from Graph. */
  upn: string | null;
  displayName: string;
  role: 'Admin' | 'User';
  jti: string;
  expiresAt: Date;
}

const bearer = (authorization: string | undefined) =>
  (authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null)?.[1];

/**
 * Tokens whose signature, issuer and audience were checked once, per signing configuration: a token's bytes
 * cannot change, so only its time window is checked again. At most this many are kept; the oldest go first.
 */
const VERIFIED_CAPACITY = 20_000;
type Claims = TokenClaims & { nbf?: number };
const verified = new WeakMap<Config['jwt'], Map<string, Claims>>();

async function claimsOf(jwt: Config['jwt'], token: string): Promise<Claims | null> {
  const remembered = verifiedClaims(jwt, token);
  if (remembered !== undefined) return remembered;
  let claims: Claims;
  try {
    claims = await verifySessionToken(jwt, token);
  } catch {
    return null;
  }
  const known = verified.get(jwt)!;
  if (known.size >= VERIFIED_CAPACITY) known.delete(known.keys().next().value!);
  known.set(token, claims);
  return inTime(known, token, claims);
}

/** A token verified before: its claims while in their time window, null after; undefined when never verified. */
function verifiedClaims(jwt: Config['jwt'], token: string): Claims | null | undefined {
  let known = verified.get(jwt);
  if (!known) verified.set(jwt, (known = new Map<string, Claims>()));
  const claims = known.get(token);
  return claims && inTime(known, token, claims);
}

function inTime(known: Map<string, Claims>, token: string, claims: Claims): Claims | null {
  // As jose checks them, to the second.
  const now = Math.floor(Date.now() / 1000);
  if (claims.exp <= now || (claims.nbf !== undefined && claims.nbf > now)) {
    known.delete(token);
    return null;
  }
  return claims;
}

/**
 * Each session's person and whether its token was revoked, from memory until a person or a revocation
 * changes anywhere (data sets 'usuarios' and 'revogacoes', pushed to every instance).
 */
const sessionUsers = new VersionedKeyedCache(
  ['usuarios', 'revogacoes'],
  (db, key: string) => {
    const [userId, jti] = key.split('\n') as [string, string];
    return findSessionUser(db, userId, jti);
  },
  50_000,
);

/**
 * The person behind an `Authorization: Bearer` header, or null when there is no valid, unexpired,
 * unrevoked token of an active person. The role comes from the database, not from the token, so a
 * demotion or deactivation takes effect on the next request, on every instance.
 */
export async function authenticateSession(
  db: Db,
  jwt: Config['jwt'],
  authorization: string | undefined,
): Promise<SessionPrincipal | null> {
  const token = bearer(authorization);
  if (!token) return null;
  const claims = await claimsOf(jwt, token);
  if (!claims) return null;
  return principalOf(claims, await sessionUsers.get(db, sessionKey(claims)));
}

/**
 * The same answer, without waiting, when memory holds everything it needs (a token verified before, its person
 * and revocation cached for the current versions): what nearly every request of a signed-in person finds.
 * Undefined when it cannot tell at once; then `authenticateSession` asks.
 */
export function authenticatedNow(
  db: Db,
  jwt: Config['jwt'],
  authorization: string | undefined,
): SessionPrincipal | null | undefined {
  const token = bearer(authorization);
  if (!token) return null;
  const claims = verifiedClaims(jwt, token);
  if (!claims) return claims;
  const user = sessionUsers.peek(db, sessionKey(claims));
  return user === undefined ? undefined : principalOf(claims, user);
}

/** Each token's key in the session cache, built once per verified token. */
const sessionKeys = new WeakMap<Claims, string>();

function sessionKey(claims: Claims): string {
  let key = sessionKeys.get(claims);
  if (key === undefined) sessionKeys.set(claims, (key = `${claims.sub}\n${claims.jti}`));
  return key;
}

type SessionUser = Awaited<ReturnType<typeof findSessionUser>>;

/**
 * The principal of a token's claims and its person as cached: one object per pair, while both stay in memory, so a
 * request of a signed-in person allocates none. Callers must not modify it.
 */
const principals = new WeakMap<Claims, { user: SessionUser; principal: SessionPrincipal }>();

function principalOf(claims: Claims, user: SessionUser): SessionPrincipal | null {
  if (!user || !user.active || user.revoked) return null;
  const known = principals.get(claims);
  if (known?.user === user) return known.principal;
  const principal: SessionPrincipal = {
    id: user.id,
    email: user.email,
    upn: user.upn,
    displayName: user.displayName,
    role: user.role,
    jti: claims.jti,
    expiresAt: new Date(claims.exp * 1000),
  };
  principals.set(claims, { user, principal });
  return principal;
}

/**
 * Refuses the header's token in every instance until it would have expired, and answers its claims; an invalid one
 * needs nothing (null).
 */
async function revokeSession(
  db: Db,
  jwt: Config['jwt'],
  authorization: string | undefined,
): Promise<TokenClaims | null> {
  const token = bearer(authorization);
  if (!token) return null;
  let claims;
  try {
    claims = await verifySessionToken(jwt, token);
  } catch {
    return null;
  }
  await revokeToken(db, claims.jti, new Date(claims.exp * 1000));
  return claims;
}

/** Signing out: the header's token refused from now on (revokeSession), and the sign-out audited. */
export async function signOut(db: Db, jwt: Config['jwt'], authorization: string | undefined, ip: string) {
  const signedOut = await revokeSession(db, jwt, authorization);
  if (!signedOut) return;
  await recordAudit(
    db,
    { usuarioId: signedOut.sub, usuario: signedOut.email ?? null, endereco: ip },
    { objeto: 'sessao', acao: 'logout', objetoId: signedOut.sub },
  );
}

/** Forgets revocations of tokens that have expired anyway, and failed sign-ins older than the limits look at. */
export async function purgeStaleSignInRecords(db: Db): Promise<void> {
  await Promise.all([purgeExpiredRevocations(db), purgeOldAttempts(db)]);
}
