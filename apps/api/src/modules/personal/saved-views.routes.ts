import { z } from 'zod';
import type { Painel } from '@paineis/contract/panels';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { MAX_VISOES_POR_PAINEL, visaoBody, visaoParams, visaoRenameBody, visaoSalva } from '@paineis/contract/personal';
import { errorResponses } from '../../lib/route-schema.ts';
import { actorOf } from '../audit/audit.ts';
import { requireVisiblePanel } from '../panels/panel-access.ts';
import { requesterOf } from '../panels/requester.ts';
import {
  createSavedView,
  deleteSavedView,
  findSavedView,
  listSavedViews,
  renameSavedView,
  type ViewEditor,
} from './saved-views.repository.ts';

const tags = ['Pessoal'];

declare module 'fastify' {
  interface FastifyRequest {
    /** The panel its `:id` names, which the caller may open (saved views' routes). */
    visiblePanel: Painel;
  }
}

const editorOf = (request: FastifyRequest): ViewEditor => ({
  id: request.user.id,
  isAdmin: requesterOf(request).isAdmin,
  actor: actorOf(request),
});

/**
 * docs/requirements.md#personal: saved views of a panel. A preHandler first checks that the caller may open the panel
 * (404 otherwise, as if it did not exist); a person's view is changed only by its owner, a panel view only by
 * administrators (403).
 */
export const savedViewsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.decorateRequest('visiblePanel', null as unknown as Painel);
  // Params are validated before this runs: `id` is a panel id.
  app.addHook('preHandler', async (request) => {
    const { id } = request.params as { id: number };
    request.visiblePanel = await requireVisiblePanel(app.db, id, requesterOf(request));
  });

  app.get(
    '/paineis/:id/visoes',
    {
      schema: {
        tags,
        summary: 'As visões do painel e as do próprio usuário neste painel, por nome',
        params: idParams,
        response: { 200: z.array(visaoSalva), ...errorResponses(400, 404) },
      },
    },
    async (request) => listSavedViews(app.db, request.user.id, request.visiblePanel.id),
  );

  app.post(
    '/paineis/:id/visoes',
    {
      schema: {
        tags,
        summary: 'Salva o estado atual do relatório (filtros, segmentações, página) como uma visão com nome',
        description: `Nomes únicos por pessoa e painel (sem distinguir maiúsculas); até ${MAX_VISOES_POR_PAINEL} visões por painel. Com \`doPainel\`, uma visão do painel para todos que podem abri-lo: só administradores (403), nomes únicos entre as visões do painel, auditada.`,
        params: idParams,
        body: visaoBody,
        response: { 201: visaoSalva, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSavedView(app.db, editorOf(request), request.visiblePanel.id, request.body)),
  );

  app.get(
    '/paineis/:id/visoes/:visaoId',
    {
      schema: {
        tags,
        summary: 'Uma visão salva deste painel, pelo id (link compartilhado)',
        description:
          'Para qualquer pessoa que pode abrir o painel: a visão é aplicada sobre o token dela, sem atravessar seu RLS. `propria` diz se é do usuário.',
        params: visaoParams,
        response: { 200: visaoSalva, ...errorResponses(400, 404) },
      },
    },
    async (request) => findSavedView(app.db, request.params.visaoId, request.visiblePanel.id, request.user.id),
  );

  app.patch(
    '/paineis/:id/visoes/:visaoId',
    {
      schema: {
        tags,
        summary: 'Renomeia uma visão salva (só o dono; uma visão do painel, só administradores)',
        params: visaoParams,
        body: visaoRenameBody,
        response: { 200: visaoSalva, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request) =>
      renameSavedView(app.db, request.params.visaoId, editorOf(request), request.visiblePanel.id, request.body.nome),
  );

  app.delete(
    '/paineis/:id/visoes/:visaoId',
    {
      schema: {
        tags,
        summary: 'Exclui uma visão salva (só o dono; uma visão do painel, só administradores)',
        params: visaoParams,
        response: { 204: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteSavedView(app.db, request.params.visaoId, editorOf(request), request.visiblePanel.id);
      return reply.code(204).send(null);
    },
  );
};
