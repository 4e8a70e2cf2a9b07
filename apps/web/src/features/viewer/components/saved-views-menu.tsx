import { useEffect, useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import type { VisaoSalva } from '@paineis/contract/personal';
import ConfirmDialogModal from '../../../components/confirm-dialog-modal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDeleteSavedView } from '../api/delete-saved-view.ts';
import { useSavedViews } from '../../../lib/api/get-saved-views.ts';
import { useRenameSavedView } from '../api/rename-saved-view.ts';
import { ViewNameModal } from './view-name-modal.tsx';

export const NO_VIEWS = 'Nenhuma visão salva.';
export const VIEWS_LOAD_ERROR = 'Erro ao carregar as visões.';
export const RENAME_ERROR = 'Erro ao renomear a visão.';
export const DELETE_VIEW_ERROR = 'Erro ao excluir a visão.';
export const PANEL_VIEWS = 'Visões do painel';
export const MY_VIEWS = 'Minhas visões';
export const VIEW_LINK_COPIED = 'Link copiado';
export const VIEW_LINK_FAILED = 'Não foi possível copiar o link da visão.';
/** How long 'Link copiado' shows on a view. */
const COPIED_MS = 3000;

interface SavedViewsMenuProps {
  painelId: number;
  /** The report is ready for a view to be applied. */
  ready: boolean;
  /** Administrators rename and delete the panel's views; everyone else copies their link. */
  isAdmin?: boolean | undefined;
  onApply: (visao: VisaoSalva) => void;
  /** A view deleted (a link to it would now open nothing). */
  onDeleted: (visaoId: string) => void;
  onError: (message: string) => void;
}

/** The address that opens the panel with this view applied (the shared link). */
export const viewLink = (visao: VisaoSalva) => {
  const url = new URL(`/visualizar/${visao.painelId}`, window.location.origin);
  url.searchParams.set('visao', visao.id);
  if (visao.pagina) url.searchParams.set('pagina', visao.pagina);
  return url.toString();
};

/**
 * 'Visões': the panel's views ('Visões do painel', saved by administrators for everyone who may open the panel) and
 * the person's own ('Minhas visões'), to apply; one's own are renamed ('Renomear') and deleted ('Excluir') by their
 * owner, the panel's by administrators, and everyone else copies a panel view's link ('Copiar link').
 */
export function SavedViewsMenu({ painelId, ready, isAdmin = false, onApply, onDeleted, onError }: SavedViewsMenuProps) {
  const [opened, setOpened] = useState(false);
  const { data: views, error, isPending, refetch } = useSavedViews(painelId, opened);
  const rename = useRenameSavedView();
  const remove = useDeleteSavedView();
  const [renaming, setRenaming] = useState<VisaoSalva | null>(null);
  const [deleting, setDeleting] = useState<VisaoSalva | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copyLink = (visao: VisaoSalva) => {
    navigator.clipboard.writeText(viewLink(visao)).then(
      () => setCopied(visao.id),
      () => onError(VIEW_LINK_FAILED),
    );
  };

  const confirmRename = (nome: string) => {
    if (!renaming) return;
    rename.mutate({ painelId, visaoId: renaming.id, nome }, { onSuccess: () => setRenaming(null) });
  };
  const confirmDelete = () => {
    if (!deleting) return;
    const visaoId = deleting.id;
    remove.mutate(
      { painelId, visaoId },
      {
        onSuccess: () => onDeleted(visaoId),
        onError: (e) => onError(errorMessage(e, DELETE_VIEW_ERROR)),
        onSettled: () => setDeleting(null),
      },
    );
  };

  let items;
  if (error)
    items = (
      <Dropdown.ItemText className="text-danger small">{errorMessage(error, VIEWS_LOAD_ERROR)}</Dropdown.ItemText>
    );
  else if (isPending)
    items = <Dropdown.ItemText className="small text-body-secondary">Carregando...</Dropdown.ItemText>;
  else if (views.length === 0)
    items = <Dropdown.ItemText className="small text-body-secondary">{NO_VIEWS}</Dropdown.ItemText>;
  else {
    const item = (visao: VisaoSalva) => {
      const editable = visao.doPainel ? isAdmin : visao.propria;
      return (
        <div key={visao.id} role="group" aria-label={visao.nome} className="d-flex align-items-center gap-1 pe-2">
          <Dropdown.Item
            as="button"
            type="button"
            disabled={!ready}
            onClick={() => onApply(visao)}
            className="text-truncate"
            style={{ minWidth: 0 }}
            title={visao.salvaPor ? `${visao.nome} (salva por ${visao.salvaPor})` : undefined}
          >
            {visao.nome}
          </Dropdown.Item>
          {editable ? (
            <>
              <button type="button" className="btn btn-sm btn-link px-1" onClick={() => setRenaming(visao)}>
                Renomear
              </button>
              <button type="button" className="btn btn-sm btn-link text-danger px-1" onClick={() => setDeleting(visao)}>
                Excluir
              </button>
            </>
          ) : (
            <button type="button" className="btn btn-sm btn-link px-1 text-nowrap" onClick={() => copyLink(visao)}>
              <span aria-live="polite">{copied === visao.id ? VIEW_LINK_COPIED : 'Copiar link'}</span>
            </button>
          )}
        </div>
      );
    };
    const ofPanel = views.filter((visao) => visao.doPainel);
    const own = views.filter((visao) => !visao.doPainel);
    // The two groups are named only when the panel has views of its own: otherwise the list is the person's.
    items =
      ofPanel.length === 0 ? (
        own.map(item)
      ) : (
        <>
          <Dropdown.Header aria-level={2}>{PANEL_VIEWS}</Dropdown.Header>
          {ofPanel.map(item)}
          <Dropdown.Divider />
          <Dropdown.Header aria-level={2}>{MY_VIEWS}</Dropdown.Header>
          {own.length === 0 ? (
            <Dropdown.ItemText className="small text-body-secondary">{NO_VIEWS}</Dropdown.ItemText>
          ) : (
            own.map(item)
          )}
        </>
      );
  }

  // Popper places the menu once, as it opens, and not again when its items change: a list that arrives wider than
  // 'Carregando...' would hang past the window's edge (its 'Excluir' out of sight) until the page scrolled. A menu
  // made anew for each content is placed for what it holds.
  const menuKey = error
    ? 'erro'
    : isPending
      ? 'carregando'
      : views.map((visao) => `${visao.id}:${visao.nome}`).join('|');

  return (
    <>
      <Dropdown
        onToggle={(open) => {
          if (!open) return;
          // Saved or renamed in another tab meanwhile: the list as it is now.
          if (opened) void refetch();
          else setOpened(true);
        }}
      >
        <Dropdown.Toggle variant="outline-secondary" size="sm">
          Visões
        </Dropdown.Toggle>
        {/* Never wider than a phone's screen: a long name is cut, and 'Renomear' and 'Excluir' stay in sight. */}
        <Dropdown.Menu key={menuKey} className="saved-views-menu" style={{ maxWidth: 'calc(100vw - 1rem)' }}>
          {items}
        </Dropdown.Menu>
      </Dropdown>
      <ViewNameModal
        show={renaming !== null}
        title="Renomear visão"
        submitLabel="Renomear"
        initialName={renaming?.nome ?? ''}
        saving={rename.isPending}
        error={rename.error ? errorMessage(rename.error, RENAME_ERROR) : null}
        onSubmit={confirmRename}
        onHide={() => {
          setRenaming(null);
          rename.reset();
        }}
      />
      <ConfirmDialogModal
        show={deleting !== null}
        title="Excluir visão"
        message={
          deleting?.doPainel
            ? `Tem certeza que deseja excluir a visão do painel "${deleting.nome}"? Ninguém mais a verá. Esta ação não pode ser desfeita.`
            : `Tem certeza que deseja excluir a visão "${deleting?.nome ?? ''}"? Esta ação não pode ser desfeita.`
        }
        confirmLabel="Excluir"
        variant="danger"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
