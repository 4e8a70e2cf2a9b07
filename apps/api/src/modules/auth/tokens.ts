import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { TokenClaims } from '@paineis/contract/auth';
import type { Config } from '../../config/env.ts';

export interface TokenSubject {
  id: string;
  /** For local accounts; Microsoft accounts use their e-mail. */
  username?: string;
  email: string;
  displayName: string;
  role: 'Admin' | 'User';
  department?: string | null;
  jobTitle?: string | null;
  officeLocation?: string | null;
}

const ALGORITHM = 'HS256';

const key = (secret: string) => new TextEncoder().encode(secret);

/** Issues the portal's own session token with the claims the web app reads (docs/requirements.md#token-claims). */
export async function signSessionToken(jwt: Config['jwt'], user: TokenSubject, ttlSeconds = jwt.ttlSeconds) {
  const now = Math.floor(Date.now() / 1000);
  const jti = randomUUID();
  const token = await new SignJWT({
    name: user.username ?? user.email,
    unique_name: user.username ?? user.email,
    email: user.email,
    role: user.role,
    displayName: user.displayName,
    department: user.department ?? null,
    jobTitle: user.jobTitle ?? null,
    officeLocation: user.officeLocation ?? null,
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(user.id)
    .setJti(jti)
    .setIssuer(jwt.issuer)
    .setAudience(jwt.audience)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key(jwt.secret));
  return { token, jti, expiresAt: new Date((now + ttlSeconds) * 1000) };
}

/** Checks signature (HS256 only), expiry, not-before, issuer and audience; throws on any failure. */
export async function verifySessionToken(jwt: Config['jwt'], token: string) {
  const { payload } = await jwtVerify(token, key(jwt.secret), {
    algorithms: [ALGORITHM],
    issuer: jwt.issuer,
    audience: jwt.audience,
    requiredClaims: ['sub', 'jti', 'exp'],
  });
  return payload as unknown as TokenClaims;
}
