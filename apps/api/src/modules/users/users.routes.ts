import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { syncResult, usuario365 } from '@paineis/contract/users';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { PREPARED_ANSWER } from '../../lib/prepared-json.ts';
import { grupo365 } from '@paineis/contract/groups';
import { publicGroupGrants } from '../panels/public-groups.ts';
import { directoryGroupsJson } from './group-membership.ts';
import { activeUsersJson } from './users.repository.ts';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/usuarios365/ativos',
    {
      ...PREPARED_ANSWER,
      config: { admin: true },
      schema: {
        tags: ['Usuários'],
        summary: 'Usuários ativos do diretório, por nome (com ETag: 304 quando nada mudou)',
        response: { 200: z.array(usuario365), 304: z.null(), ...errorResponses(403) },
      },
    },
    async (_request, reply) => reply.sendPrepared(await activeUsersJson(app.db)),
  );

  app.get(
    '/grupos365',
    {
      ...PREPARED_ANSWER,
      config: { admin: true },
      schema: {
        tags: ['Usuários'],
        summary: 'Grupos do Entra (segurança e Microsoft 365), por nome, com o número de pessoas em qualquer nível',
        description:
          'Cada grupo diz se é público (qualquer pessoa pode entrar) e o que concede, vinculado a um painel ou num ' +
          'papel RLS, segundo PUBLIC_GROUPS_GRANT.',
        response: { 200: z.array(grupo365), 304: z.null(), ...errorResponses(403) },
      },
    },
    async (_request, reply) =>
      reply.sendPrepared(await directoryGroupsJson(app.db, publicGroupGrants(app.config.publicGroupsGrant))),
  );

  app.post(
    '/usuarios365/sincronizar',
    {
      config: { admin: true },
      schema: {
        tags: ['Usuários'],
        summary: 'Sincroniza agora os usuários ativos do Microsoft Graph (depois da sincronização em curso, se houver)',
        response: { 200: syncResult, ...errorResponses(403, 502, 503) },
      },
    },
    async () => {
      if (!app.directorySync) throw new MicrosoftError('graph', 'not-configured', 'Graph não configurado.');
      return app.directorySync.run();
    },
  );
};
