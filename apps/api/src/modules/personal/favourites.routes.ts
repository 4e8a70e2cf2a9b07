import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { favoritoParams, favoritos, RECENTES, recentes } from '@paineis/contract/personal';
import { errorResponses } from '../../lib/route-schema.ts';
import { panelsVisibleTo, requireVisiblePanel } from '../panels/panel-access.ts';
import { requesterOf } from '../panels/requester.ts';
import { recentlyOpened } from '../usage/usage.ts';
import { addFavourite, favouritePanelIds, removeFavourite } from './favourites.repository.ts';

const tags = ['Pessoal'];

/** docs/requirements.md#personal: favourites and recently opened panels, each person's own. */
export const favouritesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/favoritos',
    {
      schema: {
        tags,
        summary: 'Os painéis favoritos do usuário, na ordem da lista',
        description: 'Só os painéis que o usuário ainda pode abrir: um painel cujo acesso ele perdeu sai da resposta.',
        response: { 200: favoritos, ...errorResponses() },
      },
    },
    async (request) => {
      const requester = requesterOf(request);
      const [visible, favourites] = await Promise.all([
        panelsVisibleTo(app.db, requester),
        favouritePanelIds(app.db, requester.id),
      ]);
      return { paineis: visible.filter((id) => favourites.has(id)) };
    },
  );

  app.put(
    '/favoritos/:painelId',
    {
      schema: {
        tags,
        summary: 'Marca um painel como favorito (idempotente)',
        description: 'Só um painel que o usuário pode abrir; outro responde 404, como se não existisse.',
        params: favoritoParams,
        response: { 204: z.null(), ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const requester = requesterOf(request);
      await requireVisiblePanel(app.db, request.params.painelId, requester);
      await addFavourite(app.db, requester.id, request.params.painelId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/favoritos/:painelId',
    {
      schema: {
        tags,
        summary: 'Tira um painel dos favoritos (idempotente)',
        params: favoritoParams,
        response: { 204: z.null(), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      // Any id: removing what one may no longer see must still work, and reveals nothing.
      await removeFavourite(app.db, requesterOf(request).id, request.params.painelId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/recentes',
    {
      schema: {
        tags,
        summary: `Os últimos ${RECENTES} painéis distintos abertos pelo usuário, do mais recente ao mais antigo`,
        description: 'Só os painéis que o usuário ainda pode abrir.',
        response: { 200: recentes, ...errorResponses() },
      },
    },
    async (request) => {
      const requester = requesterOf(request);
      const visible = await panelsVisibleTo(app.db, requester);
      return { paineis: await recentlyOpened(app.db, app.openingRecorder, requester.id, visible, RECENTES) };
    },
  );
};
