import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { ModalLoadError } from './modal-load-error.tsx';
import { ModalLoading } from './modal-loading.tsx';

interface PendingQuery {
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * What an access modal shows until all its queries have answered: a spinner, or the first failure's message
 * with a retry of the queries that failed; and 'Cancelar' either way.
 */
export function ModalPending({
  queries,
  message,
  onHide,
}: {
  queries: PendingQuery[];
  message: (error: unknown) => string;
  onHide: () => void;
}) {
  const failed = queries.filter((q) => q.isError);
  return (
    <>
      {failed.length > 0 ? (
        <ModalLoadError message={message(failed[0]!.error)} onRetry={() => failed.forEach((q) => void q.refetch())} />
      ) : (
        <ModalLoading />
      )}
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide}>
          Cancelar
        </Button>
      </Modal.Footer>
    </>
  );
}
