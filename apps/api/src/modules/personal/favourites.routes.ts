import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { favoritoParams, favoritos, RECENTES, recentes } from '@paineis/contract/personal';
import { errorResponses } from '../../lib/route-schema.ts';
import { requesterOf } from '../panels/requester.ts';
import { removeFavourite } from './favourites.repository.ts';
import { favouritesOf, markFavourite, recentsOf } from './favourites.ts';

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
    async (request) => favouritesOf(app.db, requesterOf(request)),
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
      await markFavourite(app.db, requesterOf(request), request.params.painelId);
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
    async (request) => recentsOf(app.db, app.openingRecorder, requesterOf(request)),
  );
};
