import type { TemposVisualizacaoBody } from '@paineis/contract/usage';
import type { PanelView } from '../api/fetch-panel.ts';

/** After an error event with no `rendered` yet, how long to wait for more (or for `rendered`) before reporting. */
export const ERROR_REPORT_DELAY_MS = 2_000;
/** What the API takes (temposVisualizacaoBody): times up to an hour, at most 10 errors of at most 500 characters. */
const MAX_TIME_MS = 3_600_000;
const MAX_ERRORS = 10;
const MAX_ERROR_LENGTH = 500;

/** The report's events, as the viewer hands them on; `close` when the report goes (unmounted, or the page left). */
export interface ViewTimings {
  loaded(): void;
  rendered(): void;
  error(detail: unknown): void;
  close(): void;
}

/** Views already reported: one report per opening, even if the embed is set up again for the same view. */
const reported = new WeakSet<PanelView>();

/** An error event's detail as a short text: its `message` (as Power BI's errors have), or the detail itself. */
export function errorText(detail: unknown): string {
  const message = typeof detail === 'object' && detail !== null ? (detail as { message?: unknown }).message : detail;
  let text: string;
  if (typeof message === 'string' && message) text = message;
  else {
    try {
      text = JSON.stringify(detail) ?? String(detail);
    } catch {
      text = String(detail);
    }
  }
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * Times one opening's report from the moment the viewer asked for the panel (docs/requirements.md#usage), and reports
 * them once: at the first `rendered` (with both times), a short while after an error that came before it (with what is
 * known), or when the report goes before either (with what is known, if anything).
 */
export function trackViewTimings(
  view: PanelView,
  send: (body: TemposVisualizacaoBody) => void,
  { now = () => performance.now() } = {},
): ViewTimings {
  let carregadoMs: number | undefined;
  let renderizadoMs: number | undefined;
  const erros: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = () => reported.has(view);

  /** Milliseconds since the panel was asked for; none beyond what the API takes (a tab asleep, a clock gone wrong). */
  const elapsed = () => {
    const ms = Math.round(now() - view.askedAt);
    return ms >= 0 && ms <= MAX_TIME_MS ? ms : undefined;
  };

  const report = () => {
    clearTimeout(timer);
    if (done() || (carregadoMs === undefined && renderizadoMs === undefined && erros.length === 0)) return;
    reported.add(view);
    send({
      ...(carregadoMs === undefined ? {} : { carregadoMs }),
      ...(renderizadoMs === undefined ? {} : { renderizadoMs }),
      ...(erros.length ? { erros } : {}),
    });
  };

  // Closing the tab unmounts nothing: what is known goes as the page is left.
  window.addEventListener('pagehide', report);

  return {
    loaded() {
      if (!done() && carregadoMs === undefined) carregadoMs = elapsed();
    },
    rendered() {
      if (done() || renderizadoMs !== undefined) return;
      renderizadoMs = elapsed();
      report();
    },
    error(detail) {
      if (done()) return;
      if (erros.length < MAX_ERRORS) erros.push(errorText(detail));
      timer ??= setTimeout(report, ERROR_REPORT_DELAY_MS);
    },
    close() {
      window.removeEventListener('pagehide', report);
      report();
    },
  };
}
