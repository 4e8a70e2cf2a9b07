import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { DndContext, DragOverlay } from '@dnd-kit/core';
import type { Painel } from '@paineis/contract/panels';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import Spinner from 'react-bootstrap/Spinner';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useFavourites } from '../api/get-favourites.ts';
import { useGroupedPanels } from '../api/get-grouped-panels.ts';
import { useRecents } from '../api/get-recents.ts';
import { useDeleteConfirmation } from '../hooks/use-delete-confirmation.ts';
import { usePanelReorder } from '../hooks/use-panel-reorder.ts';
import { favouritesGroup } from '../utils/favourites-group.ts';
import { filterGroups, indexPanels } from '../utils/reorder.ts';
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
  /** Admin: open the 'Quem tem acesso - {name}' modal for a panel. */
  onShowAccess: (painel: Painel) => void;
  /** Admin: delete a classification (after the confirmation), rejecting with the server's error. */
  onDeleteClassification: (id: number) => Promise<void>;
}

export const LOAD_ERROR = 'Erro ao carregar dados';
export const DRAG_TIP = 'Dica: arraste os painéis para reordená-los. A ordem é salva automaticamente.';
export const DRAG_OFF_WHILE_SEARCHING =
  'A reordenação por arrastar fica desativada durante a busca. Limpe a busca para reordenar os painéis.';

/**
 * '/': 'Painéis Power BI', the panels by classification (docs/requirements.md#screen-panel-list); admins also manage
 * and reorder (hooks/use-panel-reorder.ts) and delete (hooks/use-delete-confirmation.ts).
 */
export function PanelListPage({
  isAdmin,
  onManageUsers,
  onManageRls,
  onShowAccess,
  onDeleteClassification,
}: PanelListPageProps) {
  const navigate = useNavigate();
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

  const [search, setSearch] = useState('');
  // Typing stays responsive with hundreds of panels: the filtered list renders after the keystroke.
  const deferredSearch = useDeferredValue(search);
  const searching = deferredSearch.trim() !== '';
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

  const { saving, draggedId, dragged, refocusId, dndContextProps } = usePanelReorder({
    groups,
    locations,
    onNotice: setNotice,
  });
  const dragDisabled = searching || saving;
  const { askDeletePanel, askDeleteGroup, dialog } = useDeleteConfirmation({
    onDeleteClassification,
    onNotice: setNotice,
  });
  const goToClassifications = useCallback(() => void navigate(paths.classifications), [navigate]);

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
          refocusId={refocusId}
          onManageUsers={onManageUsers}
          onManageRls={onManageRls}
          onShowAccess={onShowAccess}
          onDelete={askDeletePanel}
          onEditGroup={goToClassifications}
          onDeleteGroup={askDeleteGroup}
        />
      );
      // One context for the whole list, so a panel can be dropped onto a panel of another classification.
      content = isAdmin ? (
        <DndContext {...dndContextProps}>
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
    <LoadErrorAlert message={errorMessage(error, LOAD_ERROR)} onRetry={() => void refetch()} />
  );

  return (
    <Container fluid="xl" className="py-4 panel-list">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">Painéis Power BI</h1>
        {isAdmin && (
          <div className="d-flex flex-wrap gap-2">
            <Link to={paths.importFromPowerBi} className="btn btn-outline-primary">
              Importar do Power BI
            </Link>
            <Button variant="outline-primary" onClick={goToClassifications}>
              Gerenciar Classificações
            </Button>
          </div>
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

      <ConfirmDialog {...dialog} />
    </Container>
  );
}
