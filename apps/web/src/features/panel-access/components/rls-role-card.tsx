import { useId, useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import ListGroup from 'react-bootstrap/ListGroup';
import { PUBLIC_GROUP_GRANTS_NO_ROLE } from '@paineis/contract/group-constants';
import type { RlsConfiguration } from '@paineis/contract/rls';
import type { UsuarioVinculado } from '@paineis/contract/users';
import { PublicGroupBadge } from '../../../components/public-group-badge.tsx';
import { formatInteger } from '../../../lib/format.ts';
import { emailKey } from '../utils/email-key.ts';
import { membersLabel, type PickerGroup } from '../utils/picker-groups.ts';
import { GroupCombobox } from './group-combobox.tsx';

export const UNKNOWN_GROUP_HINT = '(grupo não encontrado no diretório)';

interface RlsRoleCardProps {
  role: RlsConfiguration;
  /** The panel's linked users: the only ones that may be added to a role. */
  linkedUsers: UsuarioVinculado[];
  /** Display names of the linked users, by `emailKey`. */
  namesByEmail: ReadonlyMap<string, string>;
  /** The directory's groups, by name: any of them may be added to a role. */
  groups: PickerGroup[];
  groupsById: ReadonlyMap<string, PickerGroup>;
  onRemoveRole: () => void;
  onAddUser: (email: string) => void;
  onRemoveUser: (email: string) => void;
  onAddGroup: (id: string) => void;
  onRemoveGroup: (id: string) => void;
}

/**
 * One RLS role: its users, a remove button per user, and the linked users not yet in it to add; then its Entra
 * groups, whose people at any depth carry the role, and a search to add one. A public group is marked; one that gives
 * the role to nobody (PUBLIC_GROUPS_GRANT) says so where it is listed, and the search names it without offering it.
 */
export function RlsRoleCard({
  role,
  linkedUsers,
  namesByEmail,
  groups,
  groupsById,
  onRemoveRole,
  onAddUser,
  onRemoveUser,
  onAddGroup,
  onRemoveGroup,
}: RlsRoleCardProps) {
  const selectId = useId();
  const [choice, setChoice] = useState('');
  const inRole = new Set(role.userEmails.map(emailKey));
  const available = linkedUsers.filter((u) => !inRole.has(emailKey(u.email)));
  const total = role.userEmails.length;
  const roleGroups = role.grupos ?? [];
  const { addable, refused } = useMemo(() => {
    const inRoleGroups = new Set(role.grupos);
    const others = groups.filter((g) => !inRoleGroups.has(g.id));
    return {
      addable: others.filter((g) => g.concede?.papeisRls !== false),
      refused: { groups: others.filter((g) => g.concede?.papeisRls === false), why: PUBLIC_GROUP_GRANTS_NO_ROLE },
    };
  }, [groups, role.grupos]);

  return (
    <Card className="mb-3">
      <Card.Header className="d-flex flex-wrap align-items-center gap-2 bg-body-tertiary">
        <span className="fw-semibold text-break">{role.roleName}</span>
        <Badge bg="secondary" pill>
          {total} {total === 1 ? 'usuário' : 'usuários'}
        </Badge>
        {roleGroups.length > 0 && (
          <Badge bg="secondary" pill>
            {formatInteger(roleGroups.length)} {roleGroups.length === 1 ? 'grupo' : 'grupos'}
          </Badge>
        )}
        <Button
          variant="outline-danger"
          size="sm"
          className="ms-auto flex-shrink-0"
          onClick={onRemoveRole}
          aria-label={`Remover papel ${role.roleName}`}
        >
          Remover papel
        </Button>
      </Card.Header>
      {/* A role may hold hundreds of e-mails: its list scrolls, so the other roles stay within reach. */}
      <ListGroup variant="flush" style={{ maxHeight: 260, overflowY: 'auto' }}>
        {total === 0 && (
          <ListGroup.Item className="small text-body-secondary">Nenhum usuário neste papel.</ListGroup.Item>
        )}
        {role.userEmails.map((email) => {
          const name = namesByEmail.get(emailKey(email));
          return (
            <ListGroup.Item key={email} className="d-flex align-items-center gap-2 py-1">
              <div className="d-flex flex-wrap column-gap-2 align-items-baseline" style={{ minWidth: 0 }}>
                <span className="text-truncate">{name ?? email}</span>
                {name ? (
                  <span className="small text-body-secondary text-truncate">{email}</span>
                ) : (
                  <span className="small text-body-secondary">Não vinculado a este painel</span>
                )}
              </div>
              <Button
                variant="link"
                size="sm"
                className="ms-auto text-danger flex-shrink-0"
                onClick={() => onRemoveUser(email)}
                aria-label={`Remover ${email} do papel ${role.roleName}`}
              >
                Remover
              </Button>
            </ListGroup.Item>
          );
        })}
      </ListGroup>
      {linkedUsers.length > 0 && (
        <Card.Body className="py-2">
          {available.length === 0 ? (
            <div className="small text-body-secondary">Todos os usuários vinculados já estão neste papel.</div>
          ) : (
            <>
              <Form.Label htmlFor={selectId} visuallyHidden>
                Usuário para adicionar ao papel {role.roleName}
              </Form.Label>
              <InputGroup size="sm">
                <Form.Select id={selectId} value={choice} onChange={(event) => setChoice(event.target.value)}>
                  <option value="">Selecione um usuário vinculado...</option>
                  {available.map((u) => (
                    <option key={u.id} value={u.email}>
                      {u.displayName} ({u.email})
                    </option>
                  ))}
                </Form.Select>
                <Button
                  variant="outline-primary"
                  disabled={!choice}
                  onClick={() => {
                    onAddUser(choice);
                    setChoice('');
                  }}
                  aria-label={`Adicionar usuário ao papel ${role.roleName}`}
                >
                  Adicionar
                </Button>
              </InputGroup>
            </>
          )}
        </Card.Body>
      )}
      {/* Set apart from the users above it as the card's header is (no border-top class is built, see styles.test.ts). */}
      <Card.Body
        className="py-2"
        style={{ borderTop: 'var(--bs-card-border-width) solid var(--bs-card-border-color)' }}
      >
        <div className="small fw-semibold mb-2">Grupos</div>
        {roleGroups.length === 0 ? (
          <div className="small text-body-secondary mb-2">Nenhum grupo neste papel.</div>
        ) : (
          <ul className="list-unstyled mb-2" aria-label={`Grupos do papel ${role.roleName}`}>
            {roleGroups.map((id) => {
              const group = groupsById.get(id);
              const name = group?.nome ?? id;
              return (
                <li key={id} className="d-flex align-items-center gap-2 py-1 border-bottom">
                  <div className="d-flex flex-wrap column-gap-2 align-items-baseline" style={{ minWidth: 0 }}>
                    <span className="text-truncate" title={name}>
                      {name}
                    </span>
                    {group?.publico && <PublicGroupBadge />}
                    {group ? (
                      group.membros !== null && (
                        <span className="small text-body-secondary text-nowrap">{membersLabel(group.membros)}</span>
                      )
                    ) : (
                      <span className="small text-body-secondary">{UNKNOWN_GROUP_HINT}</span>
                    )}
                    {group?.concede?.papeisRls === false && (
                      <span className="small text-danger-emphasis">{PUBLIC_GROUP_GRANTS_NO_ROLE}</span>
                    )}
                  </div>
                  <Button
                    variant="link"
                    size="sm"
                    className="ms-auto text-danger flex-shrink-0"
                    onClick={() => onRemoveGroup(id)}
                    aria-label={`Remover grupo ${name} do papel ${role.roleName}`}
                  >
                    Remover
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <GroupCombobox
          label={`Adicionar grupo ao papel ${role.roleName}`}
          groups={addable}
          refused={refused}
          onAdd={onAddGroup}
        />
      </Card.Body>
    </Card>
  );
}
