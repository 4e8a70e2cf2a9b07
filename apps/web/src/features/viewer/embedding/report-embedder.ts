export const EMBED_TOKEN_MISSING = 'Token de embed não fornecido';
export const POWER_BI_UNAVAILABLE = 'Power BI não está disponível. Verifique se a biblioteca foi carregada.';
export const POWER_BI_MODELS_MISSING = 'Power BI models não encontrados!';
export const REPORT_INIT_ERROR = 'Erro ao inicializar o relatório';

/** What is needed to open one report. */
export interface EmbedTarget {
  reportId: string;
  embedUrl: string;
  accessToken: string;
  /** Demo mode only: the local stand-in page to show instead of Power BI (see create-report-embedder.ts). */
  demoEmbedUrl?: string | undefined;
  /** The report page to open on (`?pagina=`); the report's own first page when absent. */
  pageName?: string | undefined;
  /** The language and number formats (BCP 47) the report loads with: the panel's, else the portal's. */
  locale?: string | undefined;
  /** False: the panel does not allow 'Exportar dados', so Power BI's own 'Export data' is hidden too. */
  exportData?: boolean | undefined;
}

/** powerbi-models' CommandDisplayOption.Hidden, a number here as the demo host has no powerbi-models. */
const COMMAND_HIDDEN = 2;

/** Power BI's public cloud, where a bootstrapped element loads its scripts before the panel's embedUrl is known. */
export const POWER_BI_HOST = 'https://app.powerbi.com';
/** The page powerbi-client's preload() warms the browser cache with (Power BI's scripts and styles). */
export const POWER_BI_PRELOAD_URL = `${POWER_BI_HOST}/reportEmbed`;

/** Power BI's localeSettings: the texts' language and the numbers' and dates' formats, both from one tag. */
export const localeSettingsOf = (locale: string) => ({ language: locale, formatLocale: locale });

/**
 * What opens a report, for powerbi-client's embed() and the demo host alike: filter pane shown; page navigation,
 * navigation pane and command bar hidden (docs/requirements.md#viewer-embed-settings). The token type and background
 * are Power BI's enum values, which the demo host, without powerbi-client, gives as numbers.
 */
export function reportConfiguration<TokenType extends number, Background extends number>(
  { reportId, embedUrl, accessToken, pageName, locale, exportData }: EmbedTarget,
  { tokenType, background }: { tokenType: TokenType; background: Background },
) {
  return {
    type: 'report',
    id: reportId,
    embedUrl,
    accessToken,
    tokenType,
    ...(pageName ? { pageName } : {}),
    settings: {
      panes: { filters: { visible: true }, pageNavigation: { visible: false } },
      navContentPaneEnabled: false,
      bars: { actionBar: { visible: false } },
      background,
      ...(locale ? { localeSettings: localeSettingsOf(locale) } : {}),
      // The visual's context menu offers 'Export data' unless hidden: the panel's setting, in Power BI's menu too.
      ...(exportData === false ? { commands: [{ exportData: { displayOption: COMMAND_HIDDEN } }] } : {}),
    },
  };
}

/** A report page as Power BI describes it; visibility 0 is a visible page. */
export interface ReportPage {
  name: string;
  displayName: string;
  visibility: number;
}

export type ReportEventName = 'loaded' | 'rendered' | 'error' | 'pageChanged';

/** A visual of a report page, as powerbi-client's getVisuals describes it (type: Power BI's, as 'card'). */
export interface ReportVisual {
  name: string;
  title: string;
  type: string;
}

/** 'Dados resumidos' and 'Dados subjacentes': Power BI's ExportDataType Summarized (0) and Underlying (1). */
export type DataExportKind = 'resumidos' | 'subjacentes';
export const EXPORT_DATA_TYPE: Record<DataExportKind, 0 | 1> = { resumidos: 0, subjacentes: 1 };

/** Microsoft's limit on the rows of one visual's data export. */
export const MAX_EXPORT_DATA_ROWS = 30_000;

/** The one seam between the viewer and whatever embeds the report (powerbi-client, or the demo host). */
export interface ReportEmbedder {
  /** Whether this shows the demonstration stand-in instead of Power BI. */
  readonly demo: boolean;
  /** Rejects with an EmbedderError whose message is the user-facing one (docs/requirements.md#error-catalogue). */
  load(container: HTMLElement, target: EmbedTarget): Promise<void>;
  /**
   * Starts the report's own loading (Power BI's scripts) in the container before the panel and its token arrive;
   * load() on the same container then reuses it. Power BI takes the locale only here: a load() in another locale
   * starts afresh. Optional: an embedder without it simply loads later.
   */
  bootstrap?(container: HTMLElement, locale: string): void;
  /** Register before load(); the handler gets the event's detail. */
  on(event: ReportEventName, handler: (detail: unknown) => void): void;
  getPages(): Promise<ReportPage[]>;
  setPage(name: string): Promise<void>;
  setAccessToken(token: string): Promise<void>;
  /** The report's current state (filters, slicers, page) as a bookmark state: bookmarksManager.capture(). */
  captureState(): Promise<string>;
  /** Puts the report in a captured state: bookmarksManager.applyState(). */
  applyState(state: string): Promise<void>;
  /** The browser's print dialog for the report. */
  print(): Promise<void>;
  /** The page shown and its visuals: getActivePage() then page.getVisuals(). */
  getVisuals(): Promise<{ page: ReportPage; visuals: ReportVisual[] }>;
  /**
   * One visual's data as Power BI's CSV text (visual.exportData(type, rows)); rejects with Power BI's error (an
   * object with `message` and `detailedMessage`) when it refuses.
   */
  exportData(pageName: string, visualName: string, kind: DataExportKind, rows: number): Promise<string>;
  /** The report alone on the whole screen. */
  fullscreen(): void;
  destroy(): void;
}

/** What the viewer's header does to a report once it has loaded. */
export type ReportControls = Pick<
  ReportEmbedder,
  'captureState' | 'applyState' | 'print' | 'fullscreen' | 'getVisuals' | 'exportData'
>;

export class EmbedderError extends Error {}

export type EmbedderFactory = (target: EmbedTarget) => ReportEmbedder;

/** Power BI reports an expired token as an error event whose detail.message is 'TokenExpired'. */
export function isTokenExpired(detail: unknown): boolean {
  return typeof detail === 'object' && detail !== null && (detail as { message?: unknown }).message === 'TokenExpired';
}
