import { useId, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { BusyButton } from './busy-button.tsx';

export interface ConfirmDialogProps {
  show: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary' | 'warning';
  /** While the confirmed action runs: both buttons are disabled and the dialog cannot be dismissed. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The confirmation dialog itself, with react-bootstrap's Modal. Screens take ConfirmDialog (confirm-dialog.tsx),
 * which loads this on first use; a screen already in a lazily loaded chunk may take it directly.
 */
export default function ConfirmDialogModal({
  show,
  title,
  message,
  confirmLabel = 'Confirmar',
  cancelLabel = 'Cancelar',
  variant = 'primary',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  // The dialog is named by its title.
  const titleId = useId();
  return (
    <Modal
      show={show}
      onHide={busy ? () => undefined : onCancel}
      centered
      backdrop={busy ? 'static' : true}
      aria-labelledby={titleId}
    >
      <Modal.Header closeButton={!busy} closeLabel="Fechar">
        <Modal.Title as="h2" className="h5" id={titleId}>
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{message}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </Button>
        <BusyButton variant={variant} onClick={onConfirm} busy={busy}>
          {confirmLabel}
        </BusyButton>
      </Modal.Footer>
    </Modal>
  );
}
