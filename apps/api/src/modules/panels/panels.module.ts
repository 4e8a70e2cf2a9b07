import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { panelEmbedRoutes } from './panel-embed.routes.ts';
import { panelGroupsRoutes } from './panel-groups.routes.ts';
import { panelRlsRoutes } from './panel-rls.routes.ts';
import { panelUsersRoutes } from './panel-users.routes.ts';
import { configurePublicGroups } from './public-groups.ts';
import { panelsRoutes } from './panels.routes.ts';

/**
 * The panel aggregate, under /paineis: the panels, opening one (embedding), their RLS roles and their
 * linked users and groups. One module, because each of these reads or changes the same panel and its access rules.
 */
export const panelsModule: FastifyPluginAsyncZod = async (app) => {
  // What public groups may grant, for every question asked of this database (the model, the links' writes).
  configurePublicGroups(app.db, app.config.publicGroupsGrant);
  for (const routes of [panelsRoutes, panelEmbedRoutes, panelRlsRoutes, panelUsersRoutes, panelGroupsRoutes]) {
    await app.register(routes);
  }
};
