import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { syncResult, usuario365 } from '@paineis/contract/users';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { activeUsersJson } from './users.repository.ts';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/usuarios365/ativos',
    {
      config: { admin: true },
      schema: {
        tags: ['Usuários'],
        summary: 'Usuários ativos do diretório, por nome (com ETag: 304 quando nada mudou)',
        response: { 200: z.array(usuario365), 304: z.null(), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const { version, value } = await activeUsersJson(app.db);
      const etag = `"usuarios-${version}"`;
      void reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      // Already serialised from the schema's own types (see activeUsersJson): sent as it is.
      return reply.type('application/json; charset=utf-8').send(value as unknown as z.infer<typeof usuario365>[]);
    },
  );

  app.post(
    '/usuarios365/sincronizar',
    {
      config: { admin: true },
      schema: {
        tags: ['Usuários'],
        summary: 'Sincroniza agora os usuários ativos do Microsoft Graph (junta-se a uma sincronização em curso)',
        response: { 200: syncResult, ...errorResponses(403, 502, 503) },
      },
    },
    async () => {
      if (!app.directorySync) throw new MicrosoftError('graph', 'not-configured', 'Graph não configurado.');
      return app.directorySync.run();
    },
  );
};
