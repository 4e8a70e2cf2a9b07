import type { EmbeddingService, EmbedViewer } from '../src/integrations/power-bi/embedding-service.ts';

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

/**
 * An embedding that hands out a made-up token and remembers each identity it was asked for, as Power BI would get
 * it: who may open what, with which RLS roles.
 */
export function recordingEmbedding() {
  const calls: { painelId: number; viewer: EmbedViewer }[] = [];
  const service: EmbeddingService = {
    embedFor: async (panel, viewer) => {
      calls.push({ painelId: panel.id, viewer });
      return {
        info: {
          embedToken: 'token-de-teste',
          embedUrl: 'https://app.powerbi.com/reportEmbed?reportId=teste',
          tokenExpiration: new Date(Date.now() + 3_600_000).toISOString(),
        },
        identity: panel.usaRls ? { username: viewer.username, roles: viewer.roles } : null,
        requestId: null,
        fromCache: false,
      };
    },
    embeddedNow: () => undefined,
  };
  return { service, calls };
}
