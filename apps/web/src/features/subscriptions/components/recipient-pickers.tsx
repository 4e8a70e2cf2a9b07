import { useMemo } from 'react';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { ChosenList, groupItem, ItemCombobox, personItem, type ComboboxItem } from './item-combobox.tsx';

export const PEOPLE_LOAD_ERROR = 'Erro ao carregar as pessoas';
export const GROUPS_LOAD_ERROR = 'Erro ao carregar os grupos';

/** A query as a picker needs it: whether its list is there, and, when it failed, why, and a way to ask again. */
export interface PickerQuery<T = unknown> {
  data?: T[] | undefined;
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** The picker's list failed to load: why, with 'Tentar novamente'. */
export function PickerLoadError({ query, message }: { query: PickerQuery; message: string }) {
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

/** One list to choose from: the combobox over it, its load error, and those chosen, each with a button to remove it. */
function ChoicePicker({
  label,
  chosenLabel,
  placeholder,
  loadingPlaceholder,
  emptyText,
  loadError,
  query,
  items,
  chosen,
  onChange,
}: {
  label: string;
  chosenLabel: string;
  placeholder: string;
  loadingPlaceholder: string;
  emptyText: string;
  loadError: string;
  query: PickerQuery;
  items: ComboboxItem[];
  chosen: ComboboxItem[];
  onChange: (chosen: ComboboxItem[]) => void;
}) {
  const chosenIds = useMemo(() => new Set(chosen.map((item) => item.id)), [chosen]);
  return (
    <div className="mb-3">
      <ItemCombobox
        label={label}
        placeholder={query.isPending ? loadingPlaceholder : placeholder}
        items={items}
        exclude={chosenIds}
        onChoose={(item) => onChange([...chosen, item])}
        emptyText={emptyText}
        disabled={!query.isSuccess}
      />
      <PickerLoadError query={query} message={loadError} />
      <ChosenList
        label={chosenLabel}
        items={chosen}
        onRemove={(id) => onChange(chosen.filter((item) => item.id !== id))}
      />
    </div>
  );
}

type Person = Parameters<typeof personItem>[0];
type Group = Parameters<typeof groupItem>[0];

/**
 * The people and the directory groups an administrator names as recipients ('Nova assinatura', the alerts), each
 * picked from its list and shown as chosen; `labels` names the comboboxes and the lists of those chosen.
 */
export function RecipientPickers({
  users,
  groups,
  people,
  onPeople,
  chosenGroups,
  onGroups,
  labels,
}: {
  users: PickerQuery<Person>;
  groups: PickerQuery<Group>;
  people: ComboboxItem[];
  onPeople: (people: ComboboxItem[]) => void;
  chosenGroups: ComboboxItem[];
  onGroups: (groups: ComboboxItem[]) => void;
  labels: { people: string; peopleChosen: string; groups: string; groupsChosen: string };
}) {
  const userItems = useMemo(() => (users.data ?? []).map(personItem), [users.data]);
  const groupItems = useMemo(() => (groups.data ?? []).map(groupItem), [groups.data]);
  return (
    <>
      <ChoicePicker
        label={labels.people}
        chosenLabel={labels.peopleChosen}
        placeholder="Buscar por nome ou e-mail..."
        loadingPlaceholder="Carregando pessoas..."
        emptyText="Nenhuma pessoa encontrada."
        loadError={PEOPLE_LOAD_ERROR}
        query={users}
        items={userItems}
        chosen={people}
        onChange={onPeople}
      />
      <ChoicePicker
        label={labels.groups}
        chosenLabel={labels.groupsChosen}
        placeholder="Buscar grupo..."
        loadingPlaceholder="Carregando grupos..."
        emptyText="Nenhum grupo encontrado."
        loadError={GROUPS_LOAD_ERROR}
        query={groups}
        items={groupItems}
        chosen={chosenGroups}
        onChange={onGroups}
      />
    </>
  );
}
