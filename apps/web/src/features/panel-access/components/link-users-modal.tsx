import { useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Painel } from '@paineis/contract/panels';
import type { Usuario365, UsuarioVinculado } from '@paineis/contract/users';
import { BusyButton } from '../../../components/busy-button.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useActiveUsers } from '../api/get-active-users.ts';
import { useLinkedUsers } from '../api/get-linked-users.ts';
import { useLinkUsers } from '../api/link-users.ts';
import { useShownPanel } from '../hooks/use-shown-panel.ts';
import { filterUsers, preparePickerUsers, selectedFirst } from '../utils/picker-users.ts';
import { ModalPending } from './modal-pending.tsx';
import { UserTable } from './user-table.tsx';
import { formatInteger } from '../../../lib/format.ts';

/** Shown while `painel` is set. */
export interface PanelModalProps {
  painel: Painel | null;
  onHide: () => void;
}

export const LOAD_USERS_ERROR = 'Erro ao carregar usuários';

/** 'Vincular Usuários ao Painel' (docs/requirements.md#link-users-modal): choose who may see a panel. */
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

function LinkUsersContent({ painel, onHide }: { painel: Painel; onHide: () => void }) {
  const users = useActiveUsers();
  const linked = useLinkedUsers(painel.id);
  // The selection starts from the links as they are now (not a cached copy being refreshed), once.
  const [ready, setReady] = useState(false);
  if (!ready && users.isSuccess && linked.isSuccess && !linked.isFetching) setReady(true);

  if (ready && users.data && linked.data) {
    return <UserPicker painel={painel} activeUsers={users.data} linkedUsers={linked.data} onHide={onHide} />;
  }
  return (
    <ModalPending
      queries={[users, linked]}
      message={(error) => errorMessage(error, LOAD_USERS_ERROR)}
      onHide={onHide}
    />
  );
}

interface UserPickerProps {
  painel: Painel;
  activeUsers: Usuario365[];
  linkedUsers: UsuarioVinculado[];
  onHide: () => void;
}

function UserPicker({ painel, activeUsers, linkedUsers, onHide }: UserPickerProps) {
  const searchId = useId();
  const link = useLinkUsers();
  const all = useMemo(() => preparePickerUsers(activeUsers, linkedUsers), [activeUsers, linkedUsers]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set(linkedUsers.map((u) => u.id)));
  const [query, setQuery] = useState('');
  const ordered = useMemo(() => selectedFirst(all, selected), [all, selected]);
  // Filtered in the keystroke's own render, so that the list changes in the frame that shows the typed character
  // (deferred to a later render, it came a frame or two after it).
  const visible = useMemo(() => filterUsers(ordered, query), [ordered, query]);

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const save = async () => {
    try {
      await link.mutateAsync({ id: painel.id, userIds: all.filter((u) => selected.has(u.id)).map((u) => u.id) });
      onHide();
    } catch (error) {
      // docs/requirements.md#error-catalogue: a link failure is only logged; the modal stays open to try again.
      console.error('Erro ao vincular usuários ao painel', error);
    }
  };

  const count = selected.size;
  return (
    <>
      <Modal.Body>
        <p className="text-body-secondary mb-3">
          Painel: <span className="fw-semibold text-body">{painel.nomePainel}</span>
        </p>
        <Form.Label htmlFor={searchId} visuallyHidden>
          Buscar usuário
        </Form.Label>
        <Form.Control
          id={searchId}
          type="search"
          placeholder="Buscar usuário..."
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
          className="mb-2"
        />
        <div className="small text-body-secondary mb-2" aria-live="polite">
          {formatInteger(visible.length)} de {formatInteger(all.length)} {all.length === 1 ? 'usuário' : 'usuários'} ·{' '}
          {formatInteger(count)} {count === 1 ? 'selecionado' : 'selecionados'}
        </div>
        <UserTable users={visible} selected={selected} onToggle={toggle} />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide} disabled={link.isPending}>
          Cancelar
        </Button>
        <BusyButton variant={count === 0 ? 'danger' : 'primary'} onClick={() => void save()} busy={link.isPending}>
          {count === 0 ? 'Desvincular Todos' : `Vincular (${count})`}
        </BusyButton>
      </Modal.Footer>
    </>
  );
}
