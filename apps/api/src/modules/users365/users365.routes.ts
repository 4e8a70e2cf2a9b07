import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { usuario365 } from '@paineis/contract/users';
import { errorResponses } from '../../lib/route-schema.ts';
import { activeUsers } from './users365.repository.ts';

export const users365Routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/usuarios365/ativos',
    {
      config: { admin: true },
      schema: {
        tags: ['Usuários'],
        summary: 'Usuários ativos do diretório, por nome',
        response: { 200: z.array(usuario365), ...errorResponses(403) },
      },
    },
    async () => activeUsers(app.db),
  );
};
