import type { EmbedInfo, Painel } from '@paineis/contract/panels';
import { HttpError } from '../../lib/http-error.ts';

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

export const EMBEDDING_NOT_CONFIGURED =
  'A incorporação de relatórios do Power BI ainda não está disponível neste servidor.';

/** Until a Power BI client is configured: an honest 503, never a made-up token. */
export class UnavailableEmbeddingService implements EmbeddingService {
  async embedFor(): Promise<EmbedInfo> {
    throw new HttpError(503, EMBEDDING_NOT_CONFIGURED);
  }
}
