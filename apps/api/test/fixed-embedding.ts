import type { EmbeddingService } from '../src/integrations/power-bi/embedding-service.ts';

/**
 * An embedding that answers one made-up token for every panel, for suites about something else than Power BI (a
 * panel a user may see then answers 200 instead of the 503 of "not configured"). Power BI itself is played by the
 * stand-in in the suites about embedding.
 */
export function fixedEmbedding(token: string): EmbeddingService {
  return {
    embedFor: async () => ({
      info: {
        embedToken: token,
        embedUrl: 'https://app.powerbi.com/reportEmbed?reportId=teste',
        tokenExpiration: new Date(Date.now() + 3_600_000).toISOString(),
      },
      identity: null,
      requestId: null,
      fromCache: false,
    }),
    // Always asks embedFor, as a service with nothing in memory does.
    embeddedNow: () => undefined,
  };
}
