import Modal from 'react-bootstrap/Modal';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';

/** The body of an access modal while its data loads. */
export function ModalLoading() {
  return (
    <Modal.Body>
      <LoadingSpinner />
    </Modal.Body>
  );
}
