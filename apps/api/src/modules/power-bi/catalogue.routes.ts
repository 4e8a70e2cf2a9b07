import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Placeholder: filled in by the work on issue 26.
export const catalogueRoutes: FastifyPluginAsyncZod = async () => {};
