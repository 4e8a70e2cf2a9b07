import { Link } from 'react-router';
import { PublicGroupBadge } from '../../../components/public-group-badge.tsx';
import { VirtualTable } from '../../../components/virtual-table.tsx';
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
  return (
    <VirtualTable
      count={rows.length}
      estimateSize={(index) => rowHeight(rows[index])}
      getItemKey={(index) => rows[index]?.person.usuarioId ?? index}
      overscan={8}
      maxHeight={ACCESS_LIST_MAX_HEIGHT}
      minWidth={TABLE_MIN_WIDTH}
      initialWidth={760}
      className="border rounded"
      columnWidths={['27%', '28%', undefined]}
      headers={['Nome', 'E-mail', 'Motivo']}
      emptyText="Nenhuma pessoa encontrada."
      emptyClassName="py-3"
      renderCells={(index) => {
        const { person, reasons } = rows[index]!;
        return (
          <>
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
                <div key={index} className="text-truncate" style={{ lineHeight: `${LINE_HEIGHT}px` }} title={reason}>
                  {reason}
                  {person.motivos[index]?.grupo?.publico && (
                    <>
                      {' '}
                      <PublicGroupBadge />
                    </>
                  )}
                </div>
              ))}
            </td>
          </>
        );
      }}
    />
  );
}
