import { Navigate, Outlet } from 'react-router';
import { paths } from '../config/paths.ts';
import { useAuth } from '../features/auth/auth-context.ts';

/** Unauthenticated users are sent to /login (docs/requirements.md#route-guards). */
export function RequireAuth() {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <Outlet /> : <Navigate to={paths.login} replace />;
}

/** A non-admin opening an admin route is sent to / (docs/requirements.md#route-guards). */
export function RequireAdmin() {
  const { isAdmin } = useAuth();
  return isAdmin ? <Outlet /> : <Navigate to={paths.home} replace />;
}
