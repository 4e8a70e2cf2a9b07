import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** TODO (mail helper). */
export const demoOutboxRoutes: FastifyPluginAsyncZod = async () => {};
