import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  importarBody,
  relatorioPowerBi,
  resultadoImportacao,
  workspaceParams,
  workspacePowerBi,
} from '@paineis/contract/power-bi';
import { actorOf } from '../audit/audit.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { importFromPowerBi, listWorkspaceReports, listWorkspaces } from './catalogue.ts';

const tags = ['Power BI'];
const admin = { admin: true };

/** The workspaces and reports Power BI lets the portal reach, and their import as panels. Admins only. */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/powerbi/workspaces',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Workspaces do Power BI que a entidade de serviço do portal alcança, por nome',
        response: { 200: z.array(workspacePowerBi), ...errorResponses(403, 502, 503, 504) },
      },
    },
    async () => listWorkspaces(app.powerBi),
  );

  app.get(
    '/powerbi/workspaces/:workspaceId/relatorios',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Relatórios de um workspace do Power BI, com o painel que já mostra cada um',
        params: workspaceParams,
        response: { 200: z.array(relatorioPowerBi), ...errorResponses(400, 403, 404, 502, 503, 504) },
      },
    },
    async (request) => listWorkspaceReports(app.db, app.powerBi, request.params.workspaceId),
  );

  app.post(
    '/paineis/importar',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Cadastra relatórios do Power BI como painéis, na ordem dada, no fim da classificação; ' +
          'os já cadastrados são ignorados',
        body: importarBody,
        response: { 201: resultadoImportacao, ...errorResponses(400, 403, 404, 502, 503, 504) },
      },
    },
    async (request, reply) => {
      const result = await importFromPowerBi(app.db, app.powerBi, request.body, actorOf(request));
      // New panels get their freshness and health now, not at the next timed round (up to an hour away).
      if (result.criados.length > 0) {
        const created = result.criados.map((p) => String(p.painelId));
        app.freshness?.trigger(created);
        app.panelHealth?.trigger(created);
      }
      return reply.code(201).send(result);
    },
  );
};
