import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { idParams } from '@paineis/contract/fields';
import {
  grupoPaineis,
  painel,
  painelBody,
  painelComEmbed,
  embedInfo,
  embedQuery,
  painelConfiguracoes,
  painelDados,
  proximaOrdem,
  proximaOrdemParams,
  reorderBody,
} from '@paineis/contract/panels';
import { errorResponses } from '../../lib/route-schema.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { getRls, roleNames, rolesOfEmail } from '../rls/rls.repository.ts';
import { linkedUsers } from '../panel-users/panel-users.repository.ts';
import {
  createPanel,
  deletePanel,
  findPanel,
  findPanelDados,
  groupedPanels,
  listPanels,
  nextOrdem,
  PAINEL_NAO_ENCONTRADO,
  reorderPanels,
  updatePanel,
  type Viewer,
} from './panels.repository.ts';

const tags = ['Painéis'];
export const RLS_SEM_PAPEL =
  'Você não está em nenhum papel de segurança em nível de linha (RLS) deste painel. Peça acesso a um administrador.';
export const PAPEL_SOMENTE_ADMIN = 'Somente administradores podem visualizar um painel como um papel RLS escolhido.';
export const PAPEL_SEM_RLS = 'Este painel não usa RLS: não há papel a escolher.';
export const papelInexistente = (papel: string) => `O papel RLS "${papel}" não existe neste painel.`;
export const viewerOf = (request: FastifyRequest): Viewer => ({
  id: request.user.id,
  isAdmin: request.user.role === 'Admin',
});

export const panelsRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * The panel if this person may open it, and what the browser needs to embed its report for them. An admin
   * may preview an RLS panel as one of its roles (`papel`); by default an admin sees it with all of them.
   */
  async function embedFor(request: FastifyRequest, id: number, papel: string | undefined) {
    const viewer = viewerOf(request);
    const panel = await findPanel(app.db, id, viewer);
    if (!panel) throw notFound(PAINEL_NAO_ENCONTRADO);
    if (papel !== undefined && !viewer.isAdmin) throw new HttpError(403, PAPEL_SOMENTE_ADMIN);
    if (papel !== undefined && !panel.usaRls) throw new HttpError(400, PAPEL_SEM_RLS);
    let roles: string[] = [];
    if (panel.usaRls && viewer.isAdmin) {
      roles = await roleNames(app.db, panel.id);
      if (papel !== undefined) {
        // Role names are unique per panel ignoring case, as they are saved.
        const chosen = roles.find((role) => role.toLowerCase() === papel.toLowerCase());
        if (chosen === undefined) throw new HttpError(400, papelInexistente(papel));
        roles = [chosen];
      }
    } else if (panel.usaRls) {
      // A user sees the data of the roles that list them.
      roles = await rolesOfEmail(app.db, panel.id, request.user.email);
      if (roles.length === 0) throw new HttpError(403, RLS_SEM_PAPEL);
    }
    const embed = await app.embedding.embedFor(panel, { ...viewer, email: request.user.email, roles });
    return { panel, embed };
  }

  app.get(
    '/paineis',
    {
      schema: {
        tags,
        summary: 'Painéis visíveis ao usuário (todos, para administradores), por classificação e ordem',
        response: { 200: z.array(painel), ...errorResponses() },
      },
    },
    async (request) => listPanels(app.db, viewerOf(request)),
  );

  app.get(
    '/paineis/agrupados',
    {
      schema: {
        tags,
        summary: "Painéis visíveis agrupados por classificação; 'Sem Classificação' (id 0) por último",
        response: { 200: z.array(grupoPaineis), ...errorResponses() },
      },
    },
    async (request) => groupedPanels(app.db, viewerOf(request)),
  );

  app.get(
    '/paineis/proxima-ordem',
    {
      schema: {
        tags,
        summary: 'Próxima ordem livre entre todos os painéis',
        response: { 200: proximaOrdem, ...errorResponses() },
      },
    },
    async () => ({ proximaOrdem: await nextOrdem(app.db) }),
  );

  app.get(
    '/paineis/proxima-ordem/:classificacaoId',
    {
      schema: {
        tags,
        summary: 'Próxima ordem livre numa classificação (0: sem classificação)',
        params: proximaOrdemParams,
        response: { 200: proximaOrdem, ...errorResponses(400) },
      },
    },
    async (request) => ({ proximaOrdem: await nextOrdem(app.db, request.params.classificacaoId) }),
  );

  app.get(
    '/paineis/:id',
    {
      schema: {
        tags,
        summary: 'Um painel, com o token para incorporar o relatório',
        description:
          'Num painel com RLS, a identidade efetiva leva os papéis do usuário; administradores veem todos os papéis, ou só o papel pedido em `papel`.',
        params: idParams,
        querystring: embedQuery,
        response: { 200: painelComEmbed, ...errorResponses(400, 403, 404, 409, 502, 503, 504) },
      },
    },
    async (request) => {
      const { panel, embed } = await embedFor(request, request.params.id, request.query.papel);
      return { ...panel, ...embed };
    },
  );

  app.get(
    '/paineis/:id/token',
    {
      schema: {
        tags,
        summary: 'Um novo token de incorporação do painel (para renová-lo sem recarregar o relatório)',
        params: idParams,
        querystring: embedQuery,
        response: { 200: embedInfo, ...errorResponses(400, 403, 404, 409, 502, 503, 504) },
      },
    },
    async (request) => (await embedFor(request, request.params.id, request.query.papel)).embed,
  );

  app.get(
    '/paineis/:id/dados',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Um painel com seus papéis RLS, para edição',
        params: idParams,
        response: { 200: painelDados, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const panel = await findPanelDados(app.db, request.params.id);
      if (!panel) throw notFound(PAINEL_NAO_ENCONTRADO);
      return panel;
    },
  );

  app.get(
    '/paineis/:id/configuracoes',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Tudo o que se configura num painel: relatório, RLS e usuários vinculados',
        params: idParams,
        response: { 200: painelConfiguracoes, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const panel = await findPanel(app.db, id, { id: '', isAdmin: true });
      if (!panel) throw notFound(PAINEL_NAO_ENCONTRADO);
      const [rlsConfigurations, usuariosVinculados] = await Promise.all([getRls(app.db, id), linkedUsers(app.db, id)]);
      return {
        painelId: id,
        nomePainel: panel.nomePainel,
        workspaceId: panel.workspaceId,
        reportId: panel.reportId,
        usaRls: panel.usaRls,
        rlsConfigurations,
        usuariosVinculados,
      };
    },
  );

  app.post(
    '/paineis',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Cria um painel (sem ordem: vai para o fim da sua classificação)',
        body: painelBody,
        response: { 201: painel, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await createPanel(app.db, request.body)),
  );

  app.put(
    '/paineis/:id',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Atualiza um painel (rlsConfigurations, se enviado, substitui os papéis RLS)',
        params: idParams,
        body: painelBody,
        response: { 200: painel, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => updatePanel(app.db, request.params.id, request.body),
  );

  app.delete(
    '/paineis/:id',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Exclui um painel, seus vínculos e papéis RLS',
        params: idParams,
        response: { 204: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      if (!(await deletePanel(app.db, request.params.id))) throw notFound(PAINEL_NAO_ENCONTRADO);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/paineis/reorder',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Aplica novas ordens: todas ou nenhuma',
        body: reorderBody,
        response: { 204: z.null(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await reorderPanels(app.db, request.body);
      return reply.code(204).send(null);
    },
  );
};
