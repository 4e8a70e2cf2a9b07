import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
  type MeasuringConfiguration,
} from '@dnd-kit/core';
import { useQueryClient } from '@tanstack/react-query';
import type { GrupoPaineis, Painel } from '@paineis/contract/panels';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import Spinner from 'react-bootstrap/Spinner';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useDeletePanel } from '../api/delete-panel.ts';
import { useFavourites } from '../api/get-favourites.ts';
import { useGroupedPanels } from '../api/get-grouped-panels.ts';
import { useRecents } from '../api/get-recents.ts';
import { useMovePanel } from '../api/move-panel.ts';
import { useReorderPanels } from '../api/reorder-panels.ts';
import { dragAnnouncements, screenReaderInstructions } from '../utils/drag-announcements.ts';
import { panelKeyboardCoordinates } from '../utils/keyboard-coordinates.ts';
import { favouritesGroup } from '../utils/favourites-group.ts';
import { computeDrop, filterGroups, indexPanels } from '../utils/reorder.ts';
import { PanelDragPreview } from './panel-row.tsx';
import { RecentPanels } from './recent-panels.tsx';
import { VirtualPanelList } from './virtual-panel-list.tsx';

export interface PanelListPageProps {
  /** Admins see the drag handles and the management buttons (docs/requirements.md#client-permissions). */
  isAdmin: boolean;
  /** Admin: open the 'Vincular Usuários ao Painel' modal for a panel. */
  onManageUsers: (painel: Painel) => void;
  /** Admin: open the 'Configuração RLS - {name}' modal for a panel. */
  onManageRls: (painel: Painel) => void;
  /** Admin: delete a classification (after the confirmation), rejecting with the server's error. */
  onDeleteClassification: (id: number) => Promise<void>;
}

export const LOAD_ERROR = 'Erro ao carregar dados';
export const DELETE_ERROR = 'Erro ao excluir item';
export const DELETE_CONFIRMATION =
  'Tem certeza que deseja excluir este painel/classificação? Esta ação não pode ser desfeita.';
export const REORDER_ERROR = 'Erro ao salvar a nova ordem dos painéis.';
export const MOVE_ERROR = 'Erro ao mover o painel para a outra classificação.';
export const DRAG_TIP = 'Dica: arraste os painéis para reordená-los. A ordem é salva automaticamente.';
export const DRAG_OFF_WHILE_SEARCHING =
  'A reordenação por arrastar fica desativada durante a busca. Limpe a busca para reordenar os painéis.';

/** docs/requirements.md#ui-constants: drag activation distance and droppable measurement timeout. */
const DRAG_ACTIVATION_DISTANCE_PX = 8;
const DROPPABLE_MEASURING_MS = 25;

// Re-measured every 25 ms, but only while dragging: measuring hundreds of rows when idle would be waste.
const measuring: MeasuringConfiguration = {
  droppable: { strategy: MeasuringStrategy.WhileDragging, frequency: DROPPABLE_MEASURING_MS },
};

type PendingDelete = { kind: 'painel'; painel: Painel } | { kind: 'classificacao'; grupo: GrupoPaineis };

/**
 * '/': 'Painéis Power BI', the panels by classification (docs/requirements.md#screen-panel-list); admins also manage
 * and reorder.
 */
export function PanelListPage({ isAdmin, onManageUsers, onManageRls, onDeleteClassification }: PanelListPageProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: loaded, error, isFetching, refetch } = useGroupedPanels();
  // The list shows once the person's favourites and recents are known too (or failed), so that 'Favoritos' and
  // 'Recentes' do not push it down as they arrive. They are asked for with the groups (app/first-screen.ts).
  const { data: favourites, isPending: favouritesPending } = useFavourites();
  const { isPending: recentsPending } = useRecents();
  const ready = favouritesPending || recentsPending ? undefined : loaded;
  // The first list to arrive is rendered in the background (React yields to the browser while it renders) rather
  // than in one long task; every later change (a drop, a reload) shows at once, as before.
  const firstLoad = useDeferredValue(ready);
  const groups = firstLoad === undefined ? undefined : ready;
  const deletePanel = useDeletePanel();
  const reorder = useReorderPanels();
  const move = useMovePanel();

  const [search, setSearch] = useState('');
  // Typing stays responsive with hundreds of panels: the filtered list renders after the keystroke.
  const deferredSearch = useDeferredValue(search);
  const searching = deferredSearch.trim() !== '';

  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  // Separate from pendingDelete so the dialog keeps its text while it fades out.
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const locations = useMemo(() => indexPanels(groups ?? []), [groups]);
  // Names are normalized when a search first needs them (not on every load), then kept per panel.
  const visibleGroups = useMemo(() => filterGroups(groups ?? [], deferredSearch), [groups, deferredSearch]);
  // 'Favoritos' on top, drawn from the panels shown: it follows the search, the order and every rename.
  const listedGroups = useMemo(() => {
    const favoritos = favouritesGroup(visibleGroups, groups ?? [], favourites ?? []);
    return favoritos ? [favoritos, ...visibleGroups] : visibleGroups;
  }, [visibleGroups, groups, favourites]);
  const panelById = useCallback((id: number) => locations.get(id)?.painel, [locations]);

  const saving = reorder.isPending || move.isPending;
  const dragDisabled = searching || saving;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: DRAG_ACTIVATION_DISTANCE_PX } }),
    useSensor(KeyboardSensor, { coordinateGetter: panelKeyboardCoordinates }),
  );

  const accessibility = useMemo(() => {
    const groupNames = new Map((groups ?? []).map((g) => [g.id, g.nome]));
    return {
      announcements: dragAnnouncements(
        (id) => locations.get(id),
        (id) => groupNames.get(id),
      ),
      screenReaderInstructions,
    };
  }, [groups, locations]);

  const [draggedId, setDraggedId] = useState<number | null>(null);
  const dragged = draggedId === null ? undefined : locations.get(draggedId)?.painel;
  // A move re-creates the row in another list, which loses the keyboard focus: give it back to its handle.
  const [refocus, setRefocus] = useState<{ painelId: number; grupoId: number } | null>(null);
  useEffect(() => {
    if (!refocus) return;
    const handle = document.querySelector<HTMLElement>(
      `[data-grupo-id="${refocus.grupoId}"] [data-painel-id="${refocus.painelId}"] .drag-handle`,
    );
    if (handle) {
      handle.focus();
      setRefocus(null);
    }
  }, [refocus, groups]);

  const handleDragStart = useCallback(({ active }: DragStartEvent) => {
    setDraggedId(typeof active.id === 'number' ? active.id : null);
  }, []);
  const handleDragCancel = useCallback(() => setDraggedId(null), []);

  const { mutate: saveOrder } = reorder;
  const { mutate: saveMove } = move;
  const handleDragEnd = useCallback(
    ({ active, over }: DragEndEvent) => {
      setDraggedId(null);
      if (!groups || !over || typeof active.id !== 'number') return;
      const drop = computeDrop(groups, active.id, over.id, locations);
      if (!drop) return;
      setNotice(null);
      if (drop.kind === 'reorder') {
        saveOrder(
          { groups: drop.groups, items: drop.items },
          { onError: (e) => setNotice(errorMessage(e, REORDER_ERROR)) },
        );
      } else {
        const painelId = drop.painel.id;
        // Only a keyboard user's focus is on the handle; a pointer user's is left where it is.
        const hadFocus = document.activeElement?.closest(`[data-painel-id="${painelId}"]`) != null;
        if (hadFocus) setRefocus({ painelId, grupoId: drop.to.id });
        saveMove(
          { groups: drop.groups, painelId, classificacaoId: drop.to.id, ordem: drop.position, items: drop.items },
          {
            onError: (e) => {
              setNotice(errorMessage(e, MOVE_ERROR));
              if (hadFocus) setRefocus({ painelId, grupoId: drop.from.id });
            },
          },
        );
      }
    },
    [groups, locations, saveOrder, saveMove],
  );

  const askDeletePanel = useCallback((painel: Painel) => {
    setNotice(null);
    setPendingDelete({ kind: 'painel', painel });
    setConfirming(true);
  }, []);
  const askDeleteGroup = useCallback((grupo: GrupoPaineis) => {
    setNotice(null);
    setPendingDelete({ kind: 'classificacao', grupo });
    setConfirming(true);
  }, []);
  const goToClassifications = useCallback(() => void navigate(paths.classifications), [navigate]);

  async function confirmDelete() {
    if (!pendingDelete) return;
    setDeleting(true);
    try {
      if (pendingDelete.kind === 'painel') {
        await deletePanel.mutateAsync(pendingDelete.painel.id);
      } else {
        await onDeleteClassification(pendingDelete.grupo.id);
        // Its panels now sit under 'Sem Classificação': reload whatever the caller refreshed or not.
        await queryClient.invalidateQueries({ queryKey: queryKeys.groupedPanels });
      }
    } catch (e) {
      setNotice(errorMessage(e, DELETE_ERROR));
      // Already gone (another admin deleted it): show the list as it is now.
      if (statusOf(e) === 404) void queryClient.invalidateQueries({ queryKey: queryKeys.groupedPanels });
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  }

  let content;
  if (groups) {
    if (groups.length === 0) {
      content = <p className="text-center text-body-secondary py-5 mb-0">Nenhum painel disponível.</p>;
    } else if (visibleGroups.length === 0) {
      content = <p className="text-center text-body-secondary py-5 mb-0">Nenhum painel encontrado.</p>;
    } else {
      const list = (
        <VirtualPanelList
          groups={listedGroups}
          isAdmin={isAdmin}
          searching={searching}
          dragDisabled={dragDisabled}
          draggedId={draggedId}
          refocusId={refocus?.painelId ?? null}
          onManageUsers={onManageUsers}
          onManageRls={onManageRls}
          onDelete={askDeletePanel}
          onEditGroup={goToClassifications}
          onDeleteGroup={askDeleteGroup}
        />
      );
      // One context for the whole list, so a panel can be dropped onto a panel of another classification.
      content = isAdmin ? (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          measuring={measuring}
          accessibility={accessibility}
          onDragStart={handleDragStart}
          onDragEnd={handleDragEnd}
          onDragCancel={handleDragCancel}
        >
          {list}
          {/* The row itself stays in its list as a placeholder; this copy can travel to other classifications. */}
          <DragOverlay dropAnimation={null} className="panel-drag-overlay">
            {dragged && <PanelDragPreview painel={dragged} />}
          </DragOverlay>
        </DndContext>
      ) : (
        list
      );
    }
  } else if (!error || isFetching) {
    content = <LoadingSpinner />;
  }

  const loadError = error && !isFetching && (
    <Alert variant="danger" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
      <span>{errorMessage(error, LOAD_ERROR)}</span>
      <Button variant="outline-danger" size="sm" onClick={() => void refetch()}>
        Tentar novamente
      </Button>
    </Alert>
  );

  return (
    <Container fluid="xl" className="py-4 panel-list">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">Painéis Power BI</h1>
        {isAdmin && (
          <Button variant="outline-primary" onClick={goToClassifications}>
            Gerenciar Classificações
          </Button>
        )}
      </div>

      {groups && groups.length > 0 && <RecentPanels panelById={panelById} />}

      {groups && groups.length > 0 && (
        <Form.Group controlId="buscar-painel" className="mb-3 panel-search" role="search">
          <Form.Label className="visually-hidden">Buscar painel</Form.Label>
          <Form.Control
            type="search"
            placeholder="Buscar painel..."
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            autoComplete="off"
          />
        </Form.Group>
      )}

      {isAdmin && groups && groups.length > 0 && (
        <div className="d-flex align-items-center gap-2 small text-body-secondary mb-3" aria-live="polite">
          <span>{searching ? DRAG_OFF_WHILE_SEARCHING : DRAG_TIP}</span>
          {saving && (
            <span className="d-inline-flex align-items-center gap-1 ms-auto text-nowrap">
              <Spinner animation="border" size="sm" aria-hidden="true" />
              Salvando...
            </span>
          )}
        </div>
      )}

      {notice && (
        <Alert variant="danger" dismissible closeLabel="Fechar" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {loadError}
      {content}

      <ConfirmDialog
        show={confirming}
        title={pendingDelete?.kind === 'classificacao' ? 'Excluir Classificação' : 'Excluir Painel'}
        message={DELETE_CONFIRMATION}
        confirmLabel="Excluir"
        variant="danger"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      />
    </Container>
  );
}
