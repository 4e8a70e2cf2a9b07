import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { alertsRoutes } from './alerts.routes.ts';
import { demoOutboxRoutes } from './demo-outbox.routes.ts';
import { subscriptionsRoutes } from './subscriptions.routes.ts';

/**
 * E-mail subscriptions (docs/requirements.md#subscriptions): /assinaturas (each person's, and every one for
 * administrators), their files too large to attach, the demo outbox, and the alerts to the panels' keepers (/alertas).
 */
export const subscriptionsModule: FastifyPluginAsyncZod = async (app) => {
  for (const routes of [subscriptionsRoutes, demoOutboxRoutes, alertsRoutes]) await app.register(routes);
};
