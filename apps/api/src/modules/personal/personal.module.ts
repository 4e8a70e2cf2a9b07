import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { favoritesRoutes } from './favorites.routes.ts';
import { savedViewsRoutes } from './saved-views.routes.ts';

/**
 * What each person keeps for themselves (docs/requirements.md#personal): favourites, recently opened panels and
 * saved views. Mounted at /api: its paths name /favoritos, /recentes and /paineis/{id}/visoes themselves.
 */
export const personalModule: FastifyPluginAsyncZod = async (app) => {
  for (const routes of [favoritesRoutes, savedViewsRoutes]) await app.register(routes);
};
