import { prefetchGroupedPanels } from '../features/panels/api/fetch-grouped-panels.ts';
import { prefetchPersonal } from '../features/panels/api/fetch-personal.ts';
import { prefetchPanel } from '../features/viewer/api/fetch-panel.ts';
import { readLiveSession } from '../lib/token.ts';

/** /visualizar/{id}, as routes.tsx and the viewer read it. */
const VIEWER_PATH = /^\/visualizar\/([1-9][0-9]*)\/?$/;

/**
 * Asks for the data of the screen the app opens on as soon as its script runs, alongside the route's own code,
 * instead of after the first renders: the panel list's groups, with the person's favourites and recents, on `/`; the
 * panel on /visualizar/{id}. Only with a usable
 * stored session (the one AuthProvider signs in with at once). The screen's first request takes the answer
 * (lib/early-answer.ts); a failed one it simply asks again, and handles as usual (a 401 signs out).
 *
 * Settles when the answer has arrived (or failed), so that start.tsx may render the screen with it; at once elsewhere.
 * Needs neither React nor the query client: it runs in the entry chunk, before they are evaluated.
 */
export function requestFirstScreenData({ pathname, search }: Pick<Location, 'pathname' | 'search'>): Promise<void> {
  let live;
  try {
    live = readLiveSession();
  } catch {
    return Promise.resolve();
  }
  if (!live) return Promise.resolve();
  let answer: Promise<unknown> | null = null;
  if (pathname === '/') answer = Promise.all([prefetchGroupedPanels(), prefetchPersonal()]);
  const viewer = VIEWER_PATH.exec(pathname);
  if (viewer) {
    // As the viewer reads it: only an admin may preview a panel as one of its RLS roles (`?papel=`).
    const papel = (live.user.role === 'Admin' && new URLSearchParams(search).get('papel')?.trim()) || undefined;
    answer = prefetchPanel(Number(viewer[1]), papel);
  }
  return (answer ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );
}
