import { useEffect } from 'react';
import { TEXTOS_CAPACIDADE } from '@paineis/contract/capacity-constants';
import Spinner from 'react-bootstrap/Spinner';

/**
 * The capacity is starting because this opening (or another) woke it: the person reads how long it takes, and the
 * panel is asked for again once `seconds` have passed. Remounted for each 503 (its key), so each answer's wait counts.
 */
export function CapacityStarting({ seconds, onRetry }: { seconds: number; onRetry: () => void }) {
  useEffect(() => {
    const timer = window.setTimeout(onRetry, seconds * 1000);
    return () => window.clearTimeout(timer);
  }, [seconds, onRetry]);
  return (
    <div className="flex-grow-1 d-flex flex-column align-items-center justify-content-center gap-3 py-5 px-3 text-center">
      <Spinner animation="border" variant="primary" aria-hidden="true" />
      <p role="status" className="lead mb-0">
        {TEXTOS_CAPACIDADE.iniciando(seconds)}
      </p>
    </div>
  );
}
