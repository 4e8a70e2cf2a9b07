import type * as PowerBi from 'powerbi-client';
import type { Report, service as powerBiService } from 'powerbi-client';
import {
  EMBED_TOKEN_MISSING,
  EmbedderError,
  POWER_BI_MODELS_MISSING,
  POWER_BI_UNAVAILABLE,
  localeSettingsOf,
  POWER_BI_HOST,
  POWER_BI_PRELOAD_URL,
  REPORT_INIT_ERROR,
  reportConfiguration,
} from './report-embedder.ts';
import { EXPORT_DATA_TYPE } from './report-embedder.ts';
import { EMBED_MARK, markReportLoading } from './report-loading.ts';
import type {
  DataExportKind,
  EmbedTarget,
  ReportEmbedder,
  ReportEventName,
  ReportPage,
  ReportVisual,
} from './report-embedder.ts';

type PowerBiModule = typeof PowerBi;

/**
 * Loaded on demand so that the ~33 kB library stays in the viewer's own chunk. Evaluating it is a task of its own;
 * embedding waits for the next one, so that the two do not add up to one long task (the page answers nothing
 * meanwhile).
 */
const importPowerBi = (): Promise<Partial<PowerBiModule>> =>
  import('powerbi-client').then((library) => new Promise((resolve) => setTimeout(() => resolve(library))));

/** The library is a CommonJS bundle: depending on the bundler its exports come named or under `default`. */
function exportsOf(loaded: Partial<PowerBiModule> & { default?: Partial<PowerBiModule> }): Partial<PowerBiModule> {
  return loaded.service ? loaded : (loaded.default ?? loaded);
}

/**
 * powerbi-client's preload(): a hidden iframe on Power BI's report page, so that its scripts and styles are in the
 * browser's cache when a report opens (docs/requirements.md#report-loading). Answers the iframe, or null when the
 * library cannot be had (the list does not care).
 */
export async function preloadPowerBi(
  loadLibrary: () => Promise<Partial<PowerBiModule>> = importPowerBi,
): Promise<HTMLIFrameElement | null> {
  try {
    const { service, factories } = exportsOf(await loadLibrary());
    if (!service || !factories) return null;
    const powerbi = new service.Service(factories.hpmFactory, factories.wpmpFactory, factories.routerFactory);
    return powerbi.preload({ type: 'report', embedUrl: POWER_BI_PRELOAD_URL });
  } catch (error) {
    console.warn('Não foi possível pré-carregar o Power BI', error);
    return null;
  }
}

/**
 * Once the browser has painted what is on screen (a frame, then a task): the library and Power BI's page are asked
 * for after the viewer's first paint, not before it, where they would compete with it on a slow network. At most
 * 100 ms: a tab in the background gets no frames.
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const limit = setTimeout(resolve, 100);
    const next = () => setTimeout(() => (clearTimeout(limit), resolve()), 0);
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(next);
    else next();
  });
}

/** Embeds a real Power BI report with powerbi-client. */
export class PowerBiEmbedder implements ReportEmbedder {
  readonly demo = false;
  private powerbi: powerBiService.Service | null = null;
  private container: HTMLElement | null = null;
  private report: Report | null = null;
  private readonly handlers: [ReportEventName, (detail: unknown) => void][] = [];

  /** The element bootstrapped before the panel arrived, in which locale, and when that is done (false: failed). */
  private bootstrapped: { container: HTMLElement; locale: string; ready: Promise<boolean> } | null = null;
  /** Counts destroy() calls: a load begun before one gives up. */
  private generation = 0;

  constructor(private readonly loadLibrary: () => Promise<Partial<PowerBiModule>> = importPowerBi) {}

  /**
   * powerbi-client's bootstrap(): the report's iframe on Power BI's host, loading its scripts in the given locale
   * while the portal still waits for the panel and its embed token. Power BI cannot change the locale afterwards.
   */
  bootstrap(container: HTMLElement, locale: string): void {
    const ready = afterPaint()
      .then(() => this.loadLibrary())
      .then(
        (loaded) => {
          const { service, factories } = exportsOf(loaded);
          // Destroyed or loaded meanwhile: nothing to bootstrap any more.
          if (!service || !factories || this.bootstrapped?.ready !== ready || this.report) return false;
          this.powerbi = new service.Service(factories.hpmFactory, factories.wpmpFactory, factories.routerFactory);
          this.container = container;
          this.powerbi.bootstrap(container, {
            type: 'report',
            hostname: POWER_BI_HOST,
            settings: { localeSettings: localeSettingsOf(locale) },
          });
          return true;
        },
        () => false,
      );
    this.bootstrapped = { container, locale, ready };
  }

  async load(container: HTMLElement, target: EmbedTarget): Promise<void> {
    if (!target.accessToken) throw new EmbedderError(EMBED_TOKEN_MISSING);
    // Destroyed while this waited for the bootstrap or the library: it embeds nothing, since whoever replaced it
    // embeds in the same element, and two services on one element fail ('could not find the existing component').
    let generation = this.generation;
    const booted = this.bootstrapped;
    const bootedReady = booted ? await booted.ready : false;
    if (generation !== this.generation) return;
    this.bootstrapped = null;
    // Bootstrapped elsewhere or in another locale (a deep link to a panel with its own language): Power BI keeps the
    // bootstrap's locale, so the element is reset and the report embedded afresh.
    if (booted && bootedReady && (booted.container !== container || booted.locale !== target.locale)) {
      this.destroy();
      generation = this.generation;
    }
    let library: Partial<PowerBiModule>;
    try {
      library = exportsOf(await this.loadLibrary());
    } catch {
      throw new EmbedderError(POWER_BI_UNAVAILABLE);
    }
    if (generation !== this.generation) return;
    const { service, factories, models } = library;
    if (!service || !factories) throw new EmbedderError(POWER_BI_UNAVAILABLE);
    if (!models) throw new EmbedderError(POWER_BI_MODELS_MISSING);
    try {
      // On a bootstrapped element, embed() loads the report into the iframe already there (embedExisting).
      this.powerbi ??= new service.Service(factories.hpmFactory, factories.wpmpFactory, factories.routerFactory);
      this.container = container;
      markReportLoading(EMBED_MARK);
      this.report = this.powerbi.embed(
        container,
        reportConfiguration(target, {
          tokenType: models.TokenType.Embed,
          background: models.BackgroundType.Transparent,
        }),
      ) as Report;
    } catch {
      throw new EmbedderError(REPORT_INIT_ERROR);
    }
    const report = this.report;
    for (const [event, handler] of this.handlers) {
      report.on(event, (custom: powerBiService.ICustomEvent<unknown>) => handler(custom.detail));
    }
  }

  on(event: ReportEventName, handler: (detail: unknown) => void): void {
    this.handlers.push([event, handler]);
  }

  async getPages(): Promise<ReportPage[]> {
    const pages = await this.requireReport().getPages();
    return pages.map(({ name, displayName, visibility }) => ({ name, displayName, visibility: visibility ?? 0 }));
  }

  async setPage(name: string): Promise<void> {
    await this.requireReport().setPage(name);
  }

  async setAccessToken(token: string): Promise<void> {
    await this.requireReport().setAccessToken(token);
  }

  async captureState(): Promise<string> {
    const bookmark = await this.requireReport().bookmarksManager.capture();
    if (!bookmark.state) throw new Error('O Power BI não devolveu o estado do relatório.');
    return bookmark.state;
  }

  async applyState(state: string): Promise<void> {
    await this.requireReport().bookmarksManager.applyState(state);
  }

  async print(): Promise<void> {
    await this.requireReport().print();
  }

  async getVisuals(): Promise<{ page: ReportPage; visuals: ReportVisual[] }> {
    const page = await this.requireReport().getActivePage();
    const visuals = await page.getVisuals();
    return {
      page: { name: page.name, displayName: page.displayName, visibility: page.visibility ?? 0 },
      visuals: visuals.map(({ name, title, type }) => ({ name, title, type })),
    };
  }

  async exportData(pageName: string, visualName: string, kind: DataExportKind, rows: number): Promise<string> {
    const page = this.requireReport().page(pageName);
    const visual = await page.getVisualByName(visualName);
    const result = await visual.exportData(EXPORT_DATA_TYPE[kind], rows);
    return result.data;
  }

  fullscreen(): void {
    this.requireReport().fullscreen();
  }

  destroy(): void {
    this.generation += 1;
    this.bootstrapped = null;
    if (this.powerbi && this.container) this.powerbi.reset(this.container);
    this.report = null;
    this.powerbi = null;
    this.container = null;
  }

  private requireReport(): Report {
    if (!this.report) throw new Error('O relatório ainda não foi incorporado.');
    return this.report;
  }
}
