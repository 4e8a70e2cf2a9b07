import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readiness } from './health.ts';

const status = z.object({ status: z.string() });

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: { tags: ['Saúde'], summary: 'O processo está de pé', response: { 200: status } },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: { tags: ['Saúde'], summary: 'O banco de dados responde', response: { 200: status, 503: status } },
    },
    async (request, reply) => {
      const { ready, status } = await readiness(app.db, request.log);
      return reply.code(ready ? 200 : 503).send({ status });
    },
  );
};
