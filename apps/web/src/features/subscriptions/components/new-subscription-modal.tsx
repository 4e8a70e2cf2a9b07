import { useId, useMemo, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { ASSINATURA_MESSAGES } from '@paineis/contract/subscription-constants';
import { BusyButton } from '../../../components/busy-button.tsx';
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
import { ItemCombobox, type ComboboxItem } from './item-combobox.tsx';
import { PickerLoadError, RecipientPickers } from './recipient-pickers.tsx';

export { GROUPS_LOAD_ERROR, PEOPLE_LOAD_ERROR } from './recipient-pickers.tsx';

export const NEW_SUBSCRIPTION_TITLE = 'Nova assinatura para pessoas e grupos';
export const CHOOSE_PANEL = 'Escolha um painel.';
export const CREATE_ERROR = 'Não foi possível criar a assinatura.';
export const PANELS_LOAD_ERROR = 'Erro ao carregar os painéis';

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

function NewSubscriptionForm({ onHide, onCreated }: Omit<NewSubscriptionModalProps, 'show'>) {
  const panels = usePanels();
  const users = useActiveUsers();
  const groups = useGroups();
  const create = useCreateSubscription();

  const panelItems = useMemo(
    () => (panels.data ?? []).map((p) => ({ id: String(p.id), label: p.nomePainel, detail: p.classificacaoNome })),
    [panels.data],
  );

  const [panel, setPanel] = useState<ComboboxItem | null>(null);
  const [people, setPeople] = useState<ComboboxItem[]>([]);
  const [chosenGroups, setChosenGroups] = useState<ComboboxItem[]>([]);
  const [schedule, setSchedule] = useState<ScheduleValue>(DEFAULT_SCHEDULE);
  // What the form itself found missing; the server's refusals come from the mutation.
  const [missing, setMissing] = useState<string | null>(null);
  const [badHour, setBadHour] = useState(false);
  const [badInterval, setBadInterval] = useState(false);

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
        <RecipientPickers
          users={users}
          groups={groups}
          people={people}
          onPeople={setPeople}
          chosenGroups={chosenGroups}
          onGroups={setChosenGroups}
          labels={{
            people: 'Pessoas',
            peopleChosen: 'Pessoas escolhidas',
            groups: 'Grupos',
            groupsChosen: 'Grupos escolhidos',
          }}
        />
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
