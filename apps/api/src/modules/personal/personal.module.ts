import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { favouritesRoutes } from './favourites.routes.ts';
import { savedViewsRoutes } from './saved-views.routes.ts';

/**
 * What each person keeps for themselves (docs/requirements.md#personal): favourites, recently opened panels and
 * saved views. Mounted at /api: its paths name /favoritos, /recentes and /paineis/{id}/visoes themselves.
 */
export const personalModule: FastifyPluginAsyncZod = async (app) => {
  for (const routes of [favouritesRoutes, savedViewsRoutes]) await app.register(routes);
};
