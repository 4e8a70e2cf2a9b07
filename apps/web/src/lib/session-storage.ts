/** Browser storage keys of docs/requirements.md#session-storage. */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

export interface StoredUser {
  id?: string;
  username: string;
  displayName?: string;
  email?: string;
  role: string;
  department?: string | null;
  jobTitle?: string | null;
  officeLocation?: string | null;
}

export const readToken = () => localStorage.getItem(TOKEN_KEY);

export function readUser(): StoredUser | null {
  const raw = localStorage.getItem(USER_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as StoredUser | null;
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

export function storeSession(token: string, user: StoredUser) {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

/**
 * docs/requirements.md#local-cleanup: removes the token and user keys, clears session storage, and removes any local
 * storage key containing auth, token or user.
 */
export function clearLocalData() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  sessionStorage.clear();
  const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter(
    (k): k is string => k !== null,
  );
  for (const key of keys) {
    const lower = key.toLowerCase();
    if (lower.includes('auth') || lower.includes('token') || lower.includes('user')) localStorage.removeItem(key);
  }
}
