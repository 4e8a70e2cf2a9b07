import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '../lib/query-client.ts';
import { App } from './app.tsx';
import { preloadFirstScreen } from './routes.tsx';

/** How long the first render may wait for the first screen's data, once its code is there. */
const FIRST_DATA_WAIT_MS = 1_000;

/**
 * Renders the app once the first screen's code (a chunk of its own, evaluated in its own task) and its data are
 * there, so that the first render shows the screen itself rather than spinners that its next renders replace (and
 * React holds back what replaces a spinner it has just shown for 300 ms); for the data, only a moment.
 */
export async function start(data: Promise<void>): Promise<void> {
  // A chunk that failed to arrive is asked for again by the screen, which then fails as it would have.
  const code = preloadFirstScreen(window.location.pathname).catch(() => undefined);
  await Promise.all([code, Promise.race([data, new Promise((wait) => setTimeout(wait, FIRST_DATA_WAIT_MS))])]);
  const queryClient = createQueryClient();
  const root = createRoot(document.getElementById('root')!);
  // As a transition, the first render yields to the browser every few milliseconds instead of being one long task.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );
}
