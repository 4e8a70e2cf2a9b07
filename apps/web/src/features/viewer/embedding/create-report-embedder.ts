import { DemoEmbedder } from './demo-embedder.ts';
import { PowerBiEmbedder } from './power-bi-embedder.ts';
import type { EmbedderFactory } from './report-embedder.ts';

/**
 * The production default. The API names a demo page (`demoEmbedUrl`) only in demo mode, where the reports come
 * from the local stand-in: powerbi-client refuses any embed URL that is not https on a Power BI host, so the demo
 * shows that page through the demo adapter. With Microsoft configured, only powerbi-client is used.
 */
export const createReportEmbedder: EmbedderFactory = ({ demoEmbedUrl }) =>
  demoEmbedUrl ? new DemoEmbedder(demoEmbedUrl) : new PowerBiEmbedder();
