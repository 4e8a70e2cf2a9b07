import { jwtDecode } from 'jwt-decode';
import { DemoEmbedder } from './demo-embedder.ts';
import { PowerBiEmbedder } from './power-bi-embedder.ts';
import type { EmbedderFactory } from './report-embedder.ts';

/**
 * The demo host's /reportEmbed URL when the embed token was minted by the local Microsoft stand-in, else null.
 * powerbi-client refuses any embed URL that is not https on a Power BI host, and the demo has no internet, so
 * the demo must show the stand-in's embed host itself. The API says nothing about demo mode; the token does:
 * the stand-in signs embed tokens with `iss` = its own http://127.0.0.1:PORT (or localhost) base, which Power BI
 * never does. The host page takes the same reportId/groupId query as the embed URL.
 */
export function demoHostUrl(accessToken: string, embedUrl: string): string | null {
  let issuer: unknown;
  try {
    issuer = jwtDecode(accessToken).iss;
  } catch {
    return null;
  }
  if (typeof issuer !== 'string') return null;
  if (!issuer.startsWith('http://127.0.0.1') && !issuer.startsWith('http://localhost')) return null;
  let query = '';
  try {
    query = new URL(embedUrl).search;
  } catch {
    // No usable embed URL: the host then answers that it knows no such report, which the viewer logs.
  }
  return `${issuer.replace(/\/+$/, '')}/reportEmbed${query}`;
}

/** The production default: the demo host for stand-in tokens, powerbi-client otherwise. */
export const createReportEmbedder: EmbedderFactory = ({ accessToken, embedUrl }) => {
  const demoHost = demoHostUrl(accessToken, embedUrl);
  return demoHost ? new DemoEmbedder(demoHost) : new PowerBiEmbedder();
};
