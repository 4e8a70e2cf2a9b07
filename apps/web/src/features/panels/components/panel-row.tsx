import { memo, useCallback, useMemo, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Painel } from '@paineis/contract/panels';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { PanelStatus } from '../../../components/panel-status.tsx';
import { paths } from '../../../config/paths.ts';
import { FavouriteToggle } from './favourite-toggle.tsx';

export interface PanelActions {
  onManageUsers: (painel: Painel) => void;
  onManageRls: (painel: Painel) => void;
  onShowAccess: (painel: Painel) => void;
  onDelete: (painel: Painel) => void;
}

interface PanelRowBodyProps extends PanelActions {
  painel: Painel;
  /** The management buttons; the 'Favoritos' copy of a row has none. */
  isAdmin: boolean;
  /** Admins, in every copy of the row: a failed refresh and an unavailable report. */
  showIssues: boolean;
}

/**
 * Name, badge and actions. Memoized apart from the sortable wrapper: while a panel is dragged every wrapper
 * re-renders (dnd-kit's context changes), but these, the bulk of each row, do not.
 */
const PanelRowBody = memo(function PanelRowBody({
  painel,
  isAdmin,
  showIssues,
  onManageUsers,
  onManageRls,
  onShowAccess,
  onDelete,
}: PanelRowBodyProps) {
  const { id, nomePainel } = painel;
  return (
    <>
      <div className="d-flex align-items-center gap-2 flex-grow-1 panel-row-name">
        <FavouriteToggle painelId={id} nome={nomePainel} />
        <span className="fw-medium text-break">{nomePainel}</span>
        {painel.usaRls && (
          <Badge bg="info-subtle" text="info-emphasis" className="border border-info-subtle" title="Usa RLS">
            RLS
          </Badge>
        )}
        {/* Picks its own panel's entry from answers that come after the list: the row never waits for them. */}
        <PanelStatus painelId={id} showIssues={showIssues} className="flex-shrink-0" />
      </div>
      <div className="d-flex flex-wrap gap-1 panel-row-actions">
        <Link to={paths.viewer(id)} className="btn btn-sm btn-primary" aria-label={`Visualizar painel ${nomePainel}`}>
          Visualizar
        </Link>
        {isAdmin && (
          <>
            {/* data-access: whoever opens the modals may start loading one when its button is pointed at. */}
            <Link
              to={paths.editPanel(id)}
              className="btn btn-sm btn-outline-secondary"
              aria-label={`Editar painel ${nomePainel}`}
            >
              Editar
            </Link>
            <Button
              size="sm"
              variant="outline-secondary"
              onClick={() => onManageUsers(painel)}
              aria-label={`Usuários do painel ${nomePainel}`}
              data-access="usuarios"
            >
              Usuários
            </Button>
            <Button
              size="sm"
              variant="outline-secondary"
              onClick={() => onManageRls(painel)}
              aria-label={`RLS do painel ${nomePainel}`}
              data-access="rls"
            >
              RLS
            </Button>
            <Button
              size="sm"
              variant="outline-secondary"
              onClick={() => onShowAccess(painel)}
              aria-label={`Acesso ao painel ${nomePainel}`}
              data-access="acesso"
            >
              Acesso
            </Button>
            <Button
              size="sm"
              variant="outline-danger"
              onClick={() => onDelete(painel)}
              aria-label={`Excluir painel ${nomePainel}`}
            >
              Excluir
            </Button>
          </>
        )}
      </div>
    </>
  );
});

// A plain <li> rather than ListGroup.Item: these re-render on every drag move, so they are kept as light as can be.
const rowClass = 'list-group-item d-flex flex-wrap flex-sm-nowrap align-items-center column-gap-2 row-gap-2 py-2';

/** Where a row sits: the list is windowed, so each row says its place in the whole classification. */
interface RowPlacement {
  /** Its virtualiser item, for measuring. */
  itemIndex: number;
  /** 1-based position in its classification (as shown), and how many panels the classification shows. */
  position: number;
  setSize: number;
  measureRef: (element: Element | null) => void;
}

/** A panel as everyone sees it: no drag handle, no management actions unless admin. */
export const PanelRow = memo(function PanelRow({
  itemIndex,
  position,
  setSize,
  measureRef,
  ...props
}: PanelRowBodyProps & RowPlacement) {
  return (
    <li
      ref={measureRef}
      data-index={itemIndex}
      data-kind="row"
      aria-posinset={position}
      aria-setsize={setSize}
      className={rowClass}
    >
      <PanelRowBody {...props} />
    </li>
  );
});

// The six dots as one path: a row is rendered often, so its icon is kept to two elements.
const GRIP_DOTS = [4, 10, 16]
  .flatMap((cy) => [4, 10].map((cx) => `M${cx - 1.6} ${cy}a1.6 1.6 0 1 0 3.2 0a1.6 1.6 0 1 0 -3.2 0`))
  .join('');

function GripIcon() {
  return (
    <svg width="14" height="20" viewBox="0 0 14 20" aria-hidden="true" focusable="false">
      <path d={GRIP_DOTS} fill="currentColor" />
    </svg>
  );
}

interface SortablePanelRowProps extends PanelActions, RowPlacement {
  painel: Painel;
  /** Its classification's place in the list: tells a panel coming from above from one coming from below. */
  groupIndex: number;
  /** While searching or saving: the handle stays focusable (focus is not lost mid-save) but does nothing. */
  dragDisabled: boolean;
}

interface RowDragData {
  groupIndex: number;
}

/** An admin's row: a drag handle (pointer or keyboard) in front of the panel. */
export const SortablePanelRow = memo(function SortablePanelRow({
  painel,
  groupIndex,
  dragDisabled,
  itemIndex,
  position,
  setSize,
  measureRef,
  ...actions
}: SortablePanelRowProps) {
  const data = useMemo<RowDragData>(() => ({ groupIndex }), [groupIndex]);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging, isOver, active } =
    useSortable({
      id: painel.id,
      disabled: dragDisabled,
      data,
      attributes: { roleDescription: 'painel reordenável' },
    });
  const ref = useCallback(
    (element: HTMLLIElement | null) => {
      setNodeRef(element);
      measureRef(element);
    },
    [setNodeRef, measureRef],
  );
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition };
  // A panel of another classification hovering here: a line shows on which side of this row it will land
  // (the same rule as dropIndex: from above it goes before, from below after).
  const activeGroup = (active?.data.current as RowDragData | undefined)?.groupIndex;
  const dropSide =
    isOver && activeGroup !== undefined && activeGroup !== groupIndex
      ? activeGroup > groupIndex
        ? ' panel-row-drop-after'
        : ' panel-row-drop-before'
      : '';
  return (
    <li
      ref={ref}
      style={style}
      data-index={itemIndex}
      data-kind="row"
      aria-posinset={position}
      aria-setsize={setSize}
      data-painel-id={painel.id}
      className={`${rowClass}${isDragging ? ' panel-row-placeholder' : ''}${dropSide}`}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className={`btn btn-sm btn-link text-body-secondary px-1 drag-handle${dragDisabled ? ' drag-handle-disabled' : ''}`}
        aria-label={`Arrastar para reordenar ${painel.nomePainel}`}
        {...attributes}
        {...listeners}
      >
        <GripIcon />
      </button>
      <PanelRowBody painel={painel} isAdmin showIssues {...actions} />
    </li>
  );
});

/**
 * What follows the pointer (or the arrow keys) while a panel is dragged: a copy of its name, so the row can be
 * carried over other classifications. Hidden from assistive technology, which hears the announcements instead.
 */
export function PanelDragPreview({ painel }: { painel: Painel }) {
  return (
    <div
      data-overlay-for={painel.id}
      aria-hidden="true"
      className="d-flex align-items-center gap-2 px-3 py-2 bg-body-tertiary border rounded shadow panel-drag-preview"
    >
      <span className="text-body-secondary px-1">
        <GripIcon />
      </span>
      <span className="fw-medium">{painel.nomePainel}</span>
      {painel.usaRls && (
        <Badge bg="info-subtle" text="info-emphasis" className="border border-info-subtle">
          RLS
        </Badge>
      )}
    </div>
  );
}
