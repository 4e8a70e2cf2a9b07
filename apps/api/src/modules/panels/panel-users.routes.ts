import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { linkUsersBody, usuarioVinculado } from '@paineis/contract/users';
import { actorOf } from '../audit/audit.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { panelLinkedUsers, replacePanelLinks } from './panel-users.repository.ts';

const tags = ['Vínculos'];

/** Who may open a panel: the people linked to it. */
export const panelUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id/usuarios',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Usuários vinculados ao painel',
        params: idParams,
        response: { 200: z.array(usuarioVinculado), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => panelLinkedUsers(app.db, request.params.id),
  );

  app.post(
    '/:id/usuarios',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Substitui os usuários vinculados (lista vazia desvincula todos)',
        params: idParams,
        body: linkUsersBody,
        response: { 200: z.array(usuarioVinculado), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => replacePanelLinks(app.db, request.params.id, request.body, actorOf(request)),
  );
};
