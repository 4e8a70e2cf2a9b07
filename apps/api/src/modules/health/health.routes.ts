import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pingDatabase } from './health.repository.ts';

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
      try {
        await pingDatabase(app.db);
        return { status: 'ok' };
      } catch (error) {
        request.log.error({ err: error }, 'banco de dados indisponível');
        return reply.code(503).send({ status: 'banco de dados indisponível' });
      }
    },
  );
};
