import { LoadingSpinner } from './loading-spinner.tsx';

/** The full-height centred spinner shown while the session initialises (SPEC.md section 2). */
export function FullPageSpinner() {
  return <LoadingSpinner className="d-flex vh-100 align-items-center justify-content-center" />;
}
