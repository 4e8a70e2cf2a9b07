import './styles/bootstrap.scss';
import './styles/theme.css';
import { requestFirstScreenData } from './app/first-screen.ts';

// The first screen's data is asked for before anything else: this chunk is small, and evaluated first.
const data = requestFirstScreenData(window.location);

// The rest of the code is evaluated one part at a time, each in a task of its own: a module graph is evaluated in
// one go, and all of the first screen's at once was a 50–100 ms task on a modest machine, during which the page
// answers nothing. React's DOM renderer first, then the app (start.tsx), which then evaluates the first screen's
// own chunk. The files themselves are fetched together at once (the modulepreload links vite.config.ts adds).
void import('react-dom/client').then(() => import('./app/start.tsx')).then(({ start }) => start(data));
