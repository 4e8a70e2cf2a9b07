import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** TODO (subscriptions helper). */
export const subscriptionsRoutes: FastifyPluginAsyncZod = async () => {};
