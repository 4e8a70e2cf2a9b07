import type * as PowerBi from 'powerbi-client';
import type { Report, service as powerBiService } from 'powerbi-client';
import {
  EMBED_TOKEN_MISSING,
  EmbedderError,
  POWER_BI_MODELS_MISSING,
  POWER_BI_UNAVAILABLE,
  REPORT_INIT_ERROR,
  reportConfiguration,
} from './report-embedder.ts';
import type { EmbedTarget, ReportEmbedder, ReportEventName, ReportPage } from './report-embedder.ts';

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

/** Embeds a real Power BI report with powerbi-client. */
export class PowerBiEmbedder implements ReportEmbedder {
  readonly demo = false;
  private powerbi: powerBiService.Service | null = null;
  private container: HTMLElement | null = null;
  private report: Report | null = null;
  private readonly handlers: [ReportEventName, (detail: unknown) => void][] = [];

  constructor(private readonly loadLibrary: () => Promise<Partial<PowerBiModule>> = importPowerBi) {}

  async load(container: HTMLElement, target: EmbedTarget): Promise<void> {
    if (!target.accessToken) throw new EmbedderError(EMBED_TOKEN_MISSING);
    let library: Partial<PowerBiModule>;
    try {
      library = exportsOf(await this.loadLibrary());
    } catch {
      throw new EmbedderError(POWER_BI_UNAVAILABLE);
    }
    const { service, factories, models } = library;
    if (!service || !factories) throw new EmbedderError(POWER_BI_UNAVAILABLE);
    if (!models) throw new EmbedderError(POWER_BI_MODELS_MISSING);
    try {
      this.powerbi = new service.Service(factories.hpmFactory, factories.wpmpFactory, factories.routerFactory);
      this.container = container;
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

  fullscreen(): void {
    this.requireReport().fullscreen();
  }

  destroy(): void {
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
