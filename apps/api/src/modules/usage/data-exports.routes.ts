import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { exportacaoDados, exportacaoDadosBody } from '@paineis/contract/usage';
import { errorResponses } from '../../lib/route-schema.ts';
import { requesterOf } from '../panels/requester.ts';
import { recordDataExport } from './data-exports.ts';

/** docs/requirements.md#viewer-data-export: the record of a visual's data exported to CSV, by whoever sees the panel. */
export const dataExportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/paineis/:id/exportacoes-dados',
    {
      schema: {
        tags: ['Exportação'],
        summary: 'Registra a exportação dos dados de um visual (CSV) antes de o usuário receber o arquivo',
        description:
          'O visualizador exporta os dados pelo Power BI (exportData do powerbi-client) e só salva o arquivo depois desta resposta 201. ' +
          '403 quando um administrador desativou a exportação de dados do painel; 404 quando o usuário não vê o painel.',
        params: idParams,
        body: exportacaoDadosBody,
        response: { 201: exportacaoDados, ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await recordDataExport(app.db, request.params.id, requesterOf(request), request.body)),
  );
};
