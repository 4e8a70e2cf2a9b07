import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { linkUsersBody, usuarioVinculado } from '@paineis/contract/users';
import { errorResponses } from '../../lib/route-schema.ts';
import { notFound } from '../../lib/http-error.ts';
import { PAINEL_NAO_ENCONTRADO, panelExists } from '../panels/panels.repository.ts';
import { linkedUsers, replaceLinks } from './panel-users.repository.ts';

const tags = ['Vínculos'];

export const panelUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/paineis/:id/usuarios',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Usuários vinculados ao painel',
        params: idParams,
        response: { 200: z.array(usuarioVinculado), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      if (!(await panelExists(app.db, request.params.id))) throw notFound(PAINEL_NAO_ENCONTRADO);
      return linkedUsers(app.db, request.params.id);
    },
  );

  app.post(
    '/paineis/:id/usuarios',
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
    async (request) => {
      const id = request.params.id;
      await app.db.transaction(async (tx) => {
        if (!(await panelExists(tx, id))) throw notFound(PAINEL_NAO_ENCONTRADO);
        await replaceLinks(tx, id, request.body);
      });
      return linkedUsers(app.db, id);
    },
  );
};
