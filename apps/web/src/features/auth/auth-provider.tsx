import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FullPageSpinner } from '../../components/full-page-spinner.tsx';
import { paths } from '../../config/paths.ts';
import { setUnauthorizedHandler } from '../../lib/api-client.ts';
import { clearLocalData, readToken, readUser, storeSession, type StoredUser } from '../../lib/session-storage.ts';
import { isTokenExpired, readLiveSession, userFromToken } from '../../lib/token.ts';
import { login as loginCall } from './api/login.ts';
import { logoutComplete } from './api/logout.ts';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context.ts';

export const TOKEN_EXPIRED = 'Token expirado. Faça login novamente.';
export const USER_INFO_ERROR = 'Erro ao processar informações do usuário';

interface Session {
  status: AuthStatus;
  user: StoredUser | null;
  token: string | null;
}

/**
 * A usable stored session (a token that has not expired, and its user) signs in at once: the app's first render is
 * already the route's, not the start-up spinner, so the route's code and data are asked for without waiting a render.
 * Anything else is settled by the start-up check below, behind the spinner.
 */
function initialSession(): Session {
  try {
    const live = readLiveSession();
    if (live) return { status: 'authenticated', ...live };
  } catch {
    // The start-up check reports it.
  }
  return { status: 'loading', user: null, token: null };
}

/**
 * The session of docs/requirements.md#session-states and #token-validity: start-up checks, login, logout and the answer
 * to any 401.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session>(initialSession);

  const logout = useCallback(async () => {
    if (readToken()) {
      try {
        await logoutComplete();
      } catch (error) {
        console.warn('Falha ao encerrar a sessão no servidor; os dados locais serão limpos mesmo assim.', error);
      }
    }
    clearLocalData();
    queryClient.clear();
    setSession({ status: 'unauthenticated', user: null, token: null });
    await navigate(paths.login, { replace: true });
  }, [navigate, queryClient]);

  // The latest logout, for the 401 handler and the start-up check, without re-running them.
  const logoutRef = useRef(logout);
  logoutRef.current = logout;

  useEffect(() => {
    setUnauthorizedHandler(() => void logoutRef.current());
    return () => setUnauthorizedHandler(null);
  }, []);

  useEffect(() => {
    try {
      const token = readToken();
      const user = readUser();
      if (token && !user) {
        localStorage.clear();
        setSession({ status: 'unauthenticated', user: null, token: null });
      } else if (token && user) {
        if (isTokenExpired(token)) void logoutRef.current();
        // Usually already so (initialSession).
        else
          setSession((current) =>
            current.status === 'authenticated' ? current : { status: 'authenticated', user, token },
          );
      } else {
        clearLocalData();
        setSession({ status: 'unauthenticated', user: null, token: null });
      }
    } catch (error) {
      console.warn('Falha ao verificar a sessão', error);
      setSession({ status: 'unauthenticated', user: null, token: null });
    }
  }, []);

  const login = useCallback(async (username: string, password: string) => {
    const { token, user } = await loginCall({ username, password });
    storeSession(token, user);
    setSession({ status: 'authenticated', user, token });
  }, []);

  const loginWithToken = useCallback((token: string) => {
    if (isTokenExpired(token)) throw new Error(TOKEN_EXPIRED);
    let user: StoredUser;
    try {
      user = userFromToken(token);
    } catch (error) {
      console.warn('Token sem informações de usuário legíveis', error);
      throw new Error(USER_INFO_ERROR);
    }
    storeSession(token, user);
    setSession({ status: 'authenticated', user, token });
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      ...session,
      isAuthenticated: session.status === 'authenticated',
      isAdmin: session.status === 'authenticated' && session.user?.role === 'Admin',
      login,
      loginWithToken,
      logout,
    }),
    [session, login, loginWithToken, logout],
  );

  return (
    <AuthContext.Provider value={value}>
      {session.status === 'loading' ? <FullPageSpinner /> : children}
    </AuthContext.Provider>
  );
}
