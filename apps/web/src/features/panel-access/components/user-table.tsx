import Form from 'react-bootstrap/Form';
import { toggleOnRowClick, VirtualTable } from '../../../components/virtual-table.tsx';
import type { PickerUser } from '../utils/picker-users.ts';

/** docs/requirements.md#ui-constants: the user-list area is at most 350px high. */
export const USER_LIST_MAX_HEIGHT = 350;
// Rows have one line each (long texts are cut with an ellipsis), so every row is this high.
const ROW_HEIGHT = 37;
// On a phone the list scrolls sideways rather than cutting every name to a few letters.
export const PICKER_MIN_WIDTH = 640;
/** The width the modal's lists are laid out for before they are measured. */
export const PICKER_INITIAL_WIDTH = 760;
export const CHECKBOX_COLUMN_WIDTH = '2.75rem';

interface UserTableProps {
  users: PickerUser[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
}

/**
 * The checkbox, Nome, Email, Departamento table, virtualised: it stays fast with tens of thousands of users. A click
 * anywhere on a row ticks it.
 */
export function UserTable({ users, selected, onToggle }: UserTableProps) {
  return (
    <VirtualTable
      count={users.length}
      estimateSize={() => ROW_HEIGHT}
      getItemKey={(index) => users[index]?.id ?? index}
      overscan={8}
      maxHeight={USER_LIST_MAX_HEIGHT}
      minWidth={PICKER_MIN_WIDTH}
      initialWidth={PICKER_INITIAL_WIDTH}
      className="border rounded"
      columnWidths={[CHECKBOX_COLUMN_WIDTH, '34%', undefined, '26%']}
      headers={[<span className="visually-hidden">Selecionar</span>, 'Nome', 'Email', 'Departamento']}
      emptyText="Nenhum usuário encontrado."
      emptyClassName="py-3"
      hover
      verticalAlign="middle"
      rowProps={(index) => {
        const user = users[index]!;
        return {
          className: selected.has(user.id) ? 'table-active' : undefined,
          onClick: toggleOnRowClick(() => onToggle(user.id)),
        };
      }}
      renderCells={(index) => {
        const user = users[index]!;
        return (
          <>
            <td className="text-center">
              <Form.Check.Input
                type="checkbox"
                className="d-block mx-auto mt-0"
                checked={selected.has(user.id)}
                onChange={() => onToggle(user.id)}
                aria-label={`Selecionar ${user.displayName}`}
              />
            </td>
            <td className="text-truncate" title={user.displayName}>
              {user.displayName}
            </td>
            <td className="text-truncate" title={user.email}>
              {user.email}
            </td>
            <td className="text-truncate" title={user.department ?? undefined}>
              {user.department ?? <span className="text-body-secondary">—</span>}
            </td>
          </>
        );
      }}
    />
  );
}
