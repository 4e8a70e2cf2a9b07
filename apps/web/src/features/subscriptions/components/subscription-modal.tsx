import { useId, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Assinatura, AssinaturaBody, AssinaturaPatchBody } from '@paineis/contract/subscriptions';
import { BusyButton } from '../../../components/busy-button.tsx';
import { SubscriptionScheduleFields } from './subscription-schedule-fields.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import {
  DEFAULT_SCHEDULE,
  scheduleBody,
  scheduleOf,
  schedulePatch,
  validHour,
  validInterval,
  type ScheduleValue,
} from '../utils/subscription-schedule.ts';
import { useCreateSubscription } from '../api/create-subscription.ts';
import { useSavedViews } from '../../../lib/api/get-saved-views.ts';
import { useUpdateSubscription } from '../api/update-subscription.ts';

export const CREATE_TITLE = 'Assinar por e-mail';
export const EDIT_TITLE = 'Editar assinatura';
export const CREATE_ERROR = 'Não foi possível criar a assinatura.';
export const EDIT_ERROR = 'Não foi possível salvar a assinatura.';
/** The 'Conteúdo' choices' values: the whole report, a page, or `visao:{id}`. */
const ALL_PAGES = 'todas';
const PAGE = 'pagina';
const VIEW = 'visao:';

interface SubscriptionModalProps {
  show: boolean;
  painelId: number;
  /** The page the viewer shows (`?pagina=`), offered as 'Página atual'. */
  paginaAtual?: string | undefined;
  /** The subscription to edit; without it, a new one is made. */
  editing?: Assinatura | undefined;
  /** After the server saved it (201 or 200), with its answer. */
  onSaved: (assinatura: Assinatura) => void;
  onHide: () => void;
}

/**
 * 'Assinar por e-mail' (the viewer) and 'Editar assinatura' ('Minhas assinaturas'): format, schedule, hour, time zone
 * and content (docs/requirements.md#subscriptions). The server's refusal shows in the dialog, which stays open.
 */
export function SubscriptionModal({ show, onHide, ...props }: SubscriptionModalProps) {
  const titleId = useId();
  const create = useCreateSubscription();
  const update = useUpdateSubscription();
  const saving = create.isPending || update.isPending;
  const mutation = props.editing ? update : create;
  const hide = () => {
    if (!saving) onHide();
  };
  return (
    <Modal
      show={show}
      onHide={hide}
      centered
      backdrop={saving ? 'static' : true}
      aria-labelledby={titleId}
      onEnter={() => {
        create.reset();
        update.reset();
      }}
    >
      {/* Remounted on every opening: the fields start from the subscription edited (or the defaults). */}
      {show && (
        <SubscriptionForm
          {...props}
          titleId={titleId}
          saving={saving}
          error={mutation.error ? errorMessage(mutation.error, props.editing ? EDIT_ERROR : CREATE_ERROR) : null}
          onCancel={hide}
          onCreate={(body) => create.mutate(body, { onSuccess: props.onSaved })}
          onUpdate={(id, body) => update.mutate({ id, body }, { onSuccess: props.onSaved })}
        />
      )}
    </Modal>
  );
}

/** The 'Conteúdo' choice a subscription starts from. */
function initialContent(editing: Assinatura | undefined): string {
  if (!editing) return ALL_PAGES;
  return editing.visaoId ? `${VIEW}${editing.visaoId}` : editing.pagina ? PAGE : ALL_PAGES;
}

function SubscriptionForm({
  painelId,
  paginaAtual,
  editing,
  titleId,
  saving,
  error,
  onCancel,
  onCreate,
  onUpdate,
}: Omit<SubscriptionModalProps, 'show' | 'onHide' | 'onSaved'> & {
  titleId: string;
  saving: boolean;
  error: string | null;
  onCancel: () => void;
  onCreate: (body: AssinaturaBody) => void;
  onUpdate: (id: string, body: AssinaturaPatchBody) => void;
}) {
  const [schedule, setSchedule] = useState<ScheduleValue>(() => (editing ? scheduleOf(editing) : DEFAULT_SCHEDULE));
  const [conteudo, setConteudo] = useState(() => initialContent(editing));
  const [badHour, setBadHour] = useState(false);
  const [badInterval, setBadInterval] = useState(false);
  const { data: views } = useSavedViews(painelId, true);

  // The page sent: the viewer's current one, or, when editing, the one the subscription already has.
  const page = editing ? (editing.pagina ?? undefined) : paginaAtual;
  const viewChoices = (views ?? []).map((v) => ({ id: v.id, nome: v.nome }));
  // A view the list does not hold (not yet loaded, or gone) still shows as chosen.
  if (editing?.visaoId && !viewChoices.some((v) => v.id === editing.visaoId)) {
    viewChoices.unshift({ id: editing.visaoId, nome: editing.nomeVisao ?? editing.visaoId });
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBadHour(!validHour(schedule));
    setBadInterval(!validInterval(schedule));
    if (!validHour(schedule) || !validInterval(schedule)) return;
    const visaoId = conteudo.startsWith(VIEW) ? conteudo.slice(VIEW.length) : null;
    const pagina = conteudo === PAGE && page ? page : null;
    if (editing) {
      // Every field, so that a day, page or view no longer chosen is cleared (null).
      onUpdate(editing.id, { ...schedulePatch(schedule), pagina, visaoId });
      return;
    }
    onCreate({
      painelId,
      ...scheduleBody(schedule),
      ...(pagina !== null ? { pagina } : {}),
      ...(visaoId !== null ? { visaoId } : {}),
    });
  };

  return (
    <Form noValidate onSubmit={submit}>
      <Modal.Header closeButton={!saving} closeLabel="Fechar">
        <Modal.Title as="h2" className="h5" id={titleId}>
          {editing ? EDIT_TITLE : CREATE_TITLE}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="d-flex flex-column gap-3">
        {error && (
          <Alert variant="danger" className="mb-0">
            {error}
          </Alert>
        )}
        <SubscriptionScheduleFields
          value={schedule}
          onChange={(value) => {
            setSchedule(value);
            setBadHour(false);
            setBadInterval(false);
          }}
          idPrefix="assinatura"
          badHour={badHour}
          badInterval={badInterval}
          storedZone={editing?.fusoHorario}
          autoFocus
        />
        <Form.Group controlId="assinatura-conteudo">
          <Form.Label>Conteúdo</Form.Label>
          <Form.Select value={conteudo} onChange={(e) => setConteudo(e.target.value)}>
            <option value={ALL_PAGES}>Todas as páginas</option>
            {page && <option value={PAGE}>{editing ? `Página: ${page}` : 'Página atual'}</option>}
            {viewChoices.map((v) => (
              <option key={v.id} value={`${VIEW}${v.id}`}>
                {`Visão salva: ${v.nome}`}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={saving}>
          Cancelar
        </Button>
        <BusyButton type="submit" variant="primary" busy={saving}>
          {editing ? 'Salvar' : 'Assinar'}
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}
