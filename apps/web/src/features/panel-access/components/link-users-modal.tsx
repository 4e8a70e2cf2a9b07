import { useId, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import type { Grupo365, GrupoVinculado } from '@paineis/contract/groups';
import type { Painel } from '@paineis/contract/panels';
import type { Usuario365, UsuarioVinculado } from '@paineis/contract/users';
import { BusyButton } from '../../../components/busy-button.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatInteger } from '../../../lib/format.ts';
import { useActiveUsers } from '../../../lib/api/get-active-users.ts';
import { useGroups } from '../../../lib/api/get-groups.ts';
import { useLinkedGroups } from '../api/get-linked-groups.ts';
import { useLinkedUsers } from '../api/get-linked-users.ts';
import { useLinkGroups } from '../api/link-groups.ts';
import { useLinkUsers } from '../api/link-users.ts';
import { useShownPanel } from '../hooks/use-shown-panel.ts';
import {
  filterGroups,
  preparePickerGroups,
  sameIds,
  selectedGroupsFirst,
  type PickerGroup,
} from '../utils/picker-groups.ts';
import { filterUsers, preparePickerUsers, selectedFirst } from '../utils/picker-users.ts';
import { GroupList } from './group-list.tsx';
import { SearchBox } from './search-box.tsx';
import { ModalPending } from './modal-pending.tsx';
import { UserTable } from './user-table.tsx';

/** Shown while `painel` is set. */
export interface PanelModalProps {
  painel: Painel | null;
  onHide: () => void;
}

export const LOAD_USERS_ERROR = 'Erro ao carregar usuários';
export const LOAD_GROUPS_ERROR = 'Erro ao carregar grupos';

/**
 * 'Vincular Usuários ao Painel' (docs/requirements.md#link-users-modal): choose who may see a panel, people one by
 * one ('Pessoas') and Entra groups, whose people at any depth may see it ('Grupos', decision 018).
 */
export function LinkUsersModal({ painel, onHide }: PanelModalProps) {
  const shown = useShownPanel(painel);
  const titleId = useId();
  return (
    <Modal show={painel !== null} onHide={onHide} size="lg" aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id={titleId}>Vincular Usuários ao Painel</Modal.Title>
      </Modal.Header>
      {shown && <LinkUsersContent key={shown.id} painel={shown} onHide={onHide} />}
    </Modal>
  );
}

/** A query as the groups tab needs it: its answer, or its failure and a way to try again. */
interface LoadedQuery<T> {
  data: T | undefined;
  isSuccess: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

function LinkUsersContent({ painel, onHide }: { painel: Painel; onHide: () => void }) {
  const users = useActiveUsers();
  const linked = useLinkedUsers(painel.id);
  const groups = useGroups();
  const linkedGroups = useLinkedGroups(painel.id);
  // The selection starts from the links as they are now (not a cached copy being refreshed), once.
  const [ready, setReady] = useState(false);
  // The groups are waited for too, so the footer's count does not change under the admin's pointer; when they fail,
  // the people can still be linked and the groups tab says what went wrong.
  const groupsSettled =
    (groups.isSuccess && linkedGroups.isSuccess && !linkedGroups.isFetching) || groups.isError || linkedGroups.isError;
  if (!ready && users.isSuccess && linked.isSuccess && !linked.isFetching && groupsSettled) setReady(true);

  if (ready && users.data && linked.data) {
    return (
      <LinkPicker
        painel={painel}
        activeUsers={users.data}
        linkedUsers={linked.data}
        groups={groups}
        linkedGroups={linkedGroups}
        onHide={onHide}
      />
    );
  }
  return (
    <ModalPending
      queries={[users, linked]}
      message={(error) => errorMessage(error, LOAD_USERS_ERROR)}
      onHide={onHide}
    />
  );
}

interface LinkPickerProps {
  painel: Painel;
  activeUsers: Usuario365[];
  linkedUsers: UsuarioVinculado[];
  groups: LoadedQuery<Grupo365[]>;
  linkedGroups: LoadedQuery<GrupoVinculado[]>;
  onHide: () => void;
}

/** The groups' side of the modal once they have loaded: every group, the ids linked now, and those ticked. */
interface GroupSelection {
  all: PickerGroup[];
  linkedIds: string[];
  selected: ReadonlySet<string>;
}

type TabKey = 'pessoas' | 'grupos';

function LinkPicker({ painel, activeUsers, linkedUsers, groups, linkedGroups, onHide }: LinkPickerProps) {
  const tabsId = useId();
  const link = useLinkUsers();
  const linkGroupsMutation = useLinkGroups();
  const [tab, setTab] = useState<TabKey>('pessoas');

  const all = useMemo(() => preparePickerUsers(activeUsers, linkedUsers), [activeUsers, linkedUsers]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set(linkedUsers.map((u) => u.id)));
  const [query, setQuery] = useState('');

  // Set once the groups have loaded (now, or after 'Tentar novamente' in their tab).
  const [groupSelection, setGroupSelection] = useState<GroupSelection | null>(null);
  if (groupSelection === null && groups.data && linkedGroups.data && !groups.isFetching && !linkedGroups.isFetching) {
    const linkedIds = linkedGroups.data.map((g) => g.id);
    setGroupSelection({
      all: preparePickerGroups(groups.data, linkedGroups.data),
      linkedIds,
      selected: new Set(linkedIds),
    });
  }
  const [groupQuery, setGroupQuery] = useState('');

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const toggleGroup = (id: string) =>
    setGroupSelection((current) => {
      if (!current) return current;
      const next = new Set(current.selected);
      if (!next.delete(id)) next.add(id);
      return { ...current, selected: next };
    });

  const busy = link.isPending || linkGroupsMutation.isPending;

  const save = async () => {
    const userIds = all.filter((u) => selected.has(u.id)).map((u) => u.id);
    const groupIds = groupSelection?.all.filter((g) => groupSelection.selected.has(g.id)).map((g) => g.id);
    const peopleChanged = !sameIds(
      userIds,
      linkedUsers.map((u) => u.id),
    );
    const groupsChanged = groupSelection !== null && !sameIds(groupSelection.selected, groupSelection.linkedIds);
    const calls: { what: string; call: () => Promise<unknown> }[] = [];
    // Only what changed is sent. With nothing changed at all, the people are sent as they are, as this button always
    // did: the admin asked to save, and the server answers with the links as they stand.
    if (peopleChanged || !groupsChanged) {
      calls.push({ what: 'usuários', call: () => link.mutateAsync({ id: painel.id, userIds }) });
    }
    if (groupsChanged && groupIds) {
      calls.push({ what: 'grupos', call: () => linkGroupsMutation.mutateAsync({ id: painel.id, groupIds }) });
    }
    const results = await Promise.allSettled(calls.map(({ call }) => call()));
    let failed = false;
    results.forEach((result, index) => {
      if (result.status === 'rejected') {
        failed = true;
        // docs/requirements.md#error-catalogue: a link failure is only logged; the modal stays open to try again.
        console.error(`Erro ao vincular ${calls[index]!.what} ao painel`, result.reason);
      }
    });
    if (!failed) onHide();
  };

  const peopleCount = selected.size;
  const groupCount = groupSelection?.selected.size ?? 0;
  const count = peopleCount + groupCount;
  return (
    <>
      <Modal.Body>
        <p className="text-body-secondary mb-3">
          Painel: <span className="fw-semibold text-body">{painel.nomePainel}</span>
        </p>
        <Tabs
          id={tabsId}
          activeKey={tab}
          onSelect={(key) => setTab(key === 'grupos' ? 'grupos' : 'pessoas')}
          transition={false}
          // The tab not shown leaves the page: its checkboxes would otherwise be found (and counted) with the others.
          mountOnEnter
          unmountOnExit
          className="mb-3"
        >
          <Tab eventKey="pessoas" title={`Pessoas (${formatInteger(peopleCount)})`}>
            <PeoplePane users={all} selected={selected} query={query} onQueryChange={setQuery} onToggle={toggle} />
          </Tab>
          <Tab eventKey="grupos" title={groupSelection ? `Grupos (${formatInteger(groupCount)})` : 'Grupos'}>
            {groupSelection ? (
              <GroupsPane
                selection={groupSelection}
                query={groupQuery}
                onQueryChange={setGroupQuery}
                onToggle={toggleGroup}
              />
            ) : (
              <GroupsLoadError queries={[groups, linkedGroups]} />
            )}
          </Tab>
        </Tabs>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
          Cancelar
        </Button>
        <BusyButton variant={count === 0 ? 'danger' : 'primary'} onClick={() => void save()} busy={busy}>
          {count === 0 ? 'Desvincular Todos' : `Vincular (${count})`}
        </BusyButton>
      </Modal.Footer>
    </>
  );
}

interface PeoplePaneProps {
  users: ReturnType<typeof preparePickerUsers>;
  selected: ReadonlySet<string>;
  query: string;
  onQueryChange: (query: string) => void;
  onToggle: (id: string) => void;
}

function PeoplePane({ users, selected, query, onQueryChange, onToggle }: PeoplePaneProps) {
  const ordered = useMemo(() => selectedFirst(users, selected), [users, selected]);
  // Filtered in the keystroke's own render, so that the list changes in the frame that shows the typed character
  // (deferred to a later render, it came a frame or two after it).
  const visible = useMemo(() => filterUsers(ordered, query), [ordered, query]);
  const count = selected.size;
  return (
    <>
      <SearchBox label="Buscar usuário" placeholder="Buscar usuário..." value={query} onChange={onQueryChange} />
      <div className="small text-body-secondary mb-2" aria-live="polite">
        {formatInteger(visible.length)} de {formatInteger(users.length)} {users.length === 1 ? 'usuário' : 'usuários'} ·{' '}
        {formatInteger(count)} {count === 1 ? 'selecionado' : 'selecionados'}
      </div>
      <UserTable users={visible} selected={selected} onToggle={onToggle} />
    </>
  );
}

interface GroupsPaneProps {
  selection: GroupSelection;
  query: string;
  onQueryChange: (query: string) => void;
  onToggle: (id: string) => void;
}

function GroupsPane({ selection, query, onQueryChange, onToggle }: GroupsPaneProps) {
  const ordered = useMemo(
    () => selectedGroupsFirst(selection.all, selection.selected),
    [selection.all, selection.selected],
  );
  const visible = useMemo(() => filterGroups(ordered, query), [ordered, query]);
  const linked = useMemo(() => new Set(selection.linkedIds), [selection.linkedIds]);
  const total = selection.all.length;
  const count = selection.selected.size;
  return (
    <>
      <SearchBox label="Buscar grupo" placeholder="Buscar grupo..." value={query} onChange={onQueryChange} />
      <div className="small text-body-secondary mb-2" aria-live="polite">
        {formatInteger(visible.length)} de {formatInteger(total)} {total === 1 ? 'grupo' : 'grupos'} ·{' '}
        {formatInteger(count)} {count === 1 ? 'selecionado' : 'selecionados'}
      </div>
      <GroupList groups={visible} selected={selection.selected} linked={linked} onToggle={onToggle} />
    </>
  );
}

/** The groups tab when the groups could not be loaded: the people can still be linked meanwhile. */
function GroupsLoadError({ queries }: { queries: LoadedQuery<unknown>[] }) {
  const failed = queries.filter((q) => q.isError);
  if (failed.length === 0 || queries.some((q) => q.isFetching)) return <LoadingSpinner />;
  const reason = errorMessage(failed[0]!.error, '');
  return (
    <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2 mb-0">
      <div className="me-auto">
        <div>{LOAD_GROUPS_ERROR}</div>
        {reason && <div className="small">{reason}</div>}
      </div>
      <Button variant="outline-danger" size="sm" onClick={() => failed.forEach((q) => void q.refetch())}>
        Tentar novamente
      </Button>
    </Alert>
  );
}
