import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import type { PainelComEmbed } from '@paineis/contract/panels';
import type { PanelView } from '../api/fetch-panel.ts';
import { getPanelToken } from '../api/get-panel-token.ts';
import { postViewTimings } from '../api/post-view-timings.ts';
import { createReportEmbedder } from '../embedding/create-report-embedder.ts';
import {
  EMBED_TOKEN_MISSING,
  EmbedderError,
  isTokenExpired,
  REPORT_INIT_ERROR,
  type EmbedderFactory,
  type ReportControls,
  type ReportEmbedder,
  type ReportPage,
} from '../embedding/report-embedder.ts';
import { LOADED_MARK, markReportLoading } from '../embedding/report-loading.ts';
import { trackViewTimings } from '../embedding/view-timings.ts';
import { formatDateTime } from '../../../lib/format.ts';

export const REPORT_ERROR_TITLE = 'Erro ao carregar relatório';

/** The error panel of docs/requirements.md#error-catalogue: a title, the message and what helps to debug it. */
export function ReportError({ message, painel }: { message: string; painel: PainelComEmbed }) {
  return (
    <Alert variant="danger" className="m-3">
      <Alert.Heading as="h2" className="h5">
        {REPORT_ERROR_TITLE}
      </Alert.Heading>
      <p className="mb-2">{message}</p>
      <details>
        <summary>Informações para depuração</summary>
        <dl className="row small mb-0 mt-2">
          <dt className="col-sm-3">Painel</dt>
          <dd className="col-sm-9">{painel.id}</dd>
          <dt className="col-sm-3">Workspace ID</dt>
          <dd className="col-sm-9 font-monospace">{painel.workspaceId}</dd>
          <dt className="col-sm-3">Report ID</dt>
          <dd className="col-sm-9 font-monospace">{painel.reportId}</dd>
          <dt className="col-sm-3">URL de incorporação</dt>
          <dd className="col-sm-9 font-monospace text-break">{painel.embedUrl || '—'}</dd>
          <dt className="col-sm-3">Token expira em</dt>
          <dd className="col-sm-9">
            {painel.tokenExpiration ? formatDateTime(new Date(painel.tokenExpiration)) : '—'}
          </dd>
        </dl>
      </details>
    </Alert>
  );
}

/** Renew the embed token this long before it expires (at most half its life, for short-lived tokens). */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** setTimeout's longest delay; a later expiry is re-armed when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647;
export const DEMO_BADGE = 'Demonstração';
/** How long the report may take to load (its `loaded` event) before the person is told and offered to try again. */
export const REPORT_LOAD_TIMEOUT_MS = 30_000;
export const REPORT_NOT_LOADED = 'O relatório não carregou.';
export const RETRY = 'Tentar novamente';
const NOT_LOADED_IN_TIME = (ms: number) => `O Power BI não abriu o relatório em ${Math.round(ms / 1000)} segundos.`;
const NOT_LOADED_ERROR = 'O Power BI informou um erro ao abrir o relatório.';
const NOT_LOADED_ADVICE = 'Tente novamente; se o problema continuar, avise o administrador do portal.';

/** Why the report did not load: no `loaded` within the time limit, or an error event before it. */
type Stall = 'tempo' | 'erro';

/** What the person reads instead of the loading overlay when the report did not load, with a way to try again. */
function ReportNotLoaded({ stall, timeoutMs, onRetry }: { stall: Stall; timeoutMs: number; onRetry: () => void }) {
  return (
    <div className="position-absolute top-0 start-0 w-100 h-100 d-flex align-items-center justify-content-center bg-body p-3">
      <Alert variant="warning" className="mb-0" style={{ maxWidth: 560 }}>
        <Alert.Heading as="h2" className="h5">
          {REPORT_NOT_LOADED}
        </Alert.Heading>
        <p className="mb-3">
          {stall === 'tempo' ? NOT_LOADED_IN_TIME(timeoutMs) : NOT_LOADED_ERROR} {NOT_LOADED_ADVICE}
        </p>
        <Button variant="primary" onClick={onRetry}>
          {RETRY}
        </Button>
      </Alert>
    </div>
  );
}

interface ReportAreaProps {
  /** undefined: still on its way; the report is bootstrapped meanwhile when bootstrapLocale is given. */
  painel: PainelComEmbed | undefined;
  /** The portal's report language (GET /configuracao), for a panel without its own. */
  portalLocale?: string | undefined;
  /**
   * While the panel is on its way: the locale to bootstrap Power BI in (the panel's from the list, else the portal's),
   * so that the report's own loading overlaps the token's (docs/requirements.md#report-loading). None: no bootstrap.
   */
  bootstrapLocale?: string | undefined;
  /** The RLS role an admin previews the panel as; renewed tokens are asked for the same role. */
  papel?: string | undefined;
  /** The view the server recorded for this opening, told how fast the report loaded; none: nothing is reported. */
  view?: PanelView | null | undefined;
  /** Tests pass a fake; by default powerbi-client, or the demo host when the API names one. */
  createEmbedder?: EmbedderFactory;
  refreshMarginMs?: number;
  /** How long the report may take to load; REPORT_LOAD_TIMEOUT_MS unless a test says otherwise. */
  loadTimeoutMs?: number;
  /** The page to open on (`?pagina=`); the first visible page when absent or not a visible page. */
  initialPage?: string | undefined;
  /** Each page the report shows, the first one included. */
  onPageChange?: ((name: string) => void) | undefined;
  /** The report once loaded and on its first page (null again when it goes away). */
  onReady?: ((controls: ReportControls | null) => void) | undefined;
}

/**
 * Where the report goes: a 220 px sidebar of the visible report pages beside the embedded report, using the
 * full height below the header (docs/requirements.md#screen-viewer, #report-viewer, #look-and-feel).
 */
/** The fields the area reads before the panel has arrived: none yet (the embed waits for the panel). */
const PENDING = { id: 0, reportId: '', embedUrl: '', demoEmbedUrl: undefined } as unknown as PainelComEmbed;

export function ReportArea({ painel, ...options }: ReportAreaProps) {
  if (painel && !painel.embedToken) return <ReportError message={EMBED_TOKEN_MISSING} painel={painel} />;
  return <EmbeddedReport painel={painel} {...options} />;
}

function EmbeddedReport({
  painel,
  papel,
  view,
  portalLocale,
  bootstrapLocale,
  createEmbedder = createReportEmbedder,
  refreshMarginMs = TOKEN_REFRESH_MARGIN_MS,
  loadTimeoutMs = REPORT_LOAD_TIMEOUT_MS,
  initialPage,
  onPageChange,
  onReady,
}: ReportAreaProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const embedderRef = useRef<{ setPage(name: string): Promise<void> } | null>(null);
  // The embed starts from the token the panel came with; later tokens go to the live report, never re-embed. Its
  // load times go to the view of the opening that embedded it, not to that of a later refetch. The page it opens on
  // is the address's when it was embedded: the address then follows the report, not the other way round.
  const initial = useRef({ view, page: initialPage });
  // The token in hand (the panel's, then each renewed one), and when it arrived: an embed tried again uses it while
  // it is good.
  const [firstToken] = useState(() => ({
    token: painel?.embedToken ?? '',
    expiration: painel?.tokenExpiration ?? '',
    receivedAt: Date.now(),
  }));
  const tokenInHand = useRef(firstToken);
  // The latest callbacks, called from the embed's events without embedding anew when they change.
  const callbacks = useRef({ onPageChange, onReady });
  useEffect(() => {
    callbacks.current = { onPageChange, onReady };
  });
  const [loaded, setLoaded] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [pages, setPages] = useState<ReportPage[]>([]);
  const [activePage, setActivePage] = useState<string | null>(null);
  // Each 'Tentar novamente' embeds the report anew.
  const [attempt, setAttempt] = useState(0);
  const [stall, setStall] = useState<Stall | null>(null);
  const { id: panelId, reportId, embedUrl, demoEmbedUrl, permiteExportarDados } = painel ?? PENDING;
  const demo = Boolean(demoEmbedUrl);

  // What arrived with the panel, for an area mounted before it (bootstrapped): its token and its opening's view.
  const arrived = useRef({ painel, view });
  useEffect(() => {
    arrived.current = { painel, view };
  });
  const prepared = useRef<ReportEmbedder | null>(null);
  // Mounted before the panel: Power BI starts loading its scripts now, in the locale known so far.
  useEffect(() => {
    const container = containerRef.current;
    if (!container || !bootstrapLocale || arrived.current.painel) return;
    const embedder = createEmbedder({ reportId: '', embedUrl: '', accessToken: '' });
    // Kept even when it cannot bootstrap (a test's fake): the panel's answer then loads it as any other.
    embedder.bootstrap?.(container, bootstrapLocale);
    prepared.current = embedder;
    return () => {
      if (prepared.current !== embedder) return;
      prepared.current = null;
      embedder.destroy();
    };
    // Once, at mount: the panel's answer then loads into what was bootstrapped.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // The portal's locale is read when the report is embedded, not watched: /configuracao answering after the panel (a
  // deep link) must not embed the report a second time. The panel's own language does (Power BI reads it at load).
  const panelLocale = painel?.idioma;
  const portalLocaleNow = useRef(portalLocale);
  useEffect(() => {
    portalLocaleNow.current = portalLocale;
  });

  useEffect(() => {
    const container = containerRef.current;
    const { painel: current, view: currentView } = arrived.current;
    if (!container || !current) return;
    if (!tokenInHand.current.token) {
      tokenInHand.current = { token: current.embedToken, expiration: current.tokenExpiration, receivedAt: Date.now() };
      initial.current = { ...initial.current, view: currentView };
    }
    const { view: opening, page: firstPage } = initial.current;
    const held = tokenInHand.current;
    let disposed = false;
    let refreshing = false;
    let loadedOnce = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const target = {
      reportId,
      embedUrl,
      accessToken: held.token,
      demoEmbedUrl,
      pageName: firstPage,
      locale: panelLocale ?? portalLocaleNow.current,
      exportData: permiteExportarDados,
    };
    // The bootstrapped embedder, on the first attempt; it starts afresh itself if the locale turned out another.
    const embedder = (attempt === 0 ? prepared.current : null) ?? createEmbedder(target);
    prepared.current = null;
    embedderRef.current = embedder;
    const timings = opening ? trackViewTimings(opening, (body) => postViewTimings(panelId, opening.id, body)) : null;

    /**
     * When to renew the token in hand: refreshMarginMs before it expires, or half-way through its life when that
     * comes later (short-lived tokens). NaN when the expiry is unknown, or already past by this browser's clock
     * when the token arrived (a clock at odds with Power BI's): then only Power BI's TokenExpired event renews it.
     */
    const renewalTime = (expiration: string, receivedAt: number) => {
      const expiry = Date.parse(expiration);
      const lifetime = expiry - receivedAt;
      return lifetime > 0 ? expiry - Math.min(refreshMarginMs, lifetime / 2) : Number.NaN;
    };
    let renewAt = renewalTime(held.expiration, held.receivedAt);

    /** A report that has not loaded (in time, or an error event came first) gives way to ReportNotLoaded. */
    const giveUp = (why: Stall) => {
      if (disposed || loadedOnce) return;
      clearTimeout(limit);
      setStall(why);
    };
    const limit = setTimeout(() => {
      if (disposed || loadedOnce) return;
      // As the other errors of the report: logged, and told with the opening's load times.
      const detail = { message: 'LoadTimeout', detailedMessage: `Sem o evento loaded em ${loadTimeoutMs} ms` };
      console.warn('O relatório Power BI não carregou no tempo limite', detail);
      timings?.error(detail);
      giveUp('tempo');
    }, loadTimeoutMs);

    const refresh = async () => {
      if (refreshing || disposed) return;
      refreshing = true;
      try {
        const renewed = await getPanelToken(panelId, papel);
        if (disposed) return;
        await embedder.setAccessToken(renewed.embedToken);
        const receivedAt = Date.now();
        tokenInHand.current = { token: renewed.embedToken, expiration: renewed.tokenExpiration, receivedAt };
        renewAt = renewalTime(renewed.tokenExpiration, receivedAt);
        schedule();
      } catch (error) {
        // The next expiry event or return to the tab tries again.
        console.warn('Não foi possível renovar o token do relatório', error);
      } finally {
        refreshing = false;
      }
    };

    function schedule() {
      clearTimeout(timer);
      if (Number.isNaN(renewAt)) return;
      timer = setTimeout(
        () => {
          if (Date.now() < renewAt) schedule();
          else void refresh();
        },
        Math.min(Math.max(renewAt - Date.now(), 0), MAX_TIMER_MS),
      );
    }

    const onVisibility = () => {
      if (document.visibilityState === 'visible' && Date.now() >= renewAt) void refresh();
    };

    embedder.on('loaded', () => {
      if (disposed) return;
      markReportLoading(LOADED_MARK);
      loadedOnce = true;
      clearTimeout(limit);
      timings?.loaded();
      // A report that loads after all, past the time limit, is shown.
      setStall(null);
      setLoaded(true);
      void (async () => {
        try {
          const visible = (await embedder.getPages()).filter((page) => page.visibility === 0);
          if (disposed) return;
          setPages(visible);
          const first = visible.find((page) => page.name === firstPage) ?? visible[0];
          if (first) {
            await embedder.setPage(first.name);
            if (!disposed) setActivePage(first.name);
          }
        } catch (error) {
          console.warn('Não foi possível ler as páginas do relatório', error);
        }
        // On its first page: a shared view applied now is not undone by that page's choice.
        if (!disposed) callbacks.current.onReady?.(embedder);
      })();
    });
    embedder.on('pageChanged', (detail) => {
      const name = (detail as { newPage?: { name?: unknown } } | null)?.newPage?.name;
      if (!disposed && typeof name === 'string') setActivePage(name);
    });
    embedder.on('rendered', () => {
      if (!disposed) timings?.rendered();
    });
    embedder.on('error', (detail) => {
      if (!disposed) timings?.error(detail);
      if (isTokenExpired(detail)) {
        void refresh();
        return;
      }
      // docs/requirements.md#error-catalogue: report error events are logged; one that comes before the report has
      // loaded means it will not, and the person is told so rather than left with the loading overlay.
      console.warn('Erro do relatório Power BI', detail);
      giveUp('erro');
    });

    const embed = () => {
      schedule();
      embedder.load(container, target).catch((error: unknown) => {
        if (!disposed) setFailure(error instanceof EmbedderError ? error.message : REPORT_INIT_ERROR);
      });
    };
    document.addEventListener('visibilitychange', onVisibility);
    // Tried again with a token that is due for renewal (or expired by this browser's clock): a new one first.
    if (attempt > 0 && !(Date.now() < renewAt)) {
      getPanelToken(panelId, papel).then(
        (renewed) => {
          if (disposed) return;
          const receivedAt = Date.now();
          tokenInHand.current = { token: renewed.embedToken, expiration: renewed.tokenExpiration, receivedAt };
          renewAt = renewalTime(renewed.tokenExpiration, receivedAt);
          target.accessToken = renewed.embedToken;
          embed();
        },
        (error: unknown) => {
          console.warn('Não foi possível obter um novo token do relatório', error);
          giveUp('erro');
        },
      );
    } else {
      embed();
    }

    return () => {
      disposed = true;
      clearTimeout(limit);
      // Leaving before the report rendered still tells what is known (sent with keepalive, so it outlives the page).
      timings?.close();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      embedderRef.current = null;
      callbacks.current.onReady?.(null);
      embedder.destroy();
    };
  }, [
    createEmbedder,
    refreshMarginMs,
    loadTimeoutMs,
    attempt,
    panelId,
    papel,
    reportId,
    embedUrl,
    demoEmbedUrl,
    permiteExportarDados,
    panelLocale,
  ]);

  // The address follows the page shown, however it was chosen (the sidebar, the report, a view applied).
  useEffect(() => {
    if (activePage) callbacks.current.onPageChange?.(activePage);
  }, [activePage]);

  const choosePage = (name: string) => {
    const embedder = embedderRef.current;
    if (!embedder || name === activePage) return;
    embedder.setPage(name).then(
      () => setActivePage(name),
      (error: unknown) => console.warn('Não foi possível trocar a página do relatório', error),
    );
  };

  const retry = () => {
    setStall(null);
    setLoaded(false);
    setPages([]);
    setAttempt((n) => n + 1);
  };

  if (failure && painel) return <ReportError message={failure} painel={painel} />;
  return (
    <div className="report-layout flex-grow-1 d-flex">
      <nav className="report-pages border-end bg-white" aria-label="Páginas do relatório">
        {demo && (
          <div className="px-3 pt-2">
            <Badge bg="warning" text="dark">
              {DEMO_BADGE}
            </Badge>
          </div>
        )}
        <ListGroup variant="flush" className="py-2">
          {pages.map((page) => (
            <ListGroup.Item
              key={page.name}
              as="button"
              type="button"
              action
              active={page.name === activePage}
              aria-current={page.name === activePage ? 'page' : undefined}
              onClick={() => choosePage(page.name)}
            >
              {page.displayName}
            </ListGroup.Item>
          ))}
        </ListGroup>
      </nav>
      <div className="report-frame flex-grow-1 position-relative">
        <div ref={containerRef} className="position-absolute top-0 start-0 w-100 h-100" />
        {stall && <ReportNotLoaded stall={stall} timeoutMs={loadTimeoutMs} onRetry={retry} />}
        {!loaded && !stall && (
          <div className="position-absolute top-0 start-0 w-100 h-100 d-flex align-items-center justify-content-center bg-body">
            <Spinner animation="border" variant="primary" role="status">
              <span className="visually-hidden">Carregando...</span>
            </Spinner>
          </div>
        )}
      </div>
    </div>
  );
}
