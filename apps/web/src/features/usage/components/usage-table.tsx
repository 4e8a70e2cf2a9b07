import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';

export interface UsageTableHeader {
  label: string;
  /** Numbers are right-aligned, so that their digits line up. */
  numeric?: boolean;
  /** Keeps words whole on phones: the table scrolls sideways instead. */
  minWidth?: string;
}

export const numericClass = 'text-end text-nowrap';

/**
 * A table of '/uso': its own scrolling box (sideways on phones; downwards past about fifteen rows, under a heading
 * that stays), so a long list does not stretch the page. The box takes the focus, named by `label`, so that a
 * keyboard scrolls it too (its rows may hold nothing focusable); a group rather than a region, so the card around it
 * stays the page's only region of that name.
 */
export function UsageTable({
  label,
  headers,
  children,
}: {
  label: string;
  headers: readonly UsageTableHeader[];
  children: ReactNode;
}) {
  return (
    <div className="table-responsive usage-table-scroll" tabIndex={0} role="group" aria-label={label}>
      <Table hover size="sm" className="mb-0 align-middle">
        <thead className="table-light">
          <tr>
            {headers.map(({ label, numeric, minWidth }) => (
              <th
                key={label}
                scope="col"
                className={numeric ? numericClass : 'text-nowrap'}
                style={minWidth ? { minWidth } : undefined}
              >
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </Table>
    </div>
  );
}
