import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { SITUACAO_ROTULOS, type SituacaoAssinatura } from '@paineis/contract/subscription-constants';
import type { Assinatura } from '@paineis/contract/subscriptions';
import { BusyButton } from '../../../components/busy-button.tsx';
// This screen is a chunk of its own already: the dialog comes with it rather than on first use.
import ConfirmDialog from '../../../components/confirm-dialog-modal.tsx';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { formatDateMinutes } from '../../../lib/format.ts';
import {
  browserTimeZone,
  describeMoment,
  describeNext,
  describeSchedule,
  FORMATO_ROTULOS,
} from '../utils/subscription-schedule.ts';
import { useSubscriptions } from '../api/get-subscriptions.ts';
import { useSendSubscriptionNow } from '../api/send-subscription-now.ts';
import { useSubscriptionControls } from '../hooks/use-subscription-controls.ts';
import { SubscriptionModal } from './subscription-modal.tsx';

export const LOAD_ERROR = 'Erro ao carregar suas assinaturas.';
export const EMPTY = 'Você não tem assinaturas. Abra um painel e use Assinar para recebê-lo por e-mail.';
export const SEND_ERROR = 'Não foi possível solicitar o envio.';
export const SAVED = 'Assinatura salva.';

const SITUACAO_CORES: Record<SituacaoAssinatura, string> = {
  ativa: 'success',
  pausada: 'secondary',
  'sem-acesso': 'warning',
};

/** What is sent, when it is not the whole report. */
function contentOf(a: Assinatura): string | null {
  if (a.visaoId) return `Visão salva: ${a.nomeVisao ?? 'excluída'}`;
  if (a.pagina) return `Página: ${a.pagina}`;
  return null;
}

type Notice = { variant: 'success' | 'danger'; text: string };

/**
 * /assinaturas, 'Minhas assinaturas' (docs/requirements.md#subscriptions): the person's subscriptions, each with its
 * schedule, last and next delivery, state (with why it is not sent) and last failure, and 'Enviar agora', 'Pausar' /
 * 'Retomar', 'Editar' and 'Excluir'. A list rather than a table, so that on a phone each subscription reads top to
 * bottom, its reason and failure in full.
 */
export function MySubscriptionsPage() {
  const { data: assinaturas, error, isPending, isFetching, refetch } = useSubscriptions();
  const sendNow = useSendSubscriptionNow();
  const [notice, setNotice] = useState<Notice | null>(null);
  const controls = useSubscriptionControls({
    onNotice: (text) => setNotice(text === null ? null : { variant: 'danger', text }),
    deleteMessage: (a) => `A assinatura de ${a.nomePainel} será excluída e não será mais enviada.`,
  });
  const [editing, setEditing] = useState<Assinatura | null>(null);
  // Kept apart from `editing` so that the dialog keeps its content while it fades out.
  const [editOpen, setEditOpen] = useState(false);
  const zone = browserTimeZone();

  const send = (a: Assinatura) => {
    setNotice(null);
    sendNow.mutate(a.id, {
      onSuccess: (answer) => setNotice({ variant: 'success', text: answer.message }),
      onError: (e) => {
        // A 429 (too many 'Enviar agora' this hour) says in its message when to try again.
        setNotice({ variant: 'danger', text: errorMessage(e, SEND_ERROR) });
        // Gone meanwhile (deleted elsewhere): the list as it is now.
        if (statusOf(e) === 404) void refetch();
      },
    });
  };

  return (
    <Container fluid="xl" className="py-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4">
        <h1 className="h3 mb-0">Minhas assinaturas</h1>
        <Link to={paths.home} className="btn btn-outline-secondary">
          ← Voltar
        </Link>
      </div>

      {notice && (
        <Alert variant={notice.variant} dismissible closeLabel="Fechar" onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}

      {isPending ? (
        <LoadingSpinner />
      ) : error ? (
        <LoadErrorAlert
          message={errorMessage(error, LOAD_ERROR)}
          onRetry={() => void refetch()}
          retryDisabled={isFetching}
        />
      ) : assinaturas.length === 0 ? (
        <p className="text-body-secondary text-center py-5 mb-0">{EMPTY}</p>
      ) : (
        <ul className="list-group shadow-sm" aria-label="Assinaturas">
          {assinaturas.map((a) => (
            <SubscriptionItem
              key={a.id}
              assinatura={a}
              zone={zone}
              sending={sendNow.isPending && sendNow.variables === a.id}
              toggling={controls.isToggling(a)}
              onSend={() => send(a)}
              onToggle={() => controls.toggle(a)}
              onEdit={() => {
                setNotice(null);
                setEditing(a);
                setEditOpen(true);
              }}
              onDelete={() => controls.askDelete(a)}
            />
          ))}
        </ul>
      )}

      {editing && (
        <SubscriptionModal
          show={editOpen}
          painelId={editing.painelId}
          editing={editing}
          onHide={() => setEditOpen(false)}
          onSaved={() => {
            setEditOpen(false);
            setNotice({ variant: 'success', text: SAVED });
          }}
        />
      )}
      <ConfirmDialog {...controls.deleteDialog} />
    </Container>
  );
}

interface SubscriptionItemProps {
  assinatura: Assinatura;
  /** The reader's zone: a schedule in it is written without its name. */
  zone: string;
  sending: boolean;
  toggling: boolean;
  onSend: () => void;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One subscription: its panel, a few facts side by side (stacked on a phone), and its actions. */
function SubscriptionItem({
  assinatura: a,
  zone,
  sending,
  toggling,
  onSend,
  onToggle,
  onEdit,
  onDelete,
}: SubscriptionItemProps) {
  const nameId = `assinatura-${a.id}`;
  const content = contentOf(a);
  const of = `a assinatura de ${a.nomePainel}`;
  return (
    <li className="list-group-item py-3" aria-labelledby={nameId}>
      <h2 className="h6 mb-2" id={nameId}>
        <Link to={paths.viewer(a.painelId)}>{a.nomePainel}</Link>
      </h2>
      <dl className="row row-cols-2 row-cols-md-5 g-2 mb-2 small">
        <Fact label="Formato">{FORMATO_ROTULOS[a.formato]}</Fact>
        <Fact label="Agenda">
          {describeSchedule(a, zone)}
          {content && <div className="text-body-secondary">{content}</div>}
        </Fact>
        <Fact label="Próximo envio">{describeNext(a, zone)}</Fact>
        <Fact label="Último envio">{describeMoment(a.ultimoEnvio, a.fusoHorario, zone)}</Fact>
        <Fact label="Situação">
          <Badge bg={SITUACAO_CORES[a.situacao]} text={a.situacao === 'sem-acesso' ? 'dark' : undefined}>
            {SITUACAO_ROTULOS[a.situacao]}
          </Badge>
          {a.motivoSituacao && <div className="text-body-secondary mt-1">{a.motivoSituacao}</div>}
          {a.ultimaFalha && (
            <div className="text-danger mt-1">
              Falha em {formatDateMinutes(new Date(a.ultimaFalha.em))}: {a.ultimaFalha.motivo}
            </div>
          )}
        </Fact>
      </dl>
      <div className="d-flex flex-wrap gap-1">
        <BusyButton
          size="sm"
          variant="outline-primary"
          busy={sending}
          onClick={onSend}
          aria-label={`Enviar agora ${of}`}
        >
          Enviar agora
        </BusyButton>
        <BusyButton
          size="sm"
          variant="outline-secondary"
          busy={toggling}
          onClick={onToggle}
          aria-label={`${a.ativa ? 'Pausar' : 'Retomar'} ${of}`}
        >
          {a.ativa ? 'Pausar' : 'Retomar'}
        </BusyButton>
        <Button size="sm" variant="outline-secondary" onClick={onEdit} aria-label={`Editar ${of}`}>
          Editar
        </Button>
        <Button size="sm" variant="outline-danger" onClick={onDelete} aria-label={`Excluir ${of}`}>
          Excluir
        </Button>
      </div>
    </li>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="col">
      <dt className="fw-normal text-body-secondary">{label}</dt>
      <dd className="mb-0">{children}</dd>
    </div>
  );
}
