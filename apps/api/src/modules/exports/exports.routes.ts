import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportacao, exportacaoBody, exportacaoParams } from '@paineis/contract/personal';
import { capacidadeIndisponivel } from '@paineis/contract/capacity';
import { errorResponse, idParams } from '@paineis/contract/fields';
import { errorResponses } from '../../lib/route-schema.ts';
import { requesterOf } from '../panels/requester.ts';
import { FILE_TYPES } from './export-answers.ts';
import { exportFile, exportProgress, startPanelExport } from './exports.ts';

const tags = ['Exportação'];
/** A 503 is Power BI's, or the capacity's while paused or waking (its `capacidade`, as an opening's). */
const errors = { ...errorResponses(400, 403, 404, 409, 502, 503, 504), 503: capacidadeIndisponivel.or(errorResponse) };

/**
 * docs/requirements.md#personal: exporting a panel's report to PDF or PowerPoint through Power BI's export-to-file
 * jobs, with the person's own RLS identity (exports.ts). A job is its starter's alone: anyone else gets 404.
 */
export const exportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/paineis/:id/exportacoes',
    {
      schema: {
        tags,
        summary: 'Inicia a exportação do relatório para PDF ou PowerPoint',
        description:
          'Pelo Power BI (exportação para arquivo), com a mesma identidade efetiva (RLS) do token de incorporação do usuário, o `estado` como indicador padrão e só a `pagina`, quando informada. ' +
          'Responde 202 com a exportação a acompanhar; 403 quando um administrador desativou a exportação do painel; ' +
          '409 quando o Power BI recusa exportar este relatório (capacidade, configuração de locatário, permissões do RLS, rótulo de confidencialidade, mais de 50 páginas); ' +
          '503 com `Retry-After` quando o Power BI está ocupado com outras exportações.',
        params: idParams,
        body: exportacaoBody,
        response: { 202: exportacao, ...errors },
      },
    },
    async (request, reply) => {
      const { body, headers } = await startPanelExport(app, request.params.id, requesterOf(request), request.body);
      return reply.code(202).headers(headers).send(body);
    },
  );

  app.get(
    '/paineis/:id/exportacoes/:exportacaoId',
    {
      schema: {
        tags,
        summary: 'O andamento de uma exportação do usuário',
        description:
          'Enquanto o Power BI trabalha (NotStarted, Running), o cabeçalho `Retry-After` e `aguardarSegundos` dizem quando perguntar de novo; com Succeeded, `arquivoUrl` dá o arquivo. ' +
          'Uma falha passageira do Power BI (Failed com Retry-After) é tentada de novo, até 3 tentativas ao todo: até lá a exportação segue Running.',
        params: exportacaoParams,
        response: { 200: exportacao, ...errors },
      },
    },
    async (request, reply) => {
      const { id, exportacaoId } = request.params;
      const { body, headers } = await exportProgress(app, id, exportacaoId, requesterOf(request));
      return reply.headers(headers).send(body);
    },
  );

  app.get(
    '/paineis/:id/exportacoes/:exportacaoId/arquivo',
    {
      schema: {
        tags,
        summary: 'O arquivo de uma exportação concluída do usuário (PDF ou PPTX)',
        description: '409 enquanto a exportação não terminou ou quando falhou.',
        params: exportacaoParams,
        response: {
          200: z.unknown().meta({
            description: 'O arquivo, como anexo com o nome do painel.',
            content: {
              [FILE_TYPES.PDF.contentType]: { schema: { type: 'string', format: 'binary' } },
              [FILE_TYPES.PPTX.contentType]: { schema: { type: 'string', format: 'binary' } },
            },
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { id, exportacaoId } = request.params;
      const { body, headers } = await exportFile(app, id, exportacaoId, requesterOf(request));
      return reply.headers(headers).send(body);
    },
  );
};
