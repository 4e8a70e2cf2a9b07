import { Outlet } from 'react-router';
import { NavigationBar } from './navigation-bar.tsx';

/** Every signed-in screen: the navigation bar above the route's content. */
export function AppLayout() {
  return (
    <div className="d-flex flex-column min-vh-100">
      <NavigationBar />
      <main className="flex-grow-1 d-flex flex-column">
        <Outlet />
      </main>
    </div>
  );
}
