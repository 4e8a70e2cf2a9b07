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
}

/** A report page as Power BI describes it; visibility 0 is a visible page. */
export interface ReportPage {
  name: string;
  displayName: string;
  visibility: number;
}

export type ReportEventName = 'loaded' | 'rendered' | 'error' | 'pageChanged';

/** The one seam between the viewer and whatever embeds the report (powerbi-client, or the demo host). */
export interface ReportEmbedder {
  /** Whether this shows the demonstration stand-in instead of Power BI. */
  readonly demo: boolean;
  /** Rejects with an EmbedderError whose message is the user-facing one (docs/requirements.md#error-catalogue). */
  load(container: HTMLElement, target: EmbedTarget): Promise<void>;
  /** Register before load(); the handler gets the event's detail. */
  on(event: ReportEventName, handler: (detail: unknown) => void): void;
  getPages(): Promise<ReportPage[]>;
  setPage(name: string): Promise<void>;
  setAccessToken(token: string): Promise<void>;
  destroy(): void;
}

export class EmbedderError extends Error {}

export type EmbedderFactory = (target: EmbedTarget) => ReportEmbedder;

/** Power BI reports an expired token as an error event whose detail.message is 'TokenExpired'. */
export function isTokenExpired(detail: unknown): boolean {
  return typeof detail === 'object' && detail !== null && (detail as { message?: unknown }).message === 'TokenExpired';
}
