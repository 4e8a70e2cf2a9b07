import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { syncResult, usuario365 } from '@paineis/contract/users';
import { HttpError } from '../../lib/http-error.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { activeUsersJson } from './users365.repository.ts';

export const SYNC_NOT_CONFIGURED = 'A sincronização com o Microsoft Graph não está configurada neste servidor.';
export const SYNC_FAILED =
  'Não foi possível sincronizar com o Microsoft Graph agora. Os dados anteriores foram mantidos.';

export const users365Routes: FastifyPluginAsyncZod = async (app) => {
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
      if (!app.directorySync) throw new HttpError(503, SYNC_NOT_CONFIGURED);
      try {
        return await app.directorySync.run();
      } catch {
        throw new HttpError(502, SYNC_FAILED);
      }
    },
  );
};
