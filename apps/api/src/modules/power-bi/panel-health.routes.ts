import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { saudePainel } from '@paineis/contract/power-bi';
import { powerBiNotConfigured } from '../../integrations/power-bi/embedding-service.ts';
import { PREPARED_ANSWER } from '../../lib/prepared-json.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { panelHealthJson } from './panel-health.ts';

const tags = ['Power BI'];

/** Whether Power BI still serves each panel's report to the portal, checked in the background. */
export const panelHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/paineis/saude',
    {
      ...PREPARED_ANSWER,
      config: { admin: true },
      schema: {
        tags,
        summary: 'A última verificação do relatório de cada painel no Power BI',
        description:
          'Um painel cujo relatório não foi encontrado (`relatorio-nao-encontrado`) ou não pode ser lido (`sem-acesso`) ' +
          'é respondido como indisponível a quem o abrir, sem consultar o Power BI, até a próxima verificação. ' +
          'Painéis ainda não verificados não aparecem.',
        response: { 200: z.array(saudePainel), 304: z.null(), ...errorResponses(403) },
      },
    },
    async (_request, reply) => reply.sendPrepared(await panelHealthJson(app.db)),
  );

  app.post(
    '/paineis/saude/verificar',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Verifica agora, em segundo plano, o relatório de cada painel no Power BI',
        description:
          'Responde 202 de imediato; pedida durante uma verificação em andamento, outra é feita logo depois dela.',
        response: { 202: z.null(), ...errorResponses(403, 503) },
      },
    },
    async (_request, reply) => {
      if (!app.panelHealth) throw powerBiNotConfigured();
      app.panelHealth.trigger();
      return reply.code(202).send(null);
    },
  );
};
