import { useId, useMemo, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import {
  DIAS_SEMANA,
  FREQUENCIA_ROTULOS,
  FREQUENCIAS,
  MAX_DIA_MES,
  type FormatoAssinatura,
  type Frequencia,
} from '@paineis/contract/subscription-constants';
import type { Assinatura, AssinaturaBody, AssinaturaPatchBody } from '@paineis/contract/subscriptions';
import { BusyButton } from '../../../components/busy-button.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { browserTimeZone } from '../../../lib/subscription-schedule.ts';
import { useCreateSubscription } from '../api/create-subscription.ts';
import { useSavedViews } from '../api/get-saved-views.ts';
import { useUpdateSubscription } from '../api/update-subscription.ts';

export const CREATE_TITLE = 'Assinar por e-mail';
export const EDIT_TITLE = 'Editar assinatura';
export const CREATE_ERROR = 'Não foi possível criar a assinatura.';
export const EDIT_ERROR = 'Não foi possível salvar a assinatura.';
export const PORTAL_ZONE = 'Padrão do portal';
export const FORMATO_ROTULOS: Record<FormatoAssinatura, string> = { PDF: 'PDF', PPTX: 'PowerPoint' };
const HOUR = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const DEFAULT_HOUR = '07:00';
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

interface Fields {
  formato: FormatoAssinatura;
  frequencia: Frequencia;
  diaSemana: string;
  diaMes: string;
  hora: string;
  /** '' is the portal's default zone (nothing sent). */
  fusoHorario: string;
  conteudo: string;
}

function initialFields(editing: Assinatura | undefined): Fields {
  if (!editing) {
    return {
      formato: 'PDF',
      frequencia: 'semanal',
      diaSemana: '1',
      diaMes: '1',
      hora: DEFAULT_HOUR,
      fusoHorario: '',
      conteudo: ALL_PAGES,
    };
  }
  return {
    formato: editing.formato,
    frequencia: editing.frequencia,
    diaSemana: String(editing.diaSemana ?? 1),
    diaMes: String(editing.diaMes ?? 1),
    hora: editing.hora,
    fusoHorario: editing.fusoHorario,
    conteudo: editing.visaoId ? `${VIEW}${editing.visaoId}` : editing.pagina ? PAGE : ALL_PAGES,
  };
}

/** Every zone this browser knows, its own first; `kept` (a subscription's zone) is listed even if it is not among them. */
function zoneChoices(kept: string | undefined): string[] {
  const own = browserTimeZone();
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const rest = known.filter((zone) => zone !== own && zone !== kept);
  return [...new Set([own, ...(kept ? [kept] : []), ...rest])];
}

const MONTH_DAYS = Array.from({ length: MAX_DIA_MES }, (_, i) => String(i + 1));

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
  const [fields, setFields] = useState(() => initialFields(editing));
  const [badHour, setBadHour] = useState(false);
  const { data: views } = useSavedViews(painelId, true);
  const zones = useMemo(() => zoneChoices(editing?.fusoHorario), [editing?.fusoHorario]);
  const set = (changes: Partial<Fields>) => setFields((current) => ({ ...current, ...changes }));

  // The page sent: the viewer's current one, or, when editing, the one the subscription already has.
  const page = editing ? (editing.pagina ?? undefined) : paginaAtual;
  const viewChoices = (views ?? []).map((v) => ({ id: v.id, nome: v.nome }));
  // A view the list does not hold (not yet loaded, or gone) still shows as chosen.
  if (editing?.visaoId && !viewChoices.some((v) => v.id === editing.visaoId)) {
    viewChoices.unshift({ id: editing.visaoId, nome: editing.nomeVisao ?? editing.visaoId });
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!HOUR.test(fields.hora)) {
      setBadHour(true);
      return;
    }
    const visaoId = fields.conteudo.startsWith(VIEW) ? fields.conteudo.slice(VIEW.length) : null;
    const pagina = fields.conteudo === PAGE && page ? page : null;
    const diaSemana = fields.frequencia === 'semanal' ? Number(fields.diaSemana) : null;
    const diaMes = fields.frequencia === 'mensal' ? Number(fields.diaMes) : null;
    const schedule = { formato: fields.formato, frequencia: fields.frequencia, hora: fields.hora };
    if (editing) {
      // Every field, so that a day, page or view no longer chosen is cleared (null).
      onUpdate(editing.id, { ...schedule, diaSemana, diaMes, fusoHorario: fields.fusoHorario, pagina, visaoId });
      return;
    }
    onCreate({
      painelId,
      ...schedule,
      ...(diaSemana !== null ? { diaSemana } : {}),
      ...(diaMes !== null ? { diaMes } : {}),
      // 'Padrão do portal' sends nothing: the server's USAGE_TIME_ZONE.
      ...(fields.fusoHorario ? { fusoHorario: fields.fusoHorario } : {}),
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
        <Form.Group controlId="assinatura-formato">
          <Form.Label>Formato</Form.Label>
          <Form.Select
            autoFocus
            value={fields.formato}
            onChange={(e) => set({ formato: e.target.value as FormatoAssinatura })}
          >
            {Object.entries(FORMATO_ROTULOS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <div className="d-flex flex-wrap gap-3">
          <Form.Group controlId="assinatura-frequencia" className="flex-grow-1">
            <Form.Label>Frequência</Form.Label>
            <Form.Select value={fields.frequencia} onChange={(e) => set({ frequencia: e.target.value as Frequencia })}>
              {FREQUENCIAS.map((value) => (
                <option key={value} value={value}>
                  {FREQUENCIA_ROTULOS[value]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          {fields.frequencia === 'semanal' && (
            <Form.Group controlId="assinatura-dia-semana" className="flex-grow-1">
              <Form.Label>Dia da semana</Form.Label>
              <Form.Select value={fields.diaSemana} onChange={(e) => set({ diaSemana: e.target.value })}>
                {Object.entries(DIAS_SEMANA).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          )}
          {fields.frequencia === 'mensal' && (
            <Form.Group controlId="assinatura-dia-mes" className="flex-grow-1">
              <Form.Label>Dia do mês</Form.Label>
              <Form.Select value={fields.diaMes} onChange={(e) => set({ diaMes: e.target.value })}>
                {MONTH_DAYS.map((day) => (
                  <option key={day} value={day}>
                    {day}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          )}
        </div>
        <div className="d-flex flex-wrap gap-3">
          <Form.Group controlId="assinatura-hora" style={{ flex: '1 1 8rem' }}>
            <Form.Label>Hora</Form.Label>
            <Form.Control
              type="time"
              step={60}
              required
              value={fields.hora}
              isInvalid={badHour}
              onChange={(e) => {
                set({ hora: e.target.value });
                setBadHour(false);
              }}
            />
            <Form.Control.Feedback type="invalid">Informe a hora no formato HH:MM.</Form.Control.Feedback>
          </Form.Group>
          <Form.Group controlId="assinatura-fuso" style={{ flex: '2 1 12rem', minWidth: 0 }}>
            <Form.Label>Fuso horário</Form.Label>
            <Form.Select value={fields.fusoHorario} onChange={(e) => set({ fusoHorario: e.target.value })}>
              {/* A subscription already has its zone: the default cannot be chosen again by sending nothing. */}
              {!editing && <option value="">{PORTAL_ZONE}</option>}
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </div>
        <Form.Group controlId="assinatura-conteudo">
          <Form.Label>Conteúdo</Form.Label>
          <Form.Select value={fields.conteudo} onChange={(e) => set({ conteudo: e.target.value })}>
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
