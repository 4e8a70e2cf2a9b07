import { useCallback, useContext, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Link,
  UNSAFE_DataRouterContext,
  UNSAFE_NavigationContext,
  useLocation,
  useParams,
  useSearchParams,
} from 'react-router';
import type { VisaoSalva } from '@paineis/contract/personal';
import { TEXTOS_CAPACIDADE } from '@paineis/contract/capacity-constants';
import { PANEL_UNAVAILABLE } from '@paineis/contract/constants';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { PanelStatus } from '../../../components/panel-status.tsx';
import { paths } from '../../../config/paths.ts';
import { useConfiguration } from '../../../lib/api/get-configuration.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { GrupoPaineis } from '@paineis/contract/panels';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { usePanel } from '../api/get-panel.ts';
import { useRoleNames } from '../api/get-role-names.ts';
import { savedViewKey, useSavedView } from '../api/get-saved-view.ts';
import type { EmbedderFactory, ReportControls } from '../embedding/report-embedder.ts';
import { preLoadOff } from '../embedding/report-loading.ts';
import type { Wait } from '../hooks/use-export.ts';
import { capacityUnavailableOf } from '../utils/capacity-unavailable.ts';
import { CapacityStarting } from './capacity-wait.tsx';
import { ReportArea } from './report-area.tsx';
import { ViewerActions, type SubscribeActionProps } from './viewer-actions.tsx';

export const PANEL_NOT_FOUND = 'Painel não encontrado';
export const PANEL_LOAD_ERROR = 'Erro ao carregar painel';
export const RLS_BANNER = 'Este painel utiliza Row Level Security (RLS)';
export const ROLE_LABEL = 'Visualizar como';
export const ALL_ROLES = 'Todos os papéis';
export const SHOW_ALL_ROLES = 'Visualizar com todos os papéis';
export const SHARED_VIEW_NOT_FOUND = 'A visão compartilhada não foi encontrada.';
export const SHARED_VIEW_ERROR = 'Não foi possível carregar a visão compartilhada.';
export const APPLY_VIEW_ERROR = 'Não foi possível aplicar a visão.';
export const CAPACITY_CONTACT = (contato: string) => `Para usá-los agora, fale com ${contato}.`;

interface ViewerPageProps {
  /** Admins may preview an RLS panel as one of its roles (`?papel=`); others always see their own. */
  canChooseRole?: boolean;
  /** Admins also read, beside the freshness, a failed refresh and an unavailable report. */
  isAdmin?: boolean;
  /** Tests pass a fake report embedder and a wait that returns at once. */
  createEmbedder?: EmbedderFactory;
  wait?: Wait;
  /** 'Assinar', beside 'Exportar': the route composes it from the subscriptions feature. */
  subscribeAction?: ComponentType<SubscribeActionProps>;
}

/**
 * Where the router is right now, not where this render was: React renders a navigation a little later (in a
 * transition) than the router makes it. A data router says so in its state (a navigation under way, else its
 * location); the app's BrowserRouter, through its history, which reads the browser's address.
 */
function useLivePathname(): () => string | undefined {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  const { navigator } = useContext(UNSAFE_NavigationContext);
  return useCallback(() => {
    if (dataRouter) {
      const { navigation, location } = dataRouter.router.state;
      return (navigation.location ?? location).pathname;
    }
    return (navigator as Partial<{ location: { pathname: string } }>).location?.pathname;
  }, [dataRouter, navigator]);
}

/** Sets (or, with undefined, removes) query parameters of the address, replacing the entry: no history per change. */
export function useAddressParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();
  const livePathname = useLivePathname();
  // The parameters as last written: the router's functional update reads those of the last render, so a second change
  // before the next render (a role chosen, then the report's page reported) would drop the first.
  const written = useRef(searchParams);
  const rendered = useRef(searchParams);
  if (rendered.current !== searchParams) {
    rendered.current = searchParams;
    written.current = searchParams;
  }
  const setParams = useCallback(
    (changes: Record<string, string | undefined>) => {
      // A person who has just left the viewer ('Voltar', the navigation bar) is not brought back by the report
      // changing page as it finishes loading: the address is written only while it is still the viewer's.
      const live = livePathname();
      if (live !== undefined && live !== pathname) return;
      const next = new URLSearchParams(written.current);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      written.current = next;
      setSearchParams(next, { replace: true });
    },
    [livePathname, pathname, setSearchParams],
  );
  return [searchParams, setParams] as const;
}

/**
 * The view of `?visao=` (one's own or shared by link), applied on the loaded report once per embed: on top of the
 * person's own embed token, so it never shows more than their RLS identity may see.
 */
function useSharedView(panelId: number, visaoId: string | undefined, controls: ReportControls | null) {
  const { data: visao, error } = useSavedView(panelId, visaoId);
  const [applyError, setApplyError] = useState<string | null>(null);
  const applied = useRef<{ controls: ReportControls; id: string } | null>(null);
  useEffect(() => {
    if (!controls || !visao || visao.id !== visaoId) return;
    if (applied.current?.controls === controls && applied.current.id === visao.id) return;
    applied.current = { controls, id: visao.id };
    controls.applyState(visao.estado).then(
      () => setApplyError(null),
      (e: unknown) => {
        console.warn('Não foi possível aplicar a visão', e);
        setApplyError(APPLY_VIEW_ERROR);
      },
    );
  }, [controls, visao, visaoId]);
  const loadError =
    visaoId === undefined || !error
      ? null
      : statusOf(error) === 404 || statusOf(error) === 400
        ? SHARED_VIEW_NOT_FOUND
        : errorMessage(error, SHARED_VIEW_ERROR);
  return { warning: loadError ?? applyError, reapply: () => (applied.current = null) };
}

/**
 * /visualizar/{id}: header with the name and Voltar, the RLS banner, and the report
 * (docs/requirements.md#screen-viewer).
 */
export default function ViewerPage({
  canChooseRole = false,
  isAdmin = false,
  createEmbedder,
  wait,
  subscribeAction,
}: ViewerPageProps) {
  const { id } = useParams();
  const panelId = Number(id);
  const queryClient = useQueryClient();
  const [searchParams, setParams] = useAddressParams();
  const papel = (canChooseRole && searchParams.get('papel')?.trim()) || undefined;
  const pagina = searchParams.get('pagina')?.trim() || undefined;
  const visaoId = searchParams.get('visao')?.trim() || undefined;
  const { data: opened, error, errorUpdatedAt, isPending, refetch } = usePanel(panelId, papel);
  const askAgain = useCallback(() => void refetch(), [refetch]);
  const configuration = useConfiguration().data;
  // With Power BI (not the demo host), the report is bootstrapped while the panel is on its way, in the language of
  // the panel as the list gave it, else the portal's (docs/requirements.md#report-loading); not with the switch off.
  const bootstrapLocale =
    configuration?.powerBi && !configuration.demonstracao && !preLoadOff()
      ? (listedLocale(queryClient.getQueryData<GrupoPaineis[]>(queryKeys.groupedPanels), panelId) ??
        configuration.idiomaRelatorios)
      : undefined;
  const [controls, setControls] = useState<ReportControls | null>(null);
  const sharedView = useSharedView(panelId, visaoId, controls);
  const [dismissedWarning, setDismissedWarning] = useState<string | null>(null);

  const choose = (role: string) => setParams({ papel: role || undefined });
  // The address keeps the page shown, so a copied link opens on it.
  const showPage = useCallback(
    (name: string) => {
      if (name !== pagina) setParams({ pagina: name });
    },
    [pagina, setParams],
  );
  const applyView = (visao: VisaoSalva) => {
    if (visao.id === visaoId) sharedView.reapply();
    // Known already: applied from here, not asked for again.
    queryClient.setQueryData(savedViewKey(panelId, visao.id), visao);
    setParams({ visao: visao.id, ...(visao.pagina ? { pagina: visao.pagina } : {}) });
  };
  const viewDeleted = (deleted: string) => {
    if (deleted === visaoId) setParams({ visao: undefined });
  };

  if (!Number.isInteger(panelId) || panelId <= 0 || statusOf(error) === 404) {
    return <ViewerProblem title={PANEL_NOT_FOUND} />;
  }
  // A panel whose report Power BI no longer serves to the portal (the health check found it): the API's own words,
  // as the page's title, rather than an error the person can do nothing about.
  if (statusOf(error) === 503 && errorMessage(error, '') === PANEL_UNAVAILABLE) {
    return <ViewerProblem title={PANEL_UNAVAILABLE} variant="warning" onRetry={() => void refetch()} />;
  }
  // The Power BI capacity is paused or changing (docs/decisions/024-capacity-cost.md): when this opening woke it, the
  // panel is asked for again as the server said, until it embeds; otherwise, who to ask.
  const capacity = capacityUnavailableOf(error);
  if (capacity?.podeRetomar) {
    return <CapacityStarting key={errorUpdatedAt} seconds={capacity.waitSeconds} onRetry={askAgain} />;
  }
  if (capacity) {
    return (
      <ViewerProblem
        title={TEXTOS_CAPACIDADE.pausada}
        detail={capacity.contato ? CAPACITY_CONTACT(capacity.contato) : undefined}
        variant="warning"
        onRetry={askAgain}
      />
    );
  }
  if (error) {
    return (
      <ViewerProblem title={PANEL_LOAD_ERROR} detail={errorMessage(error, '')} onRetry={() => void refetch()}>
        {papel && (
          <Button variant="outline-primary" onClick={() => choose('')}>
            {SHOW_ALL_ROLES}
          </Button>
        )}
      </ViewerProblem>
    );
  }
  if (isPending && !bootstrapLocale) {
    return (
      <div className="flex-grow-1 d-flex align-items-center justify-content-center py-5">
        <Spinner animation="border" variant="primary" role="status">
          <span className="visually-hidden">Carregando...</span>
        </Spinner>
      </div>
    );
  }
  const painel = opened?.panel;
  const view = opened?.view;
  return (
    <div className="viewer flex-grow-1 d-flex flex-column">
      {/* On a narrow screen the role choice moves to a line of its own instead of squeezing the name away. */}
      <header className="d-flex flex-wrap align-items-center column-gap-3 row-gap-2 px-3 py-2 bg-white border-bottom">
        <Link to={paths.home} className="btn btn-outline-secondary btn-sm text-nowrap">
          ← Voltar
        </Link>
        <h1 className="h5 mb-0 text-truncate flex-grow-1" style={{ flexBasis: '8rem', minWidth: 0 }}>
          {painel?.nomePainel}
        </h1>
        {painel && <PanelStatus painelId={painel.id} showIssues={isAdmin} />}
        {canChooseRole && painel?.usaRls && <RoleChoice panelId={painel.id} papel={papel} onChoose={choose} />}
        {painel && (
          <ViewerActions
            painelId={painel.id}
            nomePainel={painel.nomePainel}
            permiteExportacao={painel.permiteExportacao}
            permiteExportarDados={painel.permiteExportarDados}
            controls={controls}
            pagina={pagina}
            onApplyView={applyView}
            onViewDeleted={viewDeleted}
            isAdmin={isAdmin}
            wait={wait}
            subscribeAction={subscribeAction}
          />
        )}
      </header>
      {sharedView.warning && sharedView.warning !== dismissedWarning && (
        <Alert
          variant="warning"
          dismissible
          closeLabel="Fechar"
          onClose={() => setDismissedWarning(sharedView.warning)}
          className="rounded-0 mb-0 py-2 px-3 border-0 border-bottom"
        >
          {sharedView.warning}
        </Alert>
      )}
      {painel?.usaRls && (
        <Alert variant="info" className="rounded-0 mb-0 py-2 px-3 border-0 border-bottom">
          {RLS_BANNER}
        </Alert>
      )}
      {/* Another role is another identity: the report is embedded anew with its token (and its opening's view). Until
          the panel arrives the area is there for Power BI's bootstrap but not shown: the header above it grows when
          the panel's name and actions come (on a phone by a line or two), and a report area seen moving down would
          be a layout shift. */}
      <div
        className="flex-grow-1 d-flex flex-column"
        style={{ minHeight: 0, visibility: painel ? undefined : 'hidden' }}
      >
        <ReportArea
          key={papel ?? ''}
          painel={painel}
          papel={papel}
          view={view}
          portalLocale={configuration?.idiomaRelatorios}
          bootstrapLocale={bootstrapLocale}
          initialPage={pagina}
          onPageChange={showPage}
          onReady={setControls}
          {...(createEmbedder ? { createEmbedder } : {})}
        />
      </div>
    </div>
  );
}

/** The panel's own language as the panel list has it in the cache (undefined: not listed there, or none). */
function listedLocale(groups: GrupoPaineis[] | undefined, panelId: number): string | undefined {
  for (const group of groups ?? []) {
    const listed = group.paineis.find((p) => p.id === panelId);
    if (listed) return listed.idioma ?? undefined;
  }
  return undefined;
}

/** The admin's choice of the RLS role to preview the panel as; all roles by default. */
function RoleChoice({
  panelId,
  papel,
  onChoose,
}: {
  panelId: number;
  papel: string | undefined;
  onChoose: (role: string) => void;
}) {
  const { data: roles, isPending } = useRoleNames(panelId);
  const options = roles ?? [];
  // A role in the address that the list does not (yet) hold is still shown as chosen.
  const listed = papel && !options.includes(papel) ? [papel, ...options] : options;
  return (
    <div className="d-flex align-items-center gap-2">
      <Form.Label htmlFor="papel-rls" className="mb-0 small text-nowrap">
        {ROLE_LABEL}
      </Form.Label>
      <Form.Select
        id="papel-rls"
        size="sm"
        style={{ width: 'auto', maxWidth: 280 }}
        value={papel ?? ''}
        disabled={isPending}
        onChange={(event) => onChoose(event.target.value)}
      >
        <option value="">{ALL_ROLES}</option>
        {listed.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </Form.Select>
    </div>
  );
}

function ViewerProblem({
  title,
  detail,
  variant = title === PANEL_NOT_FOUND ? 'warning' : 'danger',
  onRetry,
  children,
}: {
  title: string;
  detail?: string;
  variant?: 'warning' | 'danger';
  onRetry?: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="container py-5" style={{ maxWidth: 640 }}>
      <Alert variant={variant}>
        <Alert.Heading as="h1" className="h4">
          {title}
        </Alert.Heading>
        {detail && <p className="mb-0">{detail}</p>}
      </Alert>
      <div className="d-flex gap-2">
        <Link to={paths.home} className="btn btn-primary">
          Voltar para Lista
        </Link>
        {onRetry && (
          <Button variant="outline-secondary" onClick={onRetry}>
            Tentar novamente
          </Button>
        )}
        {children}
      </div>
    </div>
  );
}
