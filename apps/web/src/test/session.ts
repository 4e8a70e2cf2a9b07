import { storeSession, type StoredUser } from '../lib/session-storage.ts';

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/** A token shaped like the server's (the web app decodes it, never verifies it). */
export function fakeToken(claims: Record<string, unknown> = {}, expiresInSeconds = 3600): string {
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ exp, ...claims })}.assinatura`;
}

export const ADMIN: StoredUser = {
  id: 'admin-1',
  username: 'ana.admin@empresa.com.br',
  displayName: 'Ana Admin',
  email: 'ana.admin@empresa.com.br',
  role: 'Admin',
};
export const USER: StoredUser = {
  id: 'user-1',
  username: 'bruno@empresa.com.br',
  displayName: 'Bruno Usuário',
  email: 'bruno@empresa.com.br',
  role: 'User',
};

/** Stores a valid session as the app would after signing in. */
export function signIn(user: StoredUser = ADMIN): string {
  const token = fakeToken({ name: user.username, role: user.role, displayName: user.displayName, sub: user.id });
  storeSession(token, user);
  return token;
}
