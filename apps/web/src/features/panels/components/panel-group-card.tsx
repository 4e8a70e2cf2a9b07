import { memo, useMemo } from 'react';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { SEM_CLASSIFICACAO_ID } from '@paineis/contract/constants';
import type { GrupoPaineis } from '@paineis/contract/panels';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import { FAVORITOS_ID, type ListSegment } from '../utils/list-layout.ts';
import { groupDropId } from '../utils/reorder.ts';
import { PanelRow, SortablePanelRow, type PanelActions } from './panel-row.tsx';
import { formatInteger } from '../../../lib/format.ts';

/** 'N painéis'; one panel reads '1 painel', as Portuguese has it. */
export const panelCount = (n: number) => `${formatInteger(n)} ${n === 1 ? 'painel' : 'painéis'}`;

/** While searching, how many of the classification's panels match: '2 de 8 painéis'. */
const matchCount = (shown: number, total: number) => `${formatInteger(shown)} de ${panelCount(total)}`;

interface PanelGroupCardProps extends PanelActions {
  grupo: GrupoPaineis;
  /** Its place in the list shown. */
  groupIndex: number;
  /** Its virtualiser item (the card's heading and borders), measured on the card. */
  headIndex: number;
  /** The rows in the page and the room standing for the others, in list order. */
  segments: readonly ListSegment[];
  /** The virtualiser's measuring ref, for the card and its rows. */
  measureRef: (element: Element | null) => void;
  isAdmin: boolean;
  /** The group holds only the panels matching a search. */
  searching: boolean;
  dragDisabled: boolean;
  onEditGroup: () => void;
  onDeleteGroup: (grupo: GrupoPaineis) => void;
}

/** An admin can drop a panel into a classification that has none yet. */
function EmptyGroupDropZone({ grupoId, disabled }: { grupoId: number; disabled: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: groupDropId(grupoId), disabled });
  return (
    <div
      ref={setNodeRef}
      data-grupo-drop={grupoId}
      className={`m-3 p-3 text-center small text-body-secondary rounded border border-2${isOver ? ' border-primary bg-primary-subtle' : ''}`}
      style={{ borderStyle: 'dashed' }}
    >
      Nenhum painel nesta classificação. Arraste um painel para cá.
    </div>
  );
}

/** The card's heading: name, count, actions and description. Apart from the list, which changes as it scrolls. */
const GroupHeading = memo(function GroupHeading({
  grupo,
  titleId,
  searching,
  manageable,
  onEditGroup,
  onDeleteGroup,
}: {
  grupo: GrupoPaineis;
  titleId: string;
  searching: boolean;
  manageable: boolean;
  onEditGroup: () => void;
  onDeleteGroup: (grupo: GrupoPaineis) => void;
}) {
  return (
    <Card.Header className="bg-body py-3">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <h2 id={titleId} className="h5 mb-0">
          {grupo.nome}
        </h2>
        <Badge bg="secondary-subtle" text="secondary-emphasis" pill>
          {searching ? matchCount(grupo.paineis.length, grupo.quantidadePaineis) : panelCount(grupo.quantidadePaineis)}
        </Badge>
        {manageable && (
          <div className="d-flex gap-1 ms-auto">
            <Button
              size="sm"
              variant="outline-secondary"
              onClick={onEditGroup}
              aria-label={`Editar classificação ${grupo.nome}`}
            >
              Editar
            </Button>
            <Button
              size="sm"
              variant="outline-danger"
              onClick={() => onDeleteGroup(grupo)}
              aria-label={`Excluir classificação ${grupo.nome}`}
            >
              Excluir
            </Button>
          </div>
        )}
      </div>
      {grupo.descricao && <p className="small text-body-secondary mb-0 mt-1">{grupo.descricao}</p>}
    </Card.Header>
  );
});

/** Stands for rows that are not in the page, with their height; not a list item for assistive technology. */
function RowsGap({ size }: { size: number }) {
  return <li aria-hidden="true" className="d-block" style={{ height: size }} />;
}

/**
 * One classification: heading, count, description and its panels (docs/requirements.md#screen-panel-list). Only
 * the rows in `segments` are rendered (the list is windowed, see VirtualPanelList); for an admin the sortable
 * context still holds every panel of the classification, so keyboard moves and drops keep their true positions.
 */
export const PanelGroupCard = memo(function PanelGroupCard({
  grupo,
  groupIndex,
  headIndex,
  segments,
  measureRef,
  isAdmin,
  searching,
  dragDisabled,
  onEditGroup,
  onDeleteGroup,
  ...actions
}: PanelGroupCardProps) {
  const ids = useMemo(() => grupo.paineis.map((p) => p.id), [grupo.paineis]);
  const titleId = `grupo-${grupo.id}-titulo`;
  // 'Favoritos' repeats panels shown in their classifications: read-only, nothing to drag there.
  const sortable = isAdmin && grupo.id !== FAVORITOS_ID;
  // 'Sem Classificação' is not a real classification: nothing to edit or delete.
  const manageable = sortable && grupo.id !== SEM_CLASSIFICACAO_ID;
  const setSize = grupo.paineis.length;

  const rows = segments.map((segment) => {
    if (segment.kind === 'gap') return <RowsGap key={segment.key} size={segment.size} />;
    const { painel, index, itemIndex } = segment;
    const row = { painel, itemIndex, position: index + 1, setSize, measureRef, ...actions };
    return sortable ? (
      <SortablePanelRow key={painel.id} {...row} groupIndex={groupIndex} dragDisabled={dragDisabled} />
    ) : (
      <PanelRow key={painel.id} {...row} isAdmin={false} showIssues={isAdmin} />
    );
  });

  return (
    <Card
      as="section"
      ref={measureRef}
      data-index={headIndex}
      data-kind="head"
      className="shadow-sm mb-4"
      aria-labelledby={titleId}
    >
      <GroupHeading
        grupo={grupo}
        titleId={titleId}
        searching={searching}
        manageable={manageable}
        onEditGroup={onEditGroup}
        onDeleteGroup={onDeleteGroup}
      />
      {grupo.paineis.length === 0 ? (
        sortable ? (
          <EmptyGroupDropZone grupoId={grupo.id} disabled={dragDisabled} />
        ) : (
          <Card.Body className="small text-body-secondary">Nenhum painel nesta classificação.</Card.Body>
        )
      ) : sortable ? (
        <SortableContext id={`lista-${grupo.id}`} items={ids} strategy={verticalListSortingStrategy}>
          <ListGroup as="ul" variant="flush" aria-labelledby={titleId} data-grupo-id={grupo.id}>
            {rows}
          </ListGroup>
        </SortableContext>
      ) : (
        <ListGroup as="ul" variant="flush" aria-labelledby={titleId}>
          {rows}
        </ListGroup>
      )}
    </Card>
  );
});
