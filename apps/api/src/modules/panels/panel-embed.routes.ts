import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { capacidadeIndisponivel } from '@paineis/contract/capacity';
import { errorResponse, idParams } from '@paineis/contract/fields';
import { embedInfo, embedQuery, painelComEmbed } from '@paineis/contract/panels';
import { temposVisualizacaoBody, VISUALIZACAO_HEADER, visualizacaoParams } from '@paineis/contract/usage';
import { errorResponses } from '../../lib/route-schema.ts';
import { whenReady } from '../../lib/maybe-promise.ts';
import { PREPARED_ANSWER } from '../../lib/prepared-json.ts';
import { openForViewing, renewedToken, reportOpeningTimes } from './panel-opening.ts';
import { requesterOf } from './requester.ts';

const tags = ['Painéis'];
/**
 * A 503 is either Power BI's or the capacity's: paused or waking, it says so in `capacidade`, with `Retry-After` when
 * the opening woke it (docs/decisions/024-capacity-cost.md).
 */
const errors = {
  ...errorResponses(400, 403, 404, 409, 502, 503, 504),
  503: capacidadeIndisponivel.or(errorResponse),
};

/** Opening a panel: the report's embed token for this person, with their RLS identity; and the view's record. */
export const panelEmbedRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id',
    {
      ...PREPARED_ANSWER,
      schema: {
        tags,
        summary: 'Um painel, com o token para incorporar o relatório',
        description:
          'Num painel com RLS, a identidade efetiva leva os papéis do usuário; administradores veem todos os papéis, ou só o papel pedido em `papel`. ' +
          `Cada abertura é registrada (uso dos painéis): o cabeçalho \`${VISUALIZACAO_HEADER}\` da resposta dá o id do registro, para o visualizador informar os tempos de carga.`,
        params: idParams,
        querystring: embedQuery,
        response: { 200: painelComEmbed, 304: z.null(), ...errors },
      },
    },
    // Not async: from memory, as nearly always, the answer goes without a promise (lib/maybe-promise.ts).
    (request, reply) =>
      whenReady(
        openForViewing(app, request.params.id, requesterOf(request), request.query.papel),
        ({ answer, openingId }) => reply.header(VISUALIZACAO_HEADER, openingId).sendPrepared(answer),
      ),
  );

  app.get(
    '/:id/token',
    {
      ...PREPARED_ANSWER,
      schema: {
        tags,
        summary: 'Um novo token de incorporação do painel (para renová-lo sem recarregar o relatório)',
        params: idParams,
        querystring: embedQuery,
        response: { 200: embedInfo, 304: z.null(), ...errors },
      },
    },
    (request, reply) =>
      whenReady(renewedToken(app, request.params.id, requesterOf(request), request.query.papel), (answer) =>
        reply.sendPrepared(answer),
      ),
  );

  app.post(
    '/:id/visualizacoes/:visualizacaoId',
    {
      schema: {
        tags,
        summary: 'O visualizador informa os tempos de carga e os erros de uma abertura do painel',
        description:
          'Tempos em ms desde o pedido do painel até os eventos `loaded` e o primeiro `rendered` do powerbi-client. Gravado em segundo plano (202); só a abertura desta pessoa, deste painel, o recebe.',
        params: visualizacaoParams,
        body: temposVisualizacaoBody,
        response: { 202: z.null(), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { id: painelId, visualizacaoId: id } = request.params;
      await reportOpeningTimes(app, requesterOf(request), { id, painelId, ...request.body });
      return reply.code(202).send(null);
    },
  );
};
