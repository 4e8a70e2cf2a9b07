import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { EVENTOS_ALERTA, NOMES_EVENTOS_ALERTA, type EventoAlerta } from '@paineis/contract/alert-constants';
import type { Alertas } from '@paineis/contract/alerts';
import { BusyButton } from '../../../components/busy-button.tsx';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useQuery } from '@tanstack/react-query';
import { activeUsersQuery } from '../../../lib/api/get-active-users.ts';
import { groupsQuery } from '../../../lib/api/get-groups.ts';
import { formatDateMinutes } from '../../../lib/format.ts';
import { useAlerts } from '../api/get-alerts.ts';
import { useUpdateAlerts } from '../api/update-alerts.ts';
import { personItem, type ComboboxItem } from './item-combobox.tsx';
import { RecipientPickers } from './recipient-pickers.tsx';

export const ALERTS_TITLE = 'Alertas';
export const ALERTS_LOAD_ERROR = 'Não foi possível carregar os alertas.';
export const ALERTS_SAVE_ERROR = 'Não foi possível salvar os alertas.';
export const ALERTS_SAVED = 'Alertas salvos.';
export const ALERTS_NEED_RECIPIENT = 'Escolha ao menos uma pessoa ou um grupo para receber os alertas ligados.';

/** The incidents open now: what, since when, and whether its message went. */
function OpenIncidents({ alerts }: { alerts: Alertas }) {
  if (alerts.abertos.length === 0) {
    return <p className="small text-body-secondary mb-0">Nenhum incidente aberto.</p>;
  }
  return (
    <ul className="small mb-0" aria-label="Incidentes abertos">
      {alerts.abertos.map((i) => (
        <li key={i.id}>
          <strong>{NOMES_EVENTOS_ALERTA[i.evento]}</strong>: {i.titulo} — desde{' '}
          {formatDateMinutes(new Date(i.abertoEm))}
          {i.avisoAberturaEm
            ? ` (avisado em ${formatDateMinutes(new Date(i.avisoAberturaEm))})`
            : ' (sem aviso enviado)'}
          {i.mensagem && <div className="text-body-secondary">{i.mensagem}</div>}
        </li>
      ))}
    </ul>
  );
}

/**
 * 'Alertas' on /assinaturas/todas (docs/requirements.md#alerts): which events send a message (a dataset's failed
 * refresh, a panel's unavailable report), to which people and groups, and the incidents open now.
 */
export function AlertsSection() {
  const alerts = useAlerts();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <Card className="shadow-sm mt-4">
      <Card.Body>
        <h2 className="h5">{ALERTS_TITLE}</h2>
        <p className="small text-body-secondary">
          Uma mensagem quando a atualização dos dados de um painel falha ou o painel fica indisponível, e outra quando
          volta ao normal.
        </p>
        {saved && (
          <Alert variant="success" dismissible closeLabel="Fechar" onClose={() => setSaved(false)}>
            {ALERTS_SAVED}
          </Alert>
        )}
        {alerts.data ? (
          <>
            {editing ? (
              <AlertsForm
                alerts={alerts.data}
                onCancel={() => setEditing(false)}
                onSaved={() => {
                  setEditing(false);
                  setSaved(true);
                }}
              />
            ) : (
              <Summary
                alerts={alerts.data}
                onEdit={() => {
                  setSaved(false);
                  setEditing(true);
                }}
              />
            )}
            <h3 className="h6 mt-4">Incidentes abertos</h3>
            <OpenIncidents alerts={alerts.data} />
          </>
        ) : alerts.isError ? (
          <LoadErrorAlert
            message={errorMessage(alerts.error, ALERTS_LOAD_ERROR)}
            retryDisabled={alerts.isFetching}
            onRetry={() => void alerts.refetch()}
          />
        ) : (
          <LoadingSpinner />
        )}
      </Card.Body>
    </Card>
  );
}

/** The events on and who receives them, as saved. */
function Summary({ alerts, onEdit }: { alerts: Alertas; onEdit: () => void }) {
  const names = [
    ...alerts.destinatarios.usuarios.map((p) => p.displayName),
    ...alerts.destinatarios.grupos.map((g) => `${g.displayName} (grupo)`),
  ];
  return (
    <div>
      <p className="mb-1">
        <strong>Eventos:</strong>{' '}
        {alerts.eventos.length === 0
          ? 'nenhum (os alertas estão desligados)'
          : alerts.eventos.map((e) => NOMES_EVENTOS_ALERTA[e]).join(', ')}
      </p>
      <p className="mb-2">
        <strong>Destinatários:</strong> {names.length === 0 ? 'ninguém' : names.join(', ')}
      </p>
      <Button variant="outline-primary" size="sm" onClick={onEdit}>
        Alterar alertas
      </Button>
    </div>
  );
}

function AlertsForm({ alerts, onCancel, onSaved }: { alerts: Alertas; onCancel: () => void; onSaved: () => void }) {
  // Loaded when the settings are being changed only: tens of thousands of people are not read on every visit.
  const users = useQuery(activeUsersQuery);
  const groups = useQuery(groupsQuery);
  const save = useUpdateAlerts();
  const [eventos, setEventos] = useState<EventoAlerta[]>(alerts.eventos);
  // Mounted for each change: it starts from the settings as saved.
  const [people, setPeople] = useState<ComboboxItem[]>(() => alerts.destinatarios.usuarios.map(personItem));
  const [chosenGroups, setChosenGroups] = useState<ComboboxItem[]>(() =>
    alerts.destinatarios.grupos.map((g) => ({ id: g.id, label: g.displayName })),
  );
  const [notice, setNotice] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (eventos.length > 0 && people.length + chosenGroups.length === 0) {
      setNotice(ALERTS_NEED_RECIPIENT);
      return;
    }
    setNotice(null);
    save.mutate(
      {
        eventos,
        destinatarios: { usuarios: people.map((p) => p.id), grupos: chosenGroups.map((g) => g.id) },
      },
      {
        onSuccess: onSaved,
        onError: (error) => setNotice(errorMessage(error, ALERTS_SAVE_ERROR)),
      },
    );
  }

  return (
    <Form onSubmit={submit} noValidate>
      {notice && (
        <Alert variant="danger" dismissible closeLabel="Fechar" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Eventos</legend>
        {EVENTOS_ALERTA.map((evento) => (
          <Form.Check
            key={evento}
            id={`alerta-${evento}`}
            label={NOMES_EVENTOS_ALERTA[evento]}
            checked={eventos.includes(evento)}
            onChange={(e) =>
              setEventos((current) =>
                e.target.checked
                  ? EVENTOS_ALERTA.filter((x) => x === evento || current.includes(x))
                  : current.filter((x) => x !== evento),
              )
            }
          />
        ))}
      </fieldset>
      <RecipientPickers
        users={users}
        groups={groups}
        people={people}
        onPeople={setPeople}
        chosenGroups={chosenGroups}
        onGroups={setChosenGroups}
        labels={{
          people: 'Pessoas que recebem os alertas',
          peopleChosen: 'Pessoas dos alertas',
          groups: 'Grupos que recebem os alertas',
          groupsChosen: 'Grupos dos alertas',
        }}
      />
      <div className="d-flex gap-2">
        <BusyButton type="submit" busy={save.isPending}>
          Salvar
        </BusyButton>
        <Button variant="outline-secondary" onClick={onCancel} disabled={save.isPending}>
          Cancelar
        </Button>
      </div>
    </Form>
  );
}
