import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';

/** The body of an access modal while its data loads. */
export function ModalLoading() {
  return (
    <Modal.Body className="d-flex justify-content-center py-5">
      <Spinner animation="border" variant="primary" role="status">
        <span className="visually-hidden">Carregando...</span>
      </Spinner>
    </Modal.Body>
  );
}
