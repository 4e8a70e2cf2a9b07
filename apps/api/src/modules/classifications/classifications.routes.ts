import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  classificacao,
  classificacaoAdmin,
  classificacaoCreate,
  classificacaoParams,
  classificacaoUpdate,
} from '@paineis/contract/classifications';
import { actorOf } from '../audit/audit.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { PREPARED_ANSWER } from '../../lib/prepared-json.ts';
import { notFound } from '../../lib/domain-failure.ts';
import {
  createClassification,
  deleteClassification,
  findClassification,
  listActiveJson,
  listWithCountsJson,
  updateClassification,
} from './classifications.repository.ts';

const tags = ['Classificações'];
const CLASSIFICATION_NOT_FOUND = 'Classificação não encontrada.';

export const classificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/classificacoes',
    {
      ...PREPARED_ANSWER,
      schema: {
        tags,
        summary: 'Classificações ativas, por nome',
        response: { 200: z.array(classificacao), 304: z.null(), ...errorResponses() },
      },
    },
    async (_request, reply) => reply.sendPrepared(await listActiveJson(app.db)),
  );

  app.get(
    '/classificacoes/admin',
    {
      ...PREPARED_ANSWER,
      config: { admin: true },
      schema: {
        tags,
        summary: 'Todas as classificações, com a quantidade de painéis de cada uma',
        response: { 200: z.array(classificacaoAdmin), 304: z.null(), ...errorResponses(403) },
      },
    },
    async (_request, reply) => reply.sendPrepared(await listWithCountsJson(app.db)),
  );

  app.get(
    '/classificacoes/:id',
    {
      schema: {
        tags,
        summary: 'Uma classificação',
        params: classificacaoParams,
        response: { 200: classificacao, ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      (await findClassification(app.db, request.params.id)) ?? Promise.reject(notFound(CLASSIFICATION_NOT_FOUND)),
  );

  app.post(
    '/classificacoes',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Cria uma classificação (ativa)',
        body: classificacaoCreate,
        response: { 201: classificacao, ...errorResponses(400, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await createClassification(app.db, request.body, actorOf(request))),
  );

  app.put(
    '/classificacoes/:id',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Atualiza nome, descrição e, se enviado, o status ativo',
        params: classificacaoParams,
        body: classificacaoUpdate,
        response: { 200: classificacao, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request) =>
      (await updateClassification(app.db, request.params.id, request.body, actorOf(request))) ??
      Promise.reject(notFound(CLASSIFICATION_NOT_FOUND)),
  );

  app.delete(
    '/classificacoes/:id',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: "Exclui uma classificação; seus painéis ficam em 'Sem Classificação'",
        params: classificacaoParams,
        response: { 204: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      if (!(await deleteClassification(app.db, request.params.id, actorOf(request))))
        throw notFound(CLASSIFICATION_NOT_FOUND);
      return reply.code(204).send(null);
    },
  );
};
