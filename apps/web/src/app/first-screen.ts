import type { QueryClient } from '@tanstack/react-query';
import { getGroupedPanels } from '../features/panels/api/get-grouped-panels.ts';
import { prefetchPanel } from '../features/viewer/api/get-panel.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { readLiveSession } from '../lib/token.ts';

/** /visualizar/{id}, as routes.tsx and the viewer read it. */
const VIEWER_PATH = /^\/visualizar\/([1-9][0-9]*)\/?$/;

/**
 * Asks for the data of the screen the app opens on as soon as its script runs, alongside the route's own code,
 * instead of after the first renders: the panel list's groups on `/`, the panel on /visualizar/{id}. Only with a usable
 * stored session (the one AuthProvider signs in with at once); a failed request is simply asked again by the screen,
 * which then handles it as usual (a 401 signs out).
 *
 * Settles when the viewer's panel has arrived (or failed), so that main.tsx may render the viewer with it; at once
 * elsewhere: the list shows its own spinner while its groups arrive.
 */
export function requestFirstScreenData(
  queryClient: QueryClient,
  { pathname, search }: Pick<Location, 'pathname' | 'search'>,
): Promise<void> {
  let live;
  try {
    live = readLiveSession();
  } catch {
    return Promise.resolve();
  }
  if (!live) return Promise.resolve();
  if (pathname === '/') {
    // The list's own query (useGroupedPanels) finds it in the cache, fresh or on its way.
    void queryClient.prefetchQuery({ queryKey: queryKeys.groupedPanels, queryFn: getGroupedPanels });
    return Promise.resolve();
  }
  const viewer = VIEWER_PATH.exec(pathname);
  if (viewer) {
    // As the viewer reads it: only an admin may preview a panel as one of its RLS roles (`?papel=`).
    const papel = (live.user.role === 'Admin' && new URLSearchParams(search).get('papel')?.trim()) || undefined;
    return prefetchPanel(Number(viewer[1]), papel).then(
      () => undefined,
      () => undefined,
    );
  }
  return Promise.resolve();
}
