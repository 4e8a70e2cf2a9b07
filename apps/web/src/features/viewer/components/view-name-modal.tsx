import { useId, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { BusyButton } from '../../../components/busy-button.tsx';

export const VIEW_NAME_LABEL = 'Nome da visão';
export const PANEL_VIEW_LABEL = 'Visão do painel (todos que podem abrir o painel a veem)';
const NOME_MAX = 100;

interface ViewNameModalProps {
  show: boolean;
  title: string;
  submitLabel: string;
  /** The name the field starts with (a rename's current name). */
  initialName?: string;
  saving: boolean;
  /** The server's message when saving failed (a name already used, the limit of views). */
  error: string | null;
  /** Offers to save it as a view of the panel (administrators saving a view). */
  panelOption?: boolean | undefined;
  onSubmit: (nome: string, doPainel: boolean) => void;
  onHide: () => void;
}

/** Asks a view's name: 'Salvar visão' and 'Renomear visão'. */
export function ViewNameModal({ show, ...props }: ViewNameModalProps) {
  const titleId = useId();
  return (
    <Modal
      show={show}
      onHide={props.saving ? () => undefined : props.onHide}
      centered
      backdrop={props.saving ? 'static' : true}
      aria-labelledby={titleId}
    >
      {/* Remounted on every opening: the field starts from the name given, not from the last one typed. */}
      {show && <ViewNameForm {...props} titleId={titleId} />}
    </Modal>
  );
}

function ViewNameForm({
  title,
  submitLabel,
  initialName = '',
  saving,
  error,
  panelOption = false,
  onSubmit,
  onHide,
  titleId,
}: Omit<ViewNameModalProps, 'show'> & { titleId: string }) {
  const [nome, setNome] = useState(initialName);
  const [doPainel, setDoPainel] = useState(false);
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = nome.trim();
    if (!trimmed) {
      setMissing(true);
      return;
    }
    onSubmit(trimmed, panelOption && doPainel);
  };
  return (
    <Form noValidate onSubmit={submit}>
      <Modal.Header closeButton={!saving} closeLabel="Fechar">
        <Modal.Title as="h2" className="h5" id={titleId}>
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {error && <Alert variant="danger">{error}</Alert>}
        <Form.Group controlId="nome-visao">
          <Form.Label>{VIEW_NAME_LABEL}</Form.Label>
          <Form.Control
            autoFocus
            value={nome}
            maxLength={NOME_MAX}
            isInvalid={missing}
            onChange={(event) => {
              setNome(event.target.value);
              setMissing(false);
            }}
          />
          <Form.Control.Feedback type="invalid">Informe o nome da visão.</Form.Control.Feedback>
        </Form.Group>
        {panelOption && (
          <Form.Check
            className="mt-3"
            id="visao-do-painel"
            label={PANEL_VIEW_LABEL}
            checked={doPainel}
            onChange={(event) => setDoPainel(event.target.checked)}
          />
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide} disabled={saving}>
          Cancelar
        </Button>
        <BusyButton type="submit" variant="primary" busy={saving}>
          {submitLabel}
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}
