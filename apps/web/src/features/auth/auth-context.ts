import { createContext, useContext } from 'react';
import type { StoredUser } from '../../lib/session-storage.ts';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthContextValue {
  status: AuthStatus;
  isAuthenticated: boolean;
  isAdmin: boolean;
  user: StoredUser | null;
  token: string | null;
  /** Username and password sign-in; throws on failure (docs/requirements.md#error-catalogue shows no message). */
  login: (username: string, password: string) => Promise<void>;
  /**
   * Takes a token returned by the Microsoft sign-in; throws with the message of docs/requirements.md#token-validity
   * when it is refused.
   */
  loginWithToken: (token: string) => void;
  logout: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
