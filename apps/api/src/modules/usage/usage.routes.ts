import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { usoDetalhePainel, usoPaineis, usoPorDia, usoQuery, usoSemLogin } from '@paineis/contract/usage';
import { z } from 'zod';
import { notFound } from '../../lib/http-error.ts';
import { PREPARED_ANSWER, PreparedJson } from '../../lib/prepared-json.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { usageQueries } from './usage.ts';

const tags = ['Uso'];
const admin = { admin: true };
const errors = errorResponses(400, 403);

/** docs/requirements.md#usage: what '/uso' shows, for administrators. */
export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  const queries = usageQueries(app.db, app.config.usage.timeZone);

  app.get(
    '/uso/por-dia',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Visualizações e pessoas por dia no período',
        querystring: usoQuery,
        response: { 200: usoPorDia, ...errors },
      },
    },
    async (request) => ({ dias: request.query.dias, porDia: await queries.perDay(request.query.dias) }),
  );

  app.get(
    '/uso/paineis',
    {
      ...PREPARED_ANSWER,
      config: admin,
      schema: {
        tags,
        summary: 'Cada painel no período: visualizações, pessoas, última abertura, tempos de carga p50 e p95, erros',
        description:
          'Todos os painéis, do mais ao menos visto; os nunca abertos no período vêm com zero visualizações.',
        querystring: usoQuery,
        response: { 200: usoPaineis, 304: z.null(), ...errors },
      },
    },
    // Thousands of panels: serialised as they are (the rows are ours), not checked against the schema one by one.
    async (request, reply) =>
      reply.sendPrepared(
        new PreparedJson({ dias: request.query.dias, paineis: await queries.perPanel(request.query.dias) }),
      ),
  );

  app.get(
    '/uso/sem-login',
    {
      ...PREPARED_ANSWER,
      config: admin,
      schema: {
        tags,
        summary: 'Pessoas ativas que não fizeram login no período',
        querystring: usoQuery,
        response: { 200: usoSemLogin, 304: z.null(), ...errors },
      },
    },
    // Up to every person of the directory, as JSON made by the database.
    async (request, reply) => {
      const { total, json } = await queries.withoutSignInJson(request.query.dias);
      return reply.sendPrepared(
        PreparedJson.fromJson(`{"dias":${request.query.dias},"total":${total},"pessoas":${json}}`),
      );
    },
  );

  app.get(
    '/uso/paineis/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'As aberturas de um painel no período, da mais recente: quem, quando e com qual identidade',
        params: idParams,
        querystring: usoQuery,
        response: { 200: usoDetalhePainel, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const detail = await queries.panelViews(request.params.id, request.query.dias);
      if (!detail) throw notFound('Painel não encontrado.');
      return { dias: request.query.dias, ...detail };
    },
  );
};
