import { Outlet } from 'react-router';
import { AuthProvider } from '../features/auth/auth-provider.tsx';

/** The session lives inside the router, because signing out navigates. */
export function Root() {
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}
