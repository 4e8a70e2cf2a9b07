import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Spinner from 'react-bootstrap/Spinner';
import type { VisaoSalva } from '@paineis/contract/personal';
import { errorMessage } from '../../../lib/api-client.ts';
import { useCreateSavedView } from '../api/create-saved-view.ts';
import type { ReportControls } from '../embedding/report-embedder.ts';
import { useExport, type Wait } from '../hooks/use-export.ts';
import { SavedViewsMenu } from './saved-views-menu.tsx';
import { ViewNameModal } from './view-name-modal.tsx';

/**
 * 'Exportar dados' in a chunk of its own (it brings the CSV parser), fetched when first opened: the viewer's first
 * paint waits for the viewer's code, and on a phone's network every file of it counts.
 */
const DataExportModal = lazy(() => import('./data-export-modal.tsx').then((m) => ({ default: m.DataExportModal })));

export const LINK_COPIED = 'Link copiado';
export const COPY_FAILED = 'Não foi possível copiar o link.';
export const SAVE_VIEW_ERROR = 'Erro ao salvar a visão.';
export const CAPTURE_ERROR = 'Não foi possível capturar o estado do relatório.';
export const PRINT_ERROR = 'Não foi possível imprimir o relatório.';
/** How long 'Link copiado' shows. */
const FEEDBACK_MS = 3000;

/** What the action offered beside 'Exportar' from outside the viewer ('Assinar', composed in app/) is given. */
export interface SubscribeActionProps {
  painelId: number;
  /** The page shown (`?pagina=`). */
  pagina: string | undefined;
  /** Shows a success notice under the header (with a link, say), until dismissed or replaced. */
  onNotice: (notice: ReactNode) => void;
}

interface ViewerActionsProps {
  painelId: number;
  nomePainel: string;
  permiteExportacao: boolean;
  /** 'Exportar dados' (a visual's data to CSV) is offered; the server enforces it too. */
  permiteExportarDados?: boolean | undefined;
  /** The loaded report; null until then (its actions wait for it). */
  controls: ReportControls | null;
  /** The page shown (`?pagina=`). */
  pagina: string | undefined;
  onApplyView: (visao: VisaoSalva) => void;
  onViewDeleted: (visaoId: string) => void;
  /** Administrators save, rename and delete the panel's views ('Visão do painel'). */
  isAdmin?: boolean | undefined;
  wait?: Wait | undefined;
  /** Shown beside 'Exportar', under the same rule (the panel's export on). */
  subscribeAction?: ComponentType<SubscribeActionProps> | undefined;
}

/**
 * The viewer header's actions: 'Copiar link', 'Salvar visão', 'Visões', 'Tela cheia', 'Imprimir' and 'Exportar'
 * (PDF or PowerPoint, unless the panel does not allow it) with, beside it, the subscribe action the route gives,
 * and their feedback, notices and errors under the header.
 */
export function ViewerActions({
  painelId,
  nomePainel,
  permiteExportacao,
  permiteExportarDados = false,
  controls,
  pagina,
  onApplyView,
  onViewDeleted,
  isAdmin = false,
  wait,
  subscribeAction: SubscribeAction,
}: ViewerActionsProps) {
  const location = useLocation();
  const [copied, setCopied] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<ReactNode>(null);
  const [saving, setSaving] = useState(false);
  const create = useCreateSavedView();
  const [capturing, setCapturing] = useState(false);
  const [choosingData, setChoosingData] = useState(false);
  // Mounted from its first opening on, so that it can also fade out when closed.
  const [dataExportMounted, setDataExportMounted] = useState(false);
  const [exportingData, setExportingData] = useState(false);
  const exporting = useExport({ painelId, nomePainel, controls, pagina, wait });
  const { progress } = exporting;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copyLink = () => {
    // The address as the router has it (page and view included), whole, to paste anywhere.
    const link = new URL(location.pathname + location.search, window.location.origin).toString();
    setProblem(null);
    navigator.clipboard.writeText(link).then(
      () => setCopied(true),
      () => setProblem(COPY_FAILED),
    );
  };

  const saveView = async (nome: string, doPainel: boolean) => {
    if (!controls) return;
    setCapturing(true);
    let estado: string;
    try {
      estado = await controls.captureState();
    } catch (error) {
      console.warn('Não foi possível capturar o estado do relatório', error);
      create.reset();
      setCapturing(false);
      setProblem(CAPTURE_ERROR);
      setSaving(false);
      return;
    }
    setCapturing(false);
    create.mutate(
      { painelId, body: { nome, estado, pagina: pagina ?? null, ...(doPainel ? { doPainel } : {}) } },
      { onSuccess: () => setSaving(false) },
    );
  };

  const print = () => {
    setProblem(null);
    controls?.print().catch((error: unknown) => {
      console.warn('Não foi possível imprimir o relatório', error);
      setProblem(PRINT_ERROR);
    });
  };

  const ready = controls !== null;
  const running = progress.kind === 'running';
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2">
        {/* One item with its feedback, so that the (empty) live region adds no gap of its own. */}
        <div className="d-flex align-items-center">
          <Button variant="outline-secondary" size="sm" onClick={copyLink}>
            Copiar link
          </Button>
          <span aria-live="polite" className={copied ? 'small text-success ms-2' : 'small text-success'}>
            {copied ? LINK_COPIED : ''}
          </span>
        </div>
        <Button
          variant="outline-secondary"
          size="sm"
          disabled={!ready}
          onClick={() => {
            create.reset();
            setSaving(true);
          }}
        >
          Salvar visão
        </Button>
        <SavedViewsMenu
          painelId={painelId}
          ready={ready}
          isAdmin={isAdmin}
          onApply={onApplyView}
          onDeleted={onViewDeleted}
          onError={setProblem}
        />
        <Button variant="outline-secondary" size="sm" disabled={!ready} onClick={() => controls?.fullscreen()}>
          Tela cheia
        </Button>
        <Button variant="outline-secondary" size="sm" disabled={!ready} onClick={print}>
          Imprimir
        </Button>
        {permiteExportacao && (
          // A menu of two actions (role menu, which also gives the toggle aria-haspopup). Chosen by each item's
          // onClick: an item with an eventKey carries aria-selected, which a menu item may not have.
          <Dropdown>
            <Dropdown.Toggle variant="outline-primary" size="sm" disabled={!ready || running}>
              Exportar
            </Dropdown.Toggle>
            <Dropdown.Menu role="menu">
              <Dropdown.Item as="button" type="button" role="menuitem" onClick={() => void exporting.start('PDF')}>
                PDF
              </Dropdown.Item>
              <Dropdown.Item as="button" type="button" role="menuitem" onClick={() => void exporting.start('PPTX')}>
                PowerPoint
              </Dropdown.Item>
            </Dropdown.Menu>
          </Dropdown>
        )}
        {permiteExportarDados && ready && (
          <Button
            variant="outline-primary"
            size="sm"
            disabled={exportingData}
            onClick={() => {
              setProblem(null);
              setDataExportMounted(true);
              setChoosingData(true);
            }}
          >
            {exportingData ? 'Exportando…' : 'Exportar dados'}
          </Button>
        )}
        {permiteExportacao && SubscribeAction && (
          <SubscribeAction painelId={painelId} pagina={pagina} onNotice={setNotice} />
        )}
      </div>
      {(running || progress.kind === 'error' || problem || notice) && (
        <div className="w-100 d-flex flex-column gap-2">
          {running && (
            <div className="d-flex align-items-center gap-2 small" aria-live="polite">
              <Spinner animation="border" size="sm" aria-hidden="true" />
              <span>Exportando… {progress.percent}%</span>
            </div>
          )}
          {progress.kind === 'error' && (
            <Alert variant="danger" dismissible closeLabel="Fechar" onClose={exporting.dismiss} className="py-2 mb-0">
              {progress.message}
            </Alert>
          )}
          {problem && (
            <Alert
              variant="warning"
              dismissible
              closeLabel="Fechar"
              onClose={() => setProblem(null)}
              className="py-2 mb-0"
            >
              {problem}
            </Alert>
          )}
          {notice && (
            <Alert
              variant="success"
              dismissible
              closeLabel="Fechar"
              onClose={() => setNotice(null)}
              className="py-2 mb-0"
            >
              {notice}
            </Alert>
          )}
        </div>
      )}
      {dataExportMounted && (
        <Suspense fallback={null}>
          <DataExportModal
            show={choosingData}
            painelId={painelId}
            nomePainel={nomePainel}
            controls={controls}
            onHide={() => setChoosingData(false)}
            onRunning={setExportingData}
            onSaved={(fileName) => {
              setChoosingData(false);
              setNotice(`Dados exportados: ${fileName}`);
            }}
          />
        </Suspense>
      )}
      <ViewNameModal
        show={saving}
        title="Salvar visão"
        submitLabel="Salvar"
        saving={capturing || create.isPending}
        error={create.error ? errorMessage(create.error, SAVE_VIEW_ERROR) : null}
        panelOption={isAdmin}
        onSubmit={(nome, doPainel) => void saveView(nome, doPainel)}
        onHide={() => setSaving(false)}
      />
    </>
  );
}
