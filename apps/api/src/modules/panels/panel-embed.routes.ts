import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { embedInfo, embedQuery, painelComEmbed } from '@paineis/contract/panels';
import { errorResponses } from '../../lib/route-schema.ts';
import { openPanel } from './panel-access.ts';
import { preparedOpening } from './panel-answers.ts';
import { requesterOf } from './requester.ts';

const tags = ['Painéis'];
const errors = errorResponses(400, 403, 404, 409, 502, 503, 504);

/** Opening a panel: the report's embed token for this person, with their RLS identity. */
export const panelEmbedRoutes: FastifyPluginAsyncZod = async (app) => {
  const embed = async (id: number, requester: ReturnType<typeof requesterOf>, papel: string | undefined) => {
    const { panel, roles } = await openPanel(app.db, id, requester, papel);
    return { panel, embed: await app.embedding.embedFor(panel, { ...requester, roles }) };
  };

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Um painel, com o token para incorporar o relatório',
        description:
          'Num painel com RLS, a identidade efetiva leva os papéis do usuário; administradores veem todos os papéis, ou só o papel pedido em `papel`.',
        params: idParams,
        querystring: embedQuery,
        response: { 200: painelComEmbed, 304: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { panel, embed: info } = await embed(request.params.id, requesterOf(request), request.query.papel);
      return reply.sendPrepared(preparedOpening(panel, info, true));
    },
  );

  app.get(
    '/:id/token',
    {
      schema: {
        tags,
        summary: 'Um novo token de incorporação do painel (para renová-lo sem recarregar o relatório)',
        params: idParams,
        querystring: embedQuery,
        response: { 200: embedInfo, 304: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { panel, embed: info } = await embed(request.params.id, requesterOf(request), request.query.papel);
      return reply.sendPrepared(preparedOpening(panel, info, false));
    },
  );
};
