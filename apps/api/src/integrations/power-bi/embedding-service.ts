import type { EmbedInfo, Painel } from '@paineis/contract/panels';
import { MicrosoftError } from '../microsoft-error.ts';
import type { PowerBiExport, PowerBiFile } from './power-bi-client.ts';

export interface EmbedViewer {
  id: string;
  /** The effective identity's username on a panel with RLS: the person's UPN or e-mail, as RLS_USERNAME says. */
  username: string;
  isAdmin: boolean;
  /** For a panel with RLS: the roles the report is opened with (the effective identity's roles). */
  roles: string[];
}

/** What the browser needs to embed the report, and how it was obtained (kept in the view's record). */
export interface Embedding {
  info: EmbedInfo;
  /** The effective identity in the token; null without RLS. */
  identity: { username: string; roles: string[] } | null;
  /** Power BI's RequestId of the GenerateToken call that made the token. */
  requestId: string | null;
  /** Whether the token was one made earlier for the same report and identity. */
  fromCache: boolean;
}

/** Obtains what the browser needs to embed one panel's report for one user. */
export interface EmbeddingService {
  embedFor(panel: Painel, viewer: EmbedViewer): Promise<Embedding>;
  /** embedFor without waiting: the token in memory for this report and identity, or undefined (then ask embedFor). */
  embeddedNow(panel: Painel, viewer: EmbedViewer): Embedding | undefined;
}

/** What an export is asked for: the format, and the viewer's current state and page. */
export interface ExportRequest {
  format: 'PDF' | 'PPTX';
  /** A bookmark state (powerbi-client's capture): the export's default bookmark. */
  state?: string | undefined;
  /** The one report page to export; every visible page when absent. */
  page?: string | undefined;
}

/** An export job, named as Power BI needs it to poll and download it. */
export interface ExportJob {
  workspaceId: string;
  reportId: string;
  exportId: string;
}

/** Exports of a panel's report to a file, with the same effective identity its embed token would carry. */
export interface ReportExporter {
  startExport(panel: Painel, viewer: EmbedViewer, request: ExportRequest): Promise<ExportJob & PowerBiExport>;
  exportStatus(job: ExportJob, painelId: number): Promise<PowerBiExport>;
  exportFile(job: ExportJob, painelId: number): Promise<PowerBiFile>;
}

/** This server has no Power BI configuration: every use of Power BI fails so, and one message answers it. */
export const powerBiNotConfigured = () =>
  new MicrosoftError('power-bi', 'not-configured', 'Power BI não configurado neste servidor.');

/** Until a Power BI client is configured: an honest 503, never a made-up token. */
export class UnavailableEmbeddingService implements EmbeddingService, ReportExporter {
  async embedFor(): Promise<Embedding> {
    throw powerBiNotConfigured();
  }

  embeddedNow(): undefined {
    return undefined;
  }

  async startExport(): Promise<never> {
    throw powerBiNotConfigured();
  }

  async exportStatus(): Promise<never> {
    throw powerBiNotConfigured();
  }

  async exportFile(): Promise<never> {
    throw powerBiNotConfigured();
  }
}
