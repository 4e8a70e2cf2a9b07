import {
  EMBED_TOKEN_MISSING,
  EmbedderError,
  EXPORT_DATA_TYPE,
  localeSettingsOf,
  REPORT_INIT_ERROR,
  reportConfiguration,
} from './report-embedder.ts';
import type {
  DataExportKind,
  EmbedTarget,
  ReportEmbedder,
  ReportEventName,
  ReportPage,
  ReportVisual,
} from './report-embedder.ts';

const TOKEN_TYPE_EMBED = 1;
const BACKGROUND_TRANSPARENT = 1;

interface HostMessage {
  method?: unknown;
  url?: unknown;
  statusCode?: unknown;
  headers?: { id?: unknown };
  body?: unknown;
}

/** What a refused request rejects with: the page's answer as text, and as `body` (Power BI's IError, say). */
function powerBiError(body: unknown): Error {
  return Object.assign(new Error(JSON.stringify(body)), { body });
}

function randomId(): string {
  // getRandomValues, unlike randomUUID, also works outside secure contexts.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The demo's embedder: an iframe on the local stand-in embed host, driven with the postMessage protocol that
 * powerbi-client speaks ({method, url, headers: {id, uid}, body} answered by {statusCode, headers: {id}, body};
 * events arrive as POST /reports/{uid}/events/{name}). powerbi-client itself refuses non-Power BI hosts.
 */
export class DemoEmbedder implements ReportEmbedder {
  readonly demo = true;
  private readonly uid = randomId();
  private iframe: HTMLIFrameElement | null = null;
  private readonly handlers = new Map<string, ((detail: unknown) => void)[]>();
  private readonly pending = new Map<string, { resolve: (body: unknown) => void; reject: (error: Error) => void }>();
  private readonly onMessage = (event: MessageEvent<unknown>) => this.receive(event);

  constructor(private readonly hostUrl: string) {}

  load(container: HTMLElement, target: EmbedTarget): Promise<void> {
    if (!target.accessToken) return Promise.reject(new EmbedderError(EMBED_TOKEN_MISSING));
    try {
      const src = new URL(this.hostUrl);
      src.searchParams.set('uid', this.uid);
      // As powerbi-client does with localeSettings: in the page's address, read once as it loads.
      if (target.locale) {
        const { language, formatLocale } = localeSettingsOf(target.locale);
        src.searchParams.set('language', language);
        src.searchParams.set('formatLocale', formatLocale);
      }
      const iframe = document.createElement('iframe');
      iframe.src = src.toString();
      iframe.title = 'Relatório (demonstração)';
      iframe.style.cssText = 'width:100%;height:100%;border:0';
      iframe.addEventListener('load', () => {
        this.request(
          'POST',
          '/report/load',
          reportConfiguration(target, { tokenType: TOKEN_TYPE_EMBED, background: BACKGROUND_TRANSPARENT }),
        ).catch((error: unknown) => {
          console.warn('Relatório de demonstração recusou a carga', error);
          // As powerbi-client does when a report cannot load: an error event, so the viewer does not wait for it.
          this.emit('error', { message: 'LoadReportFailed', detailedMessage: String(error) });
        });
      });
      window.addEventListener('message', this.onMessage);
      container.append(iframe);
      this.iframe = iframe;
    } catch {
      return Promise.reject(new EmbedderError(REPORT_INIT_ERROR));
    }
    return Promise.resolve();
  }

  on(event: ReportEventName, handler: (detail: unknown) => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
  }

  async getPages(): Promise<ReportPage[]> {
    const body = await this.request('GET', '/report/pages', undefined);
    return Array.isArray(body) ? (body as ReportPage[]) : [];
  }

  async setPage(name: string): Promise<void> {
    await this.request('PUT', '/report/pages/active', { name, displayName: null });
  }

  async setAccessToken(token: string): Promise<void> {
    await this.request('POST', '/report/token', token);
  }

  // The same requests powerbi-client's bookmarksManager and print() post.
  async captureState(): Promise<string> {
    const body = (await this.request('POST', '/report/bookmarks/capture', { options: {} })) as { state?: unknown };
    if (typeof body?.state !== 'string') throw new Error('O relatório de demonstração não devolveu o estado.');
    return body.state;
  }

  async applyState(state: string): Promise<void> {
    await this.request('POST', '/report/bookmarks/applyState', { state });
  }

  async print(): Promise<void> {
    await this.request('POST', '/report/print', null);
  }

  fullscreen(): void {
    void this.iframe?.requestFullscreen();
  }

  // The same requests powerbi-client's getActivePage(), page.getVisuals() and visual.exportData() send.
  async getVisuals(): Promise<{ page: ReportPage; visuals: ReportVisual[] }> {
    const pages = await this.request('GET', '/report/pages', undefined);
    const active = Array.isArray(pages)
      ? (pages as (ReportPage & { isActive?: boolean })[]).find((p) => p.isActive)
      : undefined;
    if (!active) throw new Error('O relatório de demonstração não informou a página ativa.');
    const visuals = await this.request('GET', `/report/pages/${active.name}/visuals`, undefined);
    return {
      page: { name: active.name, displayName: active.displayName, visibility: active.visibility },
      visuals: Array.isArray(visuals)
        ? (visuals as ReportVisual[]).map(({ name, title, type }) => ({ name, title, type }))
        : [],
    };
  }

  async exportData(pageName: string, visualName: string, kind: DataExportKind, rows: number): Promise<string> {
    const body = (await this.request('POST', `/report/pages/${pageName}/visuals/${visualName}/exportData`, {
      rows,
      exportDataType: EXPORT_DATA_TYPE[kind],
    })) as { data?: unknown };
    if (typeof body?.data !== 'string') throw new Error('O relatório de demonstração não devolveu os dados.');
    return body.data;
  }

  destroy(): void {
    window.removeEventListener('message', this.onMessage);
    this.iframe?.remove();
    this.iframe = null;
    this.pending.clear();
  }

  private emit(event: ReportEventName, detail: unknown) {
    for (const handler of this.handlers.get(event) ?? []) handler(detail);
  }

  private request(method: string, url: string, body: unknown): Promise<unknown> {
    const target = this.iframe?.contentWindow;
    if (!target) return Promise.reject(new Error('O relatório de demonstração não está aberto.'));
    const id = randomId();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      target.postMessage({ method, url, headers: { id, uid: this.uid }, body }, '*');
    });
  }

  private receive(event: MessageEvent<unknown>) {
    if (!this.iframe || event.source !== this.iframe.contentWindow) return;
    const message = event.data as HostMessage | null;
    if (!message || typeof message !== 'object') return;
    if (typeof message.statusCode === 'number' && typeof message.headers?.id === 'string') {
      const waiting = this.pending.get(message.headers.id);
      if (!waiting) return;
      this.pending.delete(message.headers.id);
      // Power BI's error as powerbi-client rejects with it (its IError: message, detailedMessage…).
      if (message.statusCode >= 400) waiting.reject(powerBiError(message.body));
      else waiting.resolve(message.body);
      return;
    }
    if (message.method === 'POST' && typeof message.url === 'string') {
      const prefix = `/reports/${this.uid}/events/`;
      if (!message.url.startsWith(prefix)) return;
      this.emit(message.url.slice(prefix.length) as ReportEventName, message.body);
    }
  }
}
