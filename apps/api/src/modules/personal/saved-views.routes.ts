import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { MAX_VISOES_POR_PAINEL, visaoBody, visaoParams, visaoRenameBody, visaoSalva } from '@paineis/contract/personal';
import { errorResponses } from '../../lib/route-schema.ts';
import { requireVisiblePanel } from '../panels/panel-access.ts';
import { requesterOf } from '../panels/requester.ts';
import { createView, deleteView, findView, listOwnViews, renameView } from './saved-views.repository.ts';

const tags = ['Pessoal'];

/**
 * docs/requirements.md#personal: saved views of a panel. Every route first checks that the caller may open the panel
 * (404 otherwise, as if it did not exist); a view is changed only by its owner.
 */
export const savedViewsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/paineis/:id/visoes',
    {
      schema: {
        tags,
        summary: 'As visões salvas do usuário neste painel, por nome',
        params: idParams,
        response: { 200: z.array(visaoSalva), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const requester = requesterOf(request);
      const panel = await requireVisiblePanel(app.db, request.params.id, requester);
      return listOwnViews(app.db, requester.id, panel.id);
    },
  );

  app.post(
    '/paineis/:id/visoes',
    {
      schema: {
        tags,
        summary: 'Salva o estado atual do relatório (filtros, segmentações, página) como uma visão com nome',
        description: `Nomes únicos por pessoa e painel (sem distinguir maiúsculas); até ${MAX_VISOES_POR_PAINEL} visões por painel.`,
        params: idParams,
        body: visaoBody,
        response: { 201: visaoSalva, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const requester = requesterOf(request);
      const panel = await requireVisiblePanel(app.db, request.params.id, requester);
      return reply.code(201).send(await createView(app.db, requester.id, panel.id, request.body));
    },
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
    async (request) => {
      const requester = requesterOf(request);
      const panel = await requireVisiblePanel(app.db, request.params.id, requester);
      return findView(app.db, request.params.visaoId, panel.id, requester.id);
    },
  );

  app.patch(
    '/paineis/:id/visoes/:visaoId',
    {
      schema: {
        tags,
        summary: 'Renomeia uma visão salva (só o dono)',
        params: visaoParams,
        body: visaoRenameBody,
        response: { 200: visaoSalva, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const requester = requesterOf(request);
      const panel = await requireVisiblePanel(app.db, request.params.id, requester);
      return renameView(app.db, request.params.visaoId, requester.id, panel.id, request.body.nome);
    },
  );

  app.delete(
    '/paineis/:id/visoes/:visaoId',
    {
      schema: {
        tags,
        summary: 'Exclui uma visão salva (só o dono)',
        params: visaoParams,
        response: { 204: z.null(), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const requester = requesterOf(request);
      const panel = await requireVisiblePanel(app.db, request.params.id, requester);
      await deleteView(app.db, request.params.visaoId, requester.id, panel.id);
      return reply.code(204).send(null);
    },
  );
};
