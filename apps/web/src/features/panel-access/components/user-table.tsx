import { useRef, type MouseEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import type { PickerUser } from '../utils/picker-users.ts';

/** docs/requirements.md#ui-constants: the user-list area is at most 350px high. */
export const USER_LIST_MAX_HEIGHT = 350;
// Rows have one line each (long texts are cut with an ellipsis), so every row is this high.
const ROW_HEIGHT = 37;
// On a phone the list scrolls sideways rather than cutting every name to a few letters.
const TABLE_MIN_WIDTH = 640;

interface UserTableProps {
  users: PickerUser[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
}

/**
 * The checkbox, Nome, Email, Departamento table. Only the rows in view (plus a few) are in the page, so it
 * stays fast with tens of thousands of users; padding rows above and below keep the scroll bar true.
 */
export function UserTable({ users, selected, onToggle }: UserTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: users.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => users[index]?.id ?? index,
    overscan: 8,
    // Rows on the first paint, before the list has been measured.
    initialRect: { width: 760, height: USER_LIST_MAX_HEIGHT },
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  const toggleFromRow = (event: MouseEvent<HTMLTableRowElement>, id: string) => {
    // The checkbox toggles itself; a click anywhere else on the row does it too.
    if (!(event.target instanceof HTMLInputElement)) onToggle(id);
  };

  return (
    <div ref={scrollRef} className="border rounded" style={{ maxHeight: USER_LIST_MAX_HEIGHT, overflow: 'auto' }}>
      <Table
        size="sm"
        hover
        className="mb-0 align-middle"
        style={{ tableLayout: 'fixed', minWidth: TABLE_MIN_WIDTH }}
        aria-rowcount={users.length + 1}
      >
        <colgroup>
          <col style={{ width: '2.75rem' }} />
          <col style={{ width: '34%' }} />
          <col />
          <col style={{ width: '26%' }} />
        </colgroup>
        <thead className="sticky-top table-light">
          <tr aria-rowindex={1}>
            <th scope="col">
              <span className="visually-hidden">Selecionar</span>
            </th>
            <th scope="col">Nome</th>
            <th scope="col">Email</th>
            <th scope="col">Departamento</th>
          </tr>
        </thead>
        <tbody>
          {users.length === 0 && (
            <tr>
              <td colSpan={4} className="text-center text-body-secondary py-3">
                Nenhum usuário encontrado.
              </td>
            </tr>
          )}
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={4} className="p-0 border-0" style={{ height: paddingTop }} />
            </tr>
          )}
          {items.map((item) => {
            const user = users[item.index]!;
            const checked = selected.has(user.id);
            return (
              <tr
                key={item.key}
                aria-rowindex={item.index + 2}
                style={{ height: ROW_HEIGHT, cursor: 'pointer' }}
                className={checked ? 'table-active' : undefined}
                onClick={(event) => toggleFromRow(event, user.id)}
              >
                <td className="text-center">
                  <Form.Check.Input
                    type="checkbox"
                    className="d-block mx-auto mt-0"
                    checked={checked}
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
              </tr>
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={4} className="p-0 border-0" style={{ height: paddingBottom }} />
            </tr>
          )}
        </tbody>
      </Table>
    </div>
  );
}
