import { useId, useMemo, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { ASSINATURA_MESSAGES } from '@paineis/contract/subscription-constants';
import { BusyButton } from '../../../components/busy-button.tsx';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { SubscriptionScheduleFields } from './subscription-schedule-fields.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import {
  DEFAULT_SCHEDULE,
  scheduleBody,
  validHour,
  validInterval,
  type ScheduleValue,
} from '../utils/subscription-schedule.ts';
import { useCreateSubscription } from '../api/create-subscription.ts';
import { useActiveUsers } from '../../../lib/api/get-active-users.ts';
import { useGroups } from '../../../lib/api/get-groups.ts';
import { usePanels } from '../api/get-panels.ts';
import { ChosenList, groupItem, ItemCombobox, personItem, type ComboboxItem } from './item-combobox.tsx';

export const NEW_SUBSCRIPTION_TITLE = 'Nova assinatura para pessoas e grupos';
export const CHOOSE_PANEL = 'Escolha um painel.';
export const CREATE_ERROR = 'Não foi possível criar a assinatura.';
export const PANELS_LOAD_ERROR = 'Erro ao carregar os painéis';
export const PEOPLE_LOAD_ERROR = 'Erro ao carregar as pessoas';
export const GROUPS_LOAD_ERROR = 'Erro ao carregar os grupos';

interface NewSubscriptionModalProps {
  show: boolean;
  onHide: () => void;
  /** The subscription was created (the list refreshes by itself). */
  onCreated: () => void;
}

/**
 * 'Nova assinatura para pessoas e grupos': a panel, the people and directory groups who receive it (each with their
 * own identity, at every delivery), and its schedule.
 */
export function NewSubscriptionModal({ show, onHide, onCreated }: NewSubscriptionModalProps) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id={titleId}>{NEW_SUBSCRIPTION_TITLE}</Modal.Title>
      </Modal.Header>
      {/* Mounted while shown only: every opening starts from an empty form. */}
      {show && <NewSubscriptionForm onHide={onHide} onCreated={onCreated} />}
    </Modal>
  );
}

/** A query as a picker needs it, to say it failed and to ask again. */
interface PickerQuery {
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

function PickerLoadError({ query, message }: { query: PickerQuery; message: string }) {
  if (!query.isError) return null;
  return (
    <LoadErrorAlert
      className="mt-2 mb-0"
      message={errorMessage(query.error, message)}
      retryDisabled={query.isFetching}
      onRetry={() => void query.refetch()}
    />
  );
}

const withoutId = <T extends ComboboxItem>(list: T[], id: string) => list.filter((item) => item.id !== id);

function NewSubscriptionForm({ onHide, onCreated }: Omit<NewSubscriptionModalProps, 'show'>) {
  const panels = usePanels();
  const users = useActiveUsers();
  const groups = useGroups();
  const create = useCreateSubscription();

  const panelItems = useMemo(
    () => (panels.data ?? []).map((p) => ({ id: String(p.id), label: p.nomePainel, detail: p.classificacaoNome })),
    [panels.data],
  );
  const userItems = useMemo(() => (users.data ?? []).map(personItem), [users.data]);
  const groupItems = useMemo(() => (groups.data ?? []).map(groupItem), [groups.data]);

  const [panel, setPanel] = useState<ComboboxItem | null>(null);
  const [people, setPeople] = useState<ComboboxItem[]>([]);
  const [chosenGroups, setChosenGroups] = useState<ComboboxItem[]>([]);
  const [schedule, setSchedule] = useState<ScheduleValue>(DEFAULT_SCHEDULE);
  // What the form itself found missing; the server's refusals come from the mutation.
  const [missing, setMissing] = useState<string | null>(null);
  const [badHour, setBadHour] = useState(false);
  const [badInterval, setBadInterval] = useState(false);

  const peopleIds = useMemo(() => new Set(people.map((p) => p.id)), [people]);
  const groupIds = useMemo(() => new Set(chosenGroups.map((g) => g.id)), [chosenGroups]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const problem = !panel
      ? CHOOSE_PANEL
      : people.length + chosenGroups.length === 0
        ? ASSINATURA_MESSAGES.semDestinatarios
        : null;
    setMissing(problem);
    setBadHour(!validHour(schedule));
    setBadInterval(!validInterval(schedule));
    if (problem || !panel || !validHour(schedule) || !validInterval(schedule)) return;
    create.reset();
    create.mutate(
      {
        painelId: Number(panel.id),
        ...scheduleBody(schedule),
        destinatarios: { usuarios: people.map((p) => p.id), grupos: chosenGroups.map((g) => g.id) },
      },
      { onSuccess: onCreated },
    );
  };

  const error = missing ?? (create.isError ? errorMessage(create.error, CREATE_ERROR) : null);
  return (
    <Form onSubmit={submit} noValidate>
      <Modal.Body>
        <div className="mb-3">
          {panel ? (
            <div>
              <div className="form-label">Painel</div>
              <div className="d-flex align-items-center gap-2">
                <span className="fw-semibold">{panel.label}</span>
                <Button variant="link" size="sm" className="p-0" onClick={() => setPanel(null)}>
                  Trocar painel
                </Button>
              </div>
            </div>
          ) : (
            <ItemCombobox
              label="Painel"
              placeholder={panels.isPending ? 'Carregando painéis...' : 'Buscar painel...'}
              items={panelItems}
              onChoose={setPanel}
              emptyText="Nenhum painel encontrado."
              disabled={!panels.isSuccess}
            />
          )}
          <PickerLoadError query={panels} message={PANELS_LOAD_ERROR} />
        </div>
        <div className="mb-3">
          <ItemCombobox
            label="Pessoas"
            placeholder={users.isPending ? 'Carregando pessoas...' : 'Buscar por nome ou e-mail...'}
            items={userItems}
            exclude={peopleIds}
            onChoose={(person) => setPeople((current) => [...current, person])}
            emptyText="Nenhuma pessoa encontrada."
            disabled={!users.isSuccess}
          />
          <PickerLoadError query={users} message={PEOPLE_LOAD_ERROR} />
          <ChosenList
            label="Pessoas escolhidas"
            items={people}
            onRemove={(id) => setPeople((current) => withoutId(current, id))}
          />
        </div>
        <div className="mb-3">
          <ItemCombobox
            label="Grupos"
            placeholder={groups.isPending ? 'Carregando grupos...' : 'Buscar grupo...'}
            items={groupItems}
            exclude={groupIds}
            onChoose={(group) => setChosenGroups((current) => [...current, group])}
            emptyText="Nenhum grupo encontrado."
            disabled={!groups.isSuccess}
          />
          <PickerLoadError query={groups} message={GROUPS_LOAD_ERROR} />
          <ChosenList
            label="Grupos escolhidos"
            items={chosenGroups}
            onRemove={(id) => setChosenGroups((current) => withoutId(current, id))}
          />
        </div>
        <SubscriptionScheduleFields
          value={schedule}
          onChange={(value) => {
            setSchedule(value);
            setBadHour(false);
            setBadInterval(false);
          }}
          idPrefix="nova-assinatura"
          badHour={badHour}
          badInterval={badInterval}
        />
        {error && (
          <Alert variant="danger" className="mt-3 mb-0">
            {error}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide} disabled={create.isPending}>
          Cancelar
        </Button>
        <BusyButton type="submit" busy={create.isPending}>
          Criar assinatura
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}
