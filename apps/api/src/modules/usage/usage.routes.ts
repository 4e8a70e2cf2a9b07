import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { usoDetalhePainel, usoPaineis, usoPorDia, usoQuery, usoSemLogin } from '@paineis/contract/usage';
import { z } from 'zod';
import { PREPARED_ANSWER } from '../../lib/prepared-json.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { usageAnswers } from './usage.ts';
import { dataExportsRoutes } from './data-exports.routes.ts';

const tags = ['Uso'];
const admin = { admin: true };
const errors = errorResponses(400, 403);

/** docs/requirements.md#usage: what '/uso' shows, for administrators. */
export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  const answers = usageAnswers(app.db, app.config.usage.timeZone);
  // Recorded by whoever sees the panel; counted on '/uso'.
  await app.register(dataExportsRoutes);

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
    async (request) => answers.perDay(request.query.dias),
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
    async (request, reply) => reply.sendPrepared(await answers.perPanel(request.query.dias)),
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
    async (request, reply) => reply.sendPrepared(await answers.withoutSignIn(request.query.dias)),
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
    async (request) => answers.panelDetail(request.params.id, request.query.dias),
  );
};
