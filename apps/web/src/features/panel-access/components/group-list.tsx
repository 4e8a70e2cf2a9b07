import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import { PUBLIC_GROUP_GRANTS_NO_PANEL } from '@paineis/contract/group-constants';
import { PublicGroupBadge } from '../../../components/public-group-badge.tsx';
import { toggleOnRowClick, VirtualTable } from '../../../components/virtual-table.tsx';
import { GROUP_TYPE_LABELS, membersLabel, type PickerGroup } from '../utils/picker-groups.ts';
import { CHECKBOX_COLUMN_WIDTH, PICKER_INITIAL_WIDTH, PICKER_MIN_WIDTH, USER_LIST_MAX_HEIGHT } from './user-table.tsx';

// Two lines each (name, then description, each cut with an ellipsis), so every row is this high.
const ROW_HEIGHT = 58;

interface GroupListProps {
  groups: PickerGroup[];
  selected: ReadonlySet<string>;
  /** The groups linked now: one that would grant nothing may stay linked, not be linked anew. */
  linked: ReadonlySet<string>;
  onToggle: (id: string) => void;
}

/**
 * The groups, each with its checkbox, name and description, type and member count, in a table as high as the
 * people's and virtualised as it is: a large directory holds thousands of groups. A click anywhere on a row ticks it.
 * A public group is marked; one that would open the panel to nobody (PUBLIC_GROUPS_GRANT) says so instead of its
 * description, and cannot be ticked unless it is linked already, as the server would refuse it.
 */
export function GroupList({ groups, selected, linked, onToggle }: GroupListProps) {
  const refused = (group: PickerGroup) => group.concede?.paineis === false && !linked.has(group.id);
  return (
    <VirtualTable
      count={groups.length}
      estimateSize={() => ROW_HEIGHT}
      getItemKey={(index) => groups[index]?.id ?? index}
      overscan={6}
      maxHeight={USER_LIST_MAX_HEIGHT}
      minWidth={PICKER_MIN_WIDTH}
      initialWidth={PICKER_INITIAL_WIDTH}
      className="border rounded"
      columnWidths={[CHECKBOX_COLUMN_WIDTH, undefined, '12rem', '8.5rem']}
      headers={[<span className="visually-hidden">Selecionar</span>, 'Grupo', 'Tipo', 'Membros']}
      emptyText="Nenhum grupo encontrado."
      emptyClassName="py-3"
      hover
      verticalAlign="middle"
      rowProps={(index) => {
        const group = groups[index]!;
        return {
          className: selected.has(group.id) ? 'table-active' : undefined,
          onClick: toggleOnRowClick(() => {
            if (!refused(group)) onToggle(group.id);
          }),
        };
      }}
      renderCells={(index) => {
        const group = groups[index]!;
        const grantsNothing = group.concede?.paineis === false;
        return (
          <>
            <td className="text-center">
              <Form.Check.Input
                type="checkbox"
                className="d-block mx-auto mt-0"
                checked={selected.has(group.id)}
                disabled={refused(group)}
                onChange={() => onToggle(group.id)}
                aria-label={`Selecionar ${group.nome}`}
              />
            </td>
            <td>
              <span className="d-block text-truncate fw-semibold" title={group.nome}>
                {group.nome}
              </span>
              {grantsNothing ? (
                <span className="d-block small text-danger-emphasis text-truncate" title={PUBLIC_GROUP_GRANTS_NO_PANEL}>
                  {PUBLIC_GROUP_GRANTS_NO_PANEL}
                </span>
              ) : (
                <span className="d-block small text-body-secondary text-truncate" title={group.descricao ?? undefined}>
                  {group.descricao ?? (group.tipo === null ? 'Grupo não encontrado no diretório' : '—')}
                </span>
              )}
            </td>
            <td className="text-nowrap">
              {group.tipo !== null && (
                <Badge bg={group.tipo === 'seguranca' ? 'secondary' : 'primary'}>{GROUP_TYPE_LABELS[group.tipo]}</Badge>
              )}{' '}
              {group.publico && <PublicGroupBadge />}
            </td>
            <td className="small text-body-secondary text-nowrap">
              {group.membros !== null && membersLabel(group.membros)}
            </td>
          </>
        );
      }}
    />
  );
}
