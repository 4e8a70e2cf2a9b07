import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acaoCapacidadeBody,
  alterarSkuBody,
  capacidade,
  historicoCapacidade,
  politicaCapacidade,
} from '@paineis/contract/capacity';
import { errorResponses } from '../../lib/route-schema.ts';
import { actorOf } from '../audit/audit.ts';
import { CapacityControl, type CapacityActor } from './capacity.ts';

const tags = ['Capacidade'];

const who = (request: Parameters<typeof actorOf>[0] & { user: { displayName: string } }): CapacityActor => ({
  actor: actorOf(request),
  nome: request.user.displayName,
});

const ACTION_DESCRIPTION =
  'Responde 202 assim que o Azure aceita a operação; o estado segue em GET /capacidade. 409 quando nenhuma ' +
  'capacidade está configurada ou o estado atual não permite a ação; 502 quando o Azure recusa (sem a função do ' +
  'Azure na capacidade, por exemplo).';

/**
 * The Power BI capacity (docs/decisions/024-capacity-cost.md), for administrators: its state and the month's cost,
 * pause, resume and SKU, the policy that pauses and wakes it, and its history.
 */
export const capacityRoutes: FastifyPluginAsyncZod = async (app) => {
  // Without a capacity configured the policy and history still answer, and every action is 409.
  const control = () => app.capacity ?? new CapacityControl(app.db, null, app.log);

  app.get(
    '/capacidade',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'O estado da capacidade do Power BI, sua política e as horas e o custo do mês',
        response: { 200: capacidade, ...errorResponses(403) },
      },
    },
    async () => control().status(),
  );

  app.post(
    '/capacidade/pausar',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Pausa a capacidade',
        description: ACTION_DESCRIPTION,
        body: acaoCapacidadeBody,
        response: { 202: z.null(), ...errorResponses(400, 403, 409, 502, 503, 504) },
      },
    },
    async (request, reply) => {
      await control().pause(who(request), request.body?.motivo ?? null);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/capacidade/retomar',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Retoma a capacidade pausada',
        description: ACTION_DESCRIPTION,
        body: acaoCapacidadeBody,
        response: { 202: z.null(), ...errorResponses(400, 403, 409, 502, 503, 504) },
      },
    },
    async (request, reply) => {
      await control().resume(who(request), request.body?.motivo ?? null);
      return reply.code(202).send(null);
    },
  );

  app.put(
    '/capacidade/sku',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Altera o SKU da capacidade',
        description: `${ACTION_DESCRIPTION} Enquanto o SKU muda, o Power BI pode não carregar os relatórios.`,
        body: alterarSkuBody,
        response: { 202: z.null(), ...errorResponses(400, 403, 409, 502, 503, 504) },
      },
    },
    async (request, reply) => {
      await control().setSku(who(request), request.body.sku, request.body.motivo ?? null);
      return reply.code(202).send(null);
    },
  );

  app.put(
    '/capacidade/politica',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Grava a política que pausa e retoma a capacidade',
        body: politicaCapacidade,
        response: { 200: politicaCapacidade, ...errorResponses(400, 403) },
      },
    },
    async (request) => control().setPolicy(who(request), request.body),
  );

  app.get(
    '/capacidade/historico',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Cada mudança de estado da capacidade, com o motivo, das mais novas às mais antigas (até 500)',
        response: { 200: historicoCapacidade, ...errorResponses(403) },
      },
    },
    async () => control().history(),
  );
};
