import Spinner from 'react-bootstrap/Spinner';

/** The one loading indicator: the brand spinner with the hidden text 'Carregando...' for screen readers. */
export function LoadingSpinner({ className = 'd-flex justify-content-center py-5' }: { className?: string }) {
  return (
    <div className={className}>
      <Spinner animation="border" variant="primary" role="status">
        <span className="visually-hidden">Carregando...</span>
      </Spinner>
    </div>
  );
}
