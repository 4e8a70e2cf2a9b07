import type { EmbedInfo, Painel } from '@paineis/contract/panels';
import { MicrosoftError } from '../microsoft-error.ts';

export interface EmbedViewer {
  id: string;
  email: string;
  isAdmin: boolean;
  /** For a panel with RLS: the roles the report is opened with (the effective identity's roles). */
  roles: string[];
}

/** Obtains what the browser needs to embed one panel's report for one user. */
export interface EmbeddingService {
  embedFor(panel: Painel, viewer: EmbedViewer): Promise<EmbedInfo>;
}

/** Until a Power BI client is configured: an honest 503, never a made-up token. */
export class UnavailableEmbeddingService implements EmbeddingService {
  async embedFor(): Promise<EmbedInfo> {
    throw new MicrosoftError('power-bi', 'not-configured', 'Power BI não configurado neste servidor.');
  }
}
