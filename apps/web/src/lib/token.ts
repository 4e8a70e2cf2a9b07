import { jwtDecode } from 'jwt-decode';
import { readToken, readUser, type StoredUser } from './session-storage.ts';

/** Claims the web app reads from its session token (docs/requirements.md#token-claims). */
interface TokenClaims {
  sub?: string;
  name?: string;
  unique_name?: string;
  email?: string;
  role?: string;
  displayName?: string;
  department?: string | null;
  jobTitle?: string | null;
  officeLocation?: string | null;
  exp?: number;
}

/** Used when a token names nobody at all (docs/requirements.md#token-claims: a Microsoft-style placeholder address). */
export const PLACEHOLDER_USERNAME = 'usuario@empresa.onmicrosoft.com';

export function decodeToken(token: string): TokenClaims {
  return jwtDecode<TokenClaims>(token);
}

/**
 * Expired: cannot be decoded, has no exp, or exp is earlier than now in seconds (docs/requirements.md#token-validity).
 * Failures are logged and treated as expired (#error-catalogue).
 */
export function isTokenExpired(token: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  try {
    const { exp } = decodeToken(token);
    return typeof exp !== 'number' || exp < nowSeconds;
  } catch (error) {
    console.warn('Não foi possível verificar a validade do token', error);
    return true;
  }
}

/** The session user a token describes; throws when the token cannot be read. */
export function userFromToken(token: string): StoredUser {
  const claims = decodeToken(token);
  return {
    ...(claims.sub ? { id: claims.sub } : {}),
    username: claims.name || claims.unique_name || claims.email || PLACEHOLDER_USERNAME,
    role: claims.role || 'User',
    ...(claims.displayName ? { displayName: claims.displayName } : {}),
    ...(claims.email ? { email: claims.email } : {}),
    department: claims.department ?? null,
    jobTitle: claims.jobTitle ?? null,
    officeLocation: claims.officeLocation ?? null,
  };
}

/** The stored session when it can be used as it is: a token that has not expired, and its user. */
export function readLiveSession(): { token: string; user: StoredUser } | null {
  const token = readToken();
  const user = readUser();
  return token && user && !isTokenExpired(token) ? { token, user } : null;
}
