import Spinner from 'react-bootstrap/Spinner';

/** The full-height centred spinner shown while the session initialises (SPEC.md section 2). */
export function FullPageSpinner() {
  return (
    <div className="d-flex vh-100 align-items-center justify-content-center">
      <Spinner animation="border" variant="primary" role="status">
        <span className="visually-hidden">Carregando...</span>
      </Spinner>
    </div>
  );
}
