import { LoadingSpinner } from './loading-spinner.tsx';

/** The full-height centred spinner shown while the session initialises (docs/requirements.md#app-shell). */
export function FullPageSpinner() {
  return <LoadingSpinner className="d-flex vh-100 align-items-center justify-content-center" />;
}
