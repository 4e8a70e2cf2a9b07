import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { catalogueRoutes } from './catalogue.routes.ts';
import { freshnessRoutes } from './freshness.routes.ts';
import { panelHealthRoutes } from './panel-health.routes.ts';

/**
 * The Power BI side seen from the portal (docs/requirements.md#power-bi): the workspaces and reports the service
 * principal reaches and their import as panels, the freshness of each panel's data, and each panel's health.
 */
export const powerBiModule: FastifyPluginAsyncZod = async (app) => {
  for (const routes of [catalogueRoutes, freshnessRoutes, panelHealthRoutes]) {
    await app.register(routes);
  }
};
