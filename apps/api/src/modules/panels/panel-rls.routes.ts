import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { MAX_RLS_ROLE_NAME_LENGTH, MAX_RLS_ROLES } from '@paineis/contract/rls-rules';
import {
  rlsConfiguration,
  rlsConfigurations,
  rlsRoleParams,
  rlsRoleUsers,
  storedRlsRoleParams,
} from '@paineis/contract/rls';
import { actorOf } from '../audit/audit.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import {
  deletePanelRls,
  panelRls,
  panelRoleEmails,
  panelRoleNames,
  replacePanelRls,
  replacePanelRoleEmails,
  rlsConfigurationsOverLimits,
} from './rls.repository.ts';

const tags = ['RLS'];
const config = { admin: true };
const LIMITS =
  `Os limites do Power BI para a identidade efetiva valem para o painel: no máximo ${MAX_RLS_ROLES} papéis, ` +
  `nomes de até ${MAX_RLS_ROLE_NAME_LENGTH} caracteres e sem vírgula (400 em português, nomeando o papel e o limite).`;

/** A panel's row-level security roles and the e-mails in each. */
export const panelRlsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Roles saved before Power BI's limits were enforced stay as they are: each such panel is named once at start,
  // for an administrator to fix, and the start goes on whatever this finds (docs/decisions/014).
  app.addHook('onReady', async () => {
    try {
      for (const { painelId, nomePainel, problemas } of await rlsConfigurationsOverLimits(app.db)) {
        app.log.warn(
          { painelId, nomePainel, problemas },
          `A configuração RLS do painel ${painelId} ('${nomePainel}') passa dos limites do Power BI: ${problemas.join(' ')}`,
        );
      }
    } catch (err) {
      app.log.warn({ err }, 'Não foi possível verificar as configurações RLS guardadas contra os limites do Power BI.');
    }
  });

  app.get(
    '/:id/rls',
    {
      config,
      schema: {
        tags,
        summary: 'Papéis RLS do painel com seus e-mails',
        params: idParams,
        response: { 200: z.array(rlsConfiguration), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => panelRls(app.db, request.params.id),
  );

  app.post(
    '/:id/rls',
    {
      config,
      schema: {
        tags,
        summary: 'Substitui toda a configuração RLS do painel',
        description: LIMITS,
        params: idParams,
        body: rlsConfigurations,
        response: { 200: z.array(rlsConfiguration), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => replacePanelRls(app.db, request.params.id, request.body, actorOf(request)),
  );

  app.delete(
    '/:id/rls',
    {
      config,
      schema: {
        tags,
        summary: 'Remove todos os papéis RLS do painel',
        params: idParams,
        response: { 204: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await deletePanelRls(app.db, request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:id/rls/roles',
    {
      config,
      schema: {
        tags,
        summary: 'Nomes dos papéis RLS do painel',
        params: idParams,
        response: { 200: z.array(z.string()), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => panelRoleNames(app.db, request.params.id),
  );

  app.get(
    '/:id/rls/roles/:role/usuarios',
    {
      config,
      schema: {
        tags,
        summary: 'E-mails de um papel RLS',
        params: storedRlsRoleParams,
        response: { 200: z.array(z.string()), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => panelRoleEmails(app.db, request.params.id, request.params.role),
  );

  app.post(
    '/:id/rls/roles/:role/usuarios',
    {
      config,
      schema: {
        tags,
        summary: 'Substitui os e-mails de um papel RLS (cria o papel se ainda não existir)',
        description: `${LIMITS} Recusada também quando a configuração já guardada do painel passa desses limites.`,
        params: rlsRoleParams,
        body: rlsRoleUsers,
        response: { 200: z.array(z.string()), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) =>
      replacePanelRoleEmails(app.db, request.params.id, request.params.role, request.body, actorOf(request)),
  );
};
