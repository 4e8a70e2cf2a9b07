import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { demoOutboxRoutes } from './demo-outbox.routes.ts';
import { subscriptionsRoutes } from './subscriptions.routes.ts';

/**
 * E-mail subscriptions (docs/requirements.md#subscriptions): /assinaturas (each person's, and every one for
 * administrators), their files too large to attach, and the demo outbox.
 */
export const subscriptionsModule: FastifyPluginAsyncZod = async (app) => {
  for (const routes of [subscriptionsRoutes, demoOutboxRoutes]) await app.register(routes);
};
