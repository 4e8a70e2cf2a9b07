import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

interface LoadErrorAlertProps {
  /** The server's message, or the page's own from docs/requirements.md#error-catalogue. */
  message: string;
  onRetry: () => void;
  /** While the data is being asked for again. */
  retryDisabled?: boolean;
  /** Its margins where it stands. */
  className?: string;
}

/** In place of data that did not load: the message and 'Tentar novamente'. */
export function LoadErrorAlert({ message, onRetry, retryDisabled = false, className }: LoadErrorAlertProps) {
  const layoutClass = 'd-flex flex-wrap align-items-center justify-content-between gap-2';
  return (
    <Alert variant="danger" className={className ? `${layoutClass} ${className}` : layoutClass}>
      <span>{message}</span>
      <Button variant="outline-danger" size="sm" disabled={retryDisabled} onClick={onRetry}>
        Tentar novamente
      </Button>
    </Alert>
  );
}
