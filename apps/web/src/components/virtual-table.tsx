import { useEffect, useRef, type Key, type MouseEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import Table from 'react-bootstrap/Table';

/** What a row may add to its `<tr>`: a class (a ticked row), and a click anywhere on it. */
export interface VirtualRowProps {
  className?: string | undefined;
  onClick?: ((event: MouseEvent<HTMLTableRowElement>) => void) | undefined;
}

interface VirtualTableProps {
  /** How many rows (the header row aside). */
  count: number;
  /** A row's height, known before it is drawn (its texts are cut with an ellipsis). */
  estimateSize: (index: number) => number;
  getItemKey: (index: number) => Key;
  overscan: number;
  /** The area scrolls within at most this height. */
  maxHeight: number;
  /** On a phone the table scrolls sideways rather than squeezing its columns. */
  minWidth: number;
  /** The width the rows are laid out for on the first paint, before the area has been measured. */
  initialWidth: number;
  /** The scrolling area's classes. */
  className?: string;
  /** The columns' widths, left to right (undefined: what is left). */
  columnWidths: (string | undefined)[];
  /** The column headers, left to right: a text, or (a checkbox column) a text for screen readers only. */
  headers: ReactNode[];
  /** The row shown when there are none: 'Nenhuma pessoa encontrada.' */
  emptyText: string;
  emptyClassName: string;
  /** The cells of the row at this index. */
  renderCells: (index: number) => ReactNode;
  rowProps?: (index: number) => VirtualRowProps;
  /** Rows lit under the pointer (those that toggle on a click). */
  hover?: boolean;
  /** Cells' content at the top (rows of several lines) or in the middle (rows of one). */
  verticalAlign?: 'top' | 'middle';
  /** Whenever this changes the rows' heights are worked out again (a row grew or shrank). */
  remeasure?: unknown;
}

/**
 * The one virtualised table of the app: only the rows in view (plus a few) are in the page, so that tens of thousands
 * of rows list at once; padding rows above and below keep the scroll bar true, and aria-rowcount and aria-rowindex tell
 * screen readers where they are. Every row's height is known before it is drawn (estimateSize), so nothing is measured
 * in the page.
 */
export function VirtualTable({
  count,
  estimateSize,
  getItemKey,
  overscan,
  maxHeight,
  minWidth,
  initialWidth,
  className,
  columnWidths,
  headers,
  emptyText,
  emptyClassName,
  renderCells,
  rowProps,
  hover = false,
  verticalAlign = 'top',
  remeasure,
}: VirtualTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    overscan,
    // Rows on the first paint, before the list has been measured.
    initialRect: { width: initialWidth, height: maxHeight },
  });
  useEffect(() => virtualizer.measure(), [virtualizer, remeasure]);
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const columns = headers.length;

  return (
    <div ref={scrollRef} className={className} style={{ maxHeight, overflow: 'auto' }}>
      <Table
        size="sm"
        hover={hover}
        className={`mb-0 align-${verticalAlign}`}
        style={{ tableLayout: 'fixed', minWidth }}
        aria-rowcount={count + 1}
      >
        <colgroup>
          {columnWidths.map((width, index) => (
            <col key={index} style={width === undefined ? undefined : { width }} />
          ))}
        </colgroup>
        <thead className="sticky-top table-light">
          <tr aria-rowindex={1}>
            {headers.map((header, index) => (
              <th key={index} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {count === 0 && (
            <tr>
              <td colSpan={columns} className={`text-center text-body-secondary ${emptyClassName}`}>
                {emptyText}
              </td>
            </tr>
          )}
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns} className="p-0 border-0" style={{ height: paddingTop }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rowProps?.(item.index);
            return (
              <tr
                key={item.key}
                aria-rowindex={item.index + 2}
                className={row?.className}
                onClick={row?.onClick}
                style={{ height: item.size, cursor: row?.onClick ? 'pointer' : undefined }}
              >
                {renderCells(item.index)}
              </tr>
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns} className="p-0 border-0" style={{ height: paddingBottom }} />
            </tr>
          )}
        </tbody>
      </Table>
    </div>
  );
}

/**
 * A click on a row that toggles its checkbox: anywhere on the row does it, but on the checkbox itself, which toggles
 * itself.
 */
export const toggleOnRowClick =
  (toggle: () => void) =>
  (event: MouseEvent<HTMLTableRowElement>): void => {
    if (!(event.target instanceof HTMLInputElement)) toggle();
  };
