import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** The body of an access modal whose data could not be loaded, with a way to try again. */
export function ModalLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Modal.Body>
      <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2 mb-0">
        <span className="me-auto">{message}</span>
        <Button variant="outline-danger" size="sm" onClick={onRetry}>
          Tentar novamente
        </Button>
      </Alert>
    </Modal.Body>
  );
}
