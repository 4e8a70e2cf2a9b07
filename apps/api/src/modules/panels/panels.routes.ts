import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@paineis/contract/fields';
import {
  grupoPaineis,
  painel,
  painelBody,
  painelConfiguracoes,
  painelDados,
  proximaOrdem,
  proximaOrdemParams,
  reorderBody,
} from '@paineis/contract/panels';
import { actorOf } from '../audit/audit.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { PREPARED_ANSWER } from '../../lib/prepared-json.ts';
import { findPanelConfigurations, findPanelDataJson, groupedPanelsJson, listPanelsJson } from './panel-lists.ts';
import { createPanel, deletePanel, nextOrder, reorderPanels, updatePanel } from './panels.repository.ts';
import { requesterOf } from './requester.ts';

const tags = ['Painéis'];
const admin = { admin: true };

/** The panels themselves: the lists people see, and what administrators create, change and reorder. */
export const panelsRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * A panel created or saved: its report's health and freshness are read now rather than at the next timed round (up
   * to an hour away), in a run over this panel alone, which leaves it out when its report was already read.
   */
  const readPowerBiSoon = (painelId: number) => {
    app.panelHealth?.trigger([String(painelId)]);
    app.freshness?.trigger([String(painelId)]);
  };

  app.get(
    '/',
    {
      ...PREPARED_ANSWER,
      // Exactly /api/paineis, as the contract spells it.
      prefixTrailingSlash: 'no-slash',
      schema: {
        tags,
        summary: 'Painéis visíveis ao usuário (todos, para administradores), por classificação e ordem',
        response: { 200: z.array(painel), 304: z.null(), ...errorResponses() },
      },
    },
    async (request, reply) => reply.sendPrepared(await listPanelsJson(app.db, requesterOf(request))),
  );

  app.get(
    '/agrupados',
    {
      ...PREPARED_ANSWER,
      schema: {
        tags,
        summary: "Painéis visíveis agrupados por classificação; 'Sem Classificação' (id 0) por último",
        response: { 200: z.array(grupoPaineis), 304: z.null(), ...errorResponses() },
      },
    },
    async (request, reply) => reply.sendPrepared(await groupedPanelsJson(app.db, requesterOf(request))),
  );

  app.get(
    '/proxima-ordem',
    {
      schema: {
        tags,
        summary: 'Próxima ordem livre entre todos os painéis',
        response: { 200: proximaOrdem, ...errorResponses() },
      },
    },
    async () => ({ proximaOrdem: await nextOrder(app.db) }),
  );

  app.get(
    '/proxima-ordem/:classificacaoId',
    {
      schema: {
        tags,
        summary: 'Próxima ordem livre numa classificação (0: sem classificação)',
        params: proximaOrdemParams,
        response: { 200: proximaOrdem, ...errorResponses(400) },
      },
    },
    async (request) => ({ proximaOrdem: await nextOrder(app.db, request.params.classificacaoId) }),
  );

  app.get(
    '/:id/dados',
    {
      ...PREPARED_ANSWER,
      config: admin,
      schema: {
        tags,
        summary: 'Um painel com seus papéis RLS, para edição',
        params: idParams,
        response: { 200: painelDados, 304: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => reply.sendPrepared(await findPanelDataJson(app.db, request.params.id)),
  );

  app.get(
    '/:id/configuracoes',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Tudo o que se configura num painel: relatório, RLS e usuários vinculados',
        params: idParams,
        response: { 200: painelConfiguracoes, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => findPanelConfigurations(app.db, request.params.id),
  );

  app.post(
    '/',
    {
      config: admin,
      prefixTrailingSlash: 'no-slash',
      schema: {
        tags,
        summary: 'Cria um painel (sem ordem: vai para o fim da sua classificação)',
        body: painelBody,
        response: { 201: painel, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const created = await createPanel(app.db, request.body, actorOf(request));
      readPowerBiSoon(created.id);
      return reply.code(201).send(created);
    },
  );

  app.put(
    '/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Atualiza um painel (rlsConfigurations, se enviado, substitui os papéis RLS)',
        params: idParams,
        body: painelBody,
        response: { 200: painel, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const updated = await updatePanel(app.db, request.params.id, request.body, actorOf(request));
      readPowerBiSoon(updated.id);
      return updated;
    },
  );

  app.delete(
    '/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Exclui um painel, seus vínculos e papéis RLS',
        params: idParams,
        response: { 204: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await deletePanel(app.db, request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/reorder',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Aplica novas ordens: todas ou nenhuma',
        body: reorderBody,
        response: { 204: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await reorderPanels(app.db, request.body, actorOf(request));
      return reply.code(204).send(null);
    },
  );
};
