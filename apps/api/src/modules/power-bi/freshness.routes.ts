import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { atualizacoesPaineis } from '@paineis/contract/power-bi';
import { powerBiNotConfigured } from '../../integrations/power-bi/embedding-service.ts';
import { PREPARED_ANSWER } from '../../lib/prepared-json.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { requesterOf } from '../panels/requester.ts';
import { freshnessJson } from './freshness.ts';

const tags = ['Power BI'];

/** When each panel's data was last refreshed in Power BI, read in the background. */
export const freshnessRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/paineis/atualizacoes',
    {
      ...PREPARED_ANSWER,
      schema: {
        tags,
        summary: 'A última atualização dos dados de cada painel no Power BI',
        description:
          'Por id de painel: todos os painéis para administradores, só os que a pessoa pode abrir para os demais. ' +
          'Lido do Power BI em segundo plano; `mensagem` (o motivo de uma falha) só para administradores.',
        response: { 200: atualizacoesPaineis, 304: z.null(), ...errorResponses() },
      },
    },
    async (request, reply) => reply.sendPrepared(await freshnessJson(app.db, requesterOf(request))),
  );

  app.post(
    '/paineis/atualizacoes/verificar',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Lê agora, em segundo plano, a última atualização de cada painel no Power BI',
        description:
          'Responde 202 de imediato; pedida durante uma leitura em andamento, outra é feita logo depois dela.',
        response: { 202: z.null(), ...errorResponses(403, 503) },
      },
    },
    async (_request, reply) => {
      if (!app.freshness) throw powerBiNotConfigured();
      app.freshness.trigger();
      return reply.code(202).send(null);
    },
  );
};
