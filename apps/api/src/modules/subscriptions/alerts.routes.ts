import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { alertas, alertasBody } from '@paineis/contract/alerts';
import { errorResponses } from '../../lib/route-schema.ts';
import { actorOf } from '../audit/audit.ts';
import { alertsAnswer, updateAlerts } from './alerts.ts';

const tags = ['Alertas'];

/**
 * docs/requirements.md#alerts: who receives the alerts of a dataset's failed refresh and of a panel's unavailable
 * report, and the incidents open and recently closed (administrators).
 */
export const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/alertas',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Os alertas: eventos ligados, destinatários e incidentes abertos e encerrados (administradores)',
        response: { 200: alertas, ...errorResponses(403) },
      },
    },
    async () => alertsAnswer(app.db),
  );

  app.put(
    '/alertas',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Substitui os eventos ligados e os destinatários dos alertas (administradores)',
        description:
          "`eventos`: 'falha-atualizacao' (a atualização de um dataset falhou) e 'painel-indisponivel' (o relatório de um painel foi excluído ou ficou inacessível). " +
          '`destinatarios`: pessoas e grupos do Entra (os membros ativos no momento do envio); ao menos um com algum evento ligado (400). ' +
          'Uma pessoa ou um grupo que não existe é 400. Uma mensagem quando o incidente começa e outra quando termina.',
        body: alertasBody,
        response: { 200: alertas, ...errorResponses(400, 403) },
      },
    },
    async (request) => updateAlerts(app.db, request.body, actorOf(request)),
  );
};
