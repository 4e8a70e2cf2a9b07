import { useRef } from 'react';
import { Link } from 'react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import Table from 'react-bootstrap/Table';
import { paths } from '../../../config/paths.ts';
import type { PanelAccessRow } from '../utils/access-reasons.ts';

/** As the links modal's list: the area scrolls within at most this height. */
export const ACCESS_LIST_MAX_HEIGHT = 400;
// A row with one reason; every further reason is one more line. Texts are cut with an ellipsis, so the height of
// every row is known before it is drawn.
const ROW_HEIGHT = 37;
const LINE_HEIGHT = 24;
const TABLE_MIN_WIDTH = 640;

const rowHeight = (row: PanelAccessRow | undefined) =>
  ROW_HEIGHT + LINE_HEIGHT * Math.max(0, (row?.reasons.length ?? 1) - 1);

/** The page of a person on '/acessos'. */
export const personAccessHref = (usuarioId: string) => `${paths.access}?pessoa=${encodeURIComponent(usuarioId)}`;

interface PanelAccessTableProps {
  rows: PanelAccessRow[];
  /** A name was followed to the person's page. */
  onOpenPerson: () => void;
}

/**
 * Nome, E-mail, Motivo: only the rows in view (plus a few) are in the page, as in the links modal's table, so a panel
 * that tens of thousands of people may open shows at once; padding rows above and below keep the scroll bar true.
 */
export function PanelAccessTable({ rows, onOpenPerson }: PanelAccessTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => rowHeight(rows[index]),
    getItemKey: (index) => rows[index]?.person.usuarioId ?? index,
    overscan: 8,
    // Rows on the first paint, before the list has been measured.
    initialRect: { width: 760, height: ACCESS_LIST_MAX_HEIGHT },
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  return (
    <div ref={scrollRef} className="border rounded" style={{ maxHeight: ACCESS_LIST_MAX_HEIGHT, overflow: 'auto' }}>
      <Table
        size="sm"
        className="mb-0 align-top"
        style={{ tableLayout: 'fixed', minWidth: TABLE_MIN_WIDTH }}
        aria-rowcount={rows.length + 1}
      >
        <colgroup>
          <col style={{ width: '27%' }} />
          <col style={{ width: '28%' }} />
          <col />
        </colgroup>
        <thead className="sticky-top table-light">
          <tr aria-rowindex={1}>
            <th scope="col">Nome</th>
            <th scope="col">E-mail</th>
            <th scope="col">Motivo</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} className="text-center text-body-secondary py-3">
                Nenhuma pessoa encontrada.
              </td>
            </tr>
          )}
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={3} className="p-0 border-0" style={{ height: paddingTop }} />
            </tr>
          )}
          {items.map((item) => {
            const { person, reasons } = rows[item.index]!;
            return (
              <tr key={item.key} aria-rowindex={item.index + 2} style={{ height: item.size }}>
                <td className="text-truncate" title={person.nome}>
                  <Link to={personAccessHref(person.usuarioId)} onClick={onOpenPerson}>
                    {person.nome}
                  </Link>
                </td>
                <td className="text-truncate" title={person.email}>
                  {person.email}
                </td>
                <td>
                  {reasons.map((reason, index) => (
                    <div
                      key={index}
                      className="text-truncate"
                      style={{ lineHeight: `${LINE_HEIGHT}px` }}
                      title={reason}
                    >
                      {reason}
                    </div>
                  ))}
                </td>
              </tr>
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={3} className="p-0 border-0" style={{ height: paddingBottom }} />
            </tr>
          )}
        </tbody>
      </Table>
    </div>
  );
}
