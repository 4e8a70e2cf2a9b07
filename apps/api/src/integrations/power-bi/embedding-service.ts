import type { EmbedInfo, Painel } from '@paineis/contract/panels';
import { MicrosoftError } from '../microsoft-error.ts';

export interface EmbedViewer {
  id: string;
  email: string;
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
}

/** Until a Power BI client is configured: an honest 503, never a made-up token. */
export class UnavailableEmbeddingService implements EmbeddingService {
  async embedFor(): Promise<Embedding> {
    throw new MicrosoftError('power-bi', 'not-configured', 'Power BI não configurado neste servidor.');
  }
}
