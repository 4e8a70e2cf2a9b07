import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import { rlsConfiguration, rlsConfigurations, rlsRoleParams, rlsRoleUsers } from '@paineis/contract/rls';
import { errorResponses } from '../../lib/route-schema.ts';
import { notFound } from '../../lib/http-error.ts';
import { PAINEL_NAO_ENCONTRADO, panelExists } from '../panels/panels.repository.ts';
import { deleteRls, getRls, replaceRls, replaceRoleEmails, roleEmails, roleNames } from './rls.repository.ts';

const tags = ['RLS'];
const config = { admin: true };

export const rlsRoutes: FastifyPluginAsyncZod = async (app) => {
  async function requirePanel(id: number) {
    if (!(await panelExists(app.db, id))) throw notFound(PAINEL_NAO_ENCONTRADO);
  }

  app.get(
    '/paineis/:id/rls',
    {
      config,
      schema: {
        tags,
        summary: 'Papéis RLS do painel com seus e-mails',
        params: idParams,
        response: { 200: z.array(rlsConfiguration), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      await requirePanel(request.params.id);
      return getRls(app.db, request.params.id);
    },
  );

  app.post(
    '/paineis/:id/rls',
    {
      config,
      schema: {
        tags,
        summary: 'Substitui toda a configuração RLS do painel',
        params: idParams,
        body: rlsConfigurations,
        response: { 200: z.array(rlsConfiguration), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const id = request.params.id;
      await app.db.transaction(async (tx) => {
        if (!(await panelExists(tx, id))) throw notFound(PAINEL_NAO_ENCONTRADO);
        await replaceRls(tx, id, request.body);
      });
      return getRls(app.db, id);
    },
  );

  app.delete(
    '/paineis/:id/rls',
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
      await requirePanel(request.params.id);
      await deleteRls(app.db, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/paineis/:id/rls/roles',
    {
      config,
      schema: {
        tags,
        summary: 'Nomes dos papéis RLS do painel',
        params: idParams,
        response: { 200: z.array(z.string()), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      await requirePanel(request.params.id);
      return roleNames(app.db, request.params.id);
    },
  );

  app.get(
    '/paineis/:id/rls/roles/:role/usuarios',
    {
      config,
      schema: {
        tags,
        summary: 'E-mails de um papel RLS',
        params: rlsRoleParams,
        response: { 200: z.array(z.string()), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { id, role } = request.params;
      await requirePanel(id);
      const emails = await roleEmails(app.db, id, role);
      if (!emails) throw notFound(`Papel RLS '${role}' não encontrado neste painel.`);
      return emails;
    },
  );

  app.post(
    '/paineis/:id/rls/roles/:role/usuarios',
    {
      config,
      schema: {
        tags,
        summary: 'Substitui os e-mails de um papel RLS (cria o papel se ainda não existir)',
        params: rlsRoleParams,
        body: rlsRoleUsers,
        response: { 200: z.array(z.string()), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { id, role } = request.params;
      await app.db.transaction(async (tx) => {
        if (!(await panelExists(tx, id))) throw notFound(PAINEL_NAO_ENCONTRADO);
        await replaceRoleEmails(tx, id, role, request.body);
      });
      return (await roleEmails(app.db, id, role)) ?? [];
    },
  );
};
