import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/bootstrap.scss';
import './styles/theme.css';
import { App } from './app/app.tsx';
import { requestFirstScreenData } from './app/first-screen.ts';
import { preloadFirstScreen } from './app/routes.tsx';
import { createQueryClient } from './lib/query-client.ts';

/** How long the first render may wait for the first screen's data, once its code is there. */
const FIRST_DATA_WAIT_MS = 1_000;

const queryClient = createQueryClient();
// The first screen's data and (for a screen of its own chunk) code are asked for together, before the first render.
const data = requestFirstScreenData(queryClient, window.location);
// A chunk that failed to arrive is asked for again by the screen, which then fails as it would have.
const code = preloadFirstScreen(window.location.pathname).catch(() => undefined);

// The first render waits for them, so that it shows the screen itself rather than spinners that its next renders
// replace (and React holds back what replaces a spinner it has just shown for 300 ms); for the data, only a moment.
void Promise.all([code, Promise.race([data, new Promise((wait) => setTimeout(wait, FIRST_DATA_WAIT_MS))])]).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
