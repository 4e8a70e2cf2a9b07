import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { anexoDemonstracaoParams, caixaDeSaida } from '@paineis/contract/subscriptions';
import { errorResponses } from '../../lib/route-schema.ts';
import { demoOutboxAttachment, demoOutboxMessages } from './demo-outbox.ts';

const tags = ['Assinaturas'];
const errors = errorResponses(400, 403, 404);

/**
 * The demo outbox (docs/requirements.md#subscriptions): in demo mode the subscriptions' messages go to the Graph
 * stand-in's sendMail, and administrators read them here. 404 outside demo mode.
 */
export const demoOutboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/demonstracao/caixa-de-saida',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'As mensagens enviadas no modo demonstração, da mais recente',
        description:
          'As mensagens que o Microsoft Graph simulado recebeu (as últimas 500), com os anexos por nome, tipo e tamanho. 404 fora do modo demonstração.',
        response: { 200: caixaDeSaida, ...errors },
      },
    },
    async () => demoOutboxMessages(app.demoOutbox),
  );

  app.get(
    '/demonstracao/caixa-de-saida/:id/anexos/:indice',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Um anexo de uma mensagem da caixa de saída de demonstração',
        description: 'O arquivo, como anexo, com o tipo com que foi enviado. 404 para mensagem ou anexo desconhecido.',
        params: anexoDemonstracaoParams,
        response: {
          200: z.unknown().meta({
            description: 'O arquivo anexado à mensagem.',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { body, headers } = demoOutboxAttachment(app.demoOutbox, request.params.id, request.params.indice);
      return reply.headers(headers).send(body);
    },
  );
};
