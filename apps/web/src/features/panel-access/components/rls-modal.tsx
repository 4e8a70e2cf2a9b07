import { useId, useMemo, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import type { Grupo365 } from '@paineis/contract/groups';
import type { Painel } from '@paineis/contract/panels';
import type { RlsConfiguration } from '@paineis/contract/rls';
import { MAX_RLS_ROLE_NAME_LENGTH, rlsConfigurationProblems } from '@paineis/contract/rls-rules';
import { sameRoleName } from '@paineis/contract/text';
import type { UsuarioVinculado } from '@paineis/contract/users';
import { BusyButton } from '../../../components/busy-button.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useGroups } from '../../../lib/api/get-groups.ts';
import { useLinkedGroups } from '../api/get-linked-groups.ts';
import { useLinkedUsers } from '../api/get-linked-users.ts';
import { useRls } from '../api/get-rls.ts';
import { useSaveRls } from '../api/save-rls.ts';
import { useShownPanel } from '../hooks/use-shown-panel.ts';
import { emailKey } from '../utils/email-key.ts';
import { preparePickerGroups } from '../utils/picker-groups.ts';
import type { PanelModalProps } from './link-users-modal.tsx';
import { ModalPending } from './modal-pending.tsx';
import { RlsRoleCard } from './rls-role-card.tsx';

export const RLS_LOAD_ERROR = 'Erro ao carregar configurações RLS';
export const RLS_SAVE_ERROR = 'Erro ao salvar configurações RLS';
export const NO_LINKED_USERS =
  'Nenhum usuário está vinculado a este painel. Vincule usuários antes de configurar o RLS.';
export const DUPLICATE_ROLE = 'Já existe um papel com este nome.';
export const RLS_LIMITS_WARNING =
  'O Power BI recusaria esta configuração RLS, e ela não pode ser salva assim. Remova ou substitua os papéis indicados:';

/** 'Configuração RLS - {panel name}' (docs/requirements.md#rls-modal): the panel's roles and who is in each. */
export function RlsModal({ painel, onHide }: PanelModalProps) {
  const shown = useShownPanel(painel);
  const titleId = useId();
  return (
    <Modal show={painel !== null} onHide={onHide} size="lg" scrollable aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id={titleId} className="text-break">
          Configuração RLS - {shown?.nomePainel}
        </Modal.Title>
      </Modal.Header>
      {shown && <RlsContent key={shown.id} painel={shown} onHide={onHide} />}
    </Modal>
  );
}

function RlsContent({ painel, onHide }: { painel: Painel; onHide: () => void }) {
  // Loaded together: the editor starts once all have answered (fresh, not a cached copy being refreshed). The
  // directory's groups are waited for too: without them every group of a role would read as unknown.
  const rls = useRls(painel.id);
  const linked = useLinkedUsers(painel.id);
  const linkedGroups = useLinkedGroups(painel.id);
  const groups = useGroups();
  const [ready, setReady] = useState(false);
  const loaded = [rls, linked, linkedGroups, groups].every((q) => q.isSuccess);
  if (!ready && loaded && !rls.isFetching && !linked.isFetching && !linkedGroups.isFetching) setReady(true);

  if (ready && rls.data && linked.data && linkedGroups.data && groups.data) {
    return (
      <RlsEditor
        painel={painel}
        initialRoles={rls.data}
        linkedUsers={linked.data}
        anyGroupLinked={linkedGroups.data.length > 0}
        directoryGroups={groups.data}
        onHide={onHide}
      />
    );
  }
  return <ModalPending queries={[rls, linked, linkedGroups, groups]} message={() => RLS_LOAD_ERROR} onHide={onHide} />;
}

interface RlsEditorProps {
  painel: Painel;
  initialRoles: RlsConfiguration[];
  linkedUsers: UsuarioVinculado[];
  /** People may open the panel through a linked group, without being linked themselves. */
  anyGroupLinked: boolean;
  directoryGroups: Grupo365[];
  onHide: () => void;
}

/** A role as the editor holds it: its groups always listed (the server answers them; an older answer may not). */
type EditedRole = RlsConfiguration & { grupos: string[] };

function RlsEditor({ painel, initialRoles, linkedUsers, anyGroupLinked, directoryGroups, onHide }: RlsEditorProps) {
  const roleInputId = useId();
  const save = useSaveRls();
  const [roles, setRoles] = useState<EditedRole[]>(() => initialRoles.map((r) => ({ ...r, grupos: r.grupos ?? [] })));
  const [newRole, setNewRole] = useState('');
  const [duplicate, setDuplicate] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  // Power BI's limits, as the server checks them: a configuration stored before them may break them.
  const problems = useMemo(() => rlsConfigurationProblems(roles), [roles]);
  const namesByEmail = useMemo(
    () => new Map(linkedUsers.map((u) => [emailKey(u.email), u.displayName] as const)),
    [linkedUsers],
  );
  const groups = useMemo(() => preparePickerGroups(directoryGroups, []), [directoryGroups]);
  const groupsById = useMemo(() => new Map(groups.map((g) => [g.id, g] as const)), [groups]);

  const addRole = (event: FormEvent) => {
    event.preventDefault();
    const name = newRole.trim();
    if (!name) return;
    // Power BI compares role names without regard to case, and so does the server.
    if (roles.some((r) => sameRoleName(r.roleName, name))) {
      setDuplicate(true);
      return;
    }
    setRoles([...roles, { roleName: name, userEmails: [], grupos: [] }]);
    setNewRole('');
  };

  const updateRole = (roleName: string, change: (emails: string[]) => string[]) =>
    setRoles((current) =>
      current.map((r) => (r.roleName === roleName ? { ...r, userEmails: change(r.userEmails) } : r)),
    );

  const addUser = (roleName: string, email: string) =>
    updateRole(roleName, (emails) =>
      emails.some((e) => emailKey(e) === emailKey(email)) ? emails : [...emails, email],
    );

  const removeUser = (roleName: string, email: string) =>
    updateRole(roleName, (emails) => emails.filter((e) => e !== email));

  const updateGroups = (roleName: string, change: (ids: string[]) => string[]) =>
    setRoles((current) => current.map((r) => (r.roleName === roleName ? { ...r, grupos: change(r.grupos) } : r)));

  const submit = async () => {
    setSaveError(null);
    try {
      // Each role with its e-mails and its groups; a role may hold groups only.
      await save.mutateAsync({
        id: painel.id,
        configs: roles.map((r) => ({ roleName: r.roleName, userEmails: r.userEmails, grupos: r.grupos })),
      });
      onHide();
    } catch (error) {
      // The message of docs/requirements.md#error-catalogue, with the server's reason (a bad e-mail, say) beneath it
      // when there is one.
      setSaveError(errorMessage(error, ''));
    }
  };

  return (
    <>
      <Modal.Body>
        {linkedUsers.length === 0 && !anyGroupLinked && <Alert variant="warning">{NO_LINKED_USERS}</Alert>}
        {problems.length > 0 && (
          <Alert variant="warning" aria-label="Limites do Power BI">
            <p className="mb-2">{RLS_LIMITS_WARNING}</p>
            <ul className="mb-0 text-break">
              {problems.map((problem, index) => (
                // Two long names may read alike once cut short: the position tells them apart.
                <li key={index}>{problem}</li>
              ))}
            </ul>
          </Alert>
        )}
        <Form onSubmit={addRole} className="mb-4" noValidate>
          <Form.Label htmlFor={roleInputId} className="fw-semibold">
            Novo papel
          </Form.Label>
          <InputGroup hasValidation>
            <Form.Control
              id={roleInputId}
              value={newRole}
              onChange={(event) => {
                setNewRole(event.target.value);
                setDuplicate(false);
              }}
              placeholder="Nome do papel (ex.: Vendas)"
              maxLength={MAX_RLS_ROLE_NAME_LENGTH}
              autoComplete="off"
              isInvalid={duplicate}
              aria-invalid={duplicate}
              aria-describedby={duplicate ? `${roleInputId}-erro` : undefined}
            />
            <Button type="submit" variant="outline-primary">
              Adicionar
            </Button>
            {duplicate && (
              <Form.Control.Feedback type="invalid" id={`${roleInputId}-erro`}>
                {DUPLICATE_ROLE}
              </Form.Control.Feedback>
            )}
          </InputGroup>
        </Form>

        {roles.length === 0 ? (
          <p className="text-body-secondary">Nenhum papel RLS configurado.</p>
        ) : (
          roles.map((role) => (
            <RlsRoleCard
              key={role.roleName}
              role={role}
              linkedUsers={linkedUsers}
              namesByEmail={namesByEmail}
              groups={groups}
              groupsById={groupsById}
              onRemoveRole={() => setRoles((current) => current.filter((r) => r.roleName !== role.roleName))}
              onAddUser={(email) => addUser(role.roleName, email)}
              onRemoveUser={(email) => removeUser(role.roleName, email)}
              onAddGroup={(id) => updateGroups(role.roleName, (ids) => (ids.includes(id) ? ids : [...ids, id]))}
              onRemoveGroup={(id) => updateGroups(role.roleName, (ids) => ids.filter((g) => g !== id))}
            />
          ))
        )}
      </Modal.Body>
      <Modal.Footer>
        {/* In the footer, which never scrolls away, so it is seen however long the list of roles is. */}
        {saveError !== null && (
          <Alert variant="danger" className="w-100 mb-2">
            <div className="fw-semibold">{RLS_SAVE_ERROR}</div>
            {saveError && <div className="small">{saveError}</div>}
          </Alert>
        )}
        <Button variant="outline-secondary" onClick={onHide} disabled={save.isPending}>
          Cancelar
        </Button>
        <BusyButton variant="primary" onClick={() => void submit()} busy={save.isPending}>
          Salvar Configurações
        </BusyButton>
      </Modal.Footer>
    </>
  );
}
