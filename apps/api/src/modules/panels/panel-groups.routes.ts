import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { grupoVinculado, linkGroupsBody } from '@paineis/contract/groups';
import { actorOf } from '../audit/audit.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { panelLinkedGroups, replacePanelGroups } from './panel-groups.repository.ts';

const tags = ['Vínculos'];

/** Who may open a panel, by group: everyone in a linked Entra group, at any depth. */
export const panelGroupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id/grupos',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Grupos do Entra vinculados ao painel',
        params: idParams,
        response: { 200: z.array(grupoVinculado), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => panelLinkedGroups(app.db, request.params.id),
  );

  app.post(
    '/:id/grupos',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Substitui os grupos vinculados (lista vazia desvincula todos)',
        params: idParams,
        body: linkGroupsBody,
        response: { 200: z.array(grupoVinculado), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => replacePanelGroups(app.db, request.params.id, request.body, actorOf(request)),
  );
};
