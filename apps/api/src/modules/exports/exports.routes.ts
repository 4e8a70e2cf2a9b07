import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { create as contentDisposition } from 'content-disposition';
import { z } from 'zod';
import type { Painel } from '@paineis/contract/panels';
import {
  exportacao,
  exportacaoBody,
  exportacaoParams,
  MENSAGENS_EXPORTACAO,
  type Exportacao,
} from '@paineis/contract/personal';
import { idParams } from '@paineis/contract/fields';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import type { PowerBiExport } from '../../integrations/power-bi/power-bi-client.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { errorResponses } from '../../lib/route-schema.ts';
import { openPanel, requireVisiblePanel } from '../panels/panel-access.ts';
import { requesterOf, type Requester } from '../panels/requester.ts';
import { findOwnExport, insertExport, type ExportRecord } from './exports.repository.ts';

const tags = ['Exportação'];
const errors = errorResponses(400, 403, 404, 409, 502, 503, 504);

const FILE_TYPES = {
  PDF: { contentType: 'application/pdf', extension: '.pdf' },
  PPTX: {
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extension: '.pptx',
  },
} as const;

/** How long the viewer waits before asking again when Power BI named no time. */
const DEFAULT_WAIT_SECONDS = 1;

/**
 * A file name from the panel's name that any system and browser take: letters (accents too), digits, spaces, dots and
 * dashes; anything else becomes a space. content-disposition adds the ASCII fallback and the UTF-8 form.
 */
export function exportFileName(nomePainel: string, extension: string): string {
  const safe = nomePainel
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 120);
  return `${safe || 'painel'}${extension}`;
}

/** The header with the name as is (filename*) and, for old clients, without accents (filename). */
const attachment = (fileName: string) =>
  contentDisposition(fileName, {
    fallback: fileName
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^\x20-\x7e]/g, '_'),
  });

/**
 * docs/requirements.md#personal: exporting a panel's report to PDF or PowerPoint through Power BI's export-to-file
 * jobs, with the person's own RLS identity. A job is its starter's alone: anyone else gets 404.
 */
export const exportsRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The panel, if this person may open it (404) and its export is on (403). */
  const exportablePanel = async (id: number, requester: Requester): Promise<Painel> => {
    const panel = await requireVisiblePanel(app.db, id, requester);
    if (!panel.permiteExportacao) throw new HttpError(403, MENSAGENS_EXPORTACAO.desativada);
    return panel;
  };
  const ownJob = async (panel: Painel, exportacaoId: string, requester: Requester): Promise<ExportRecord> => {
    const job = await findOwnExport(app.db, exportacaoId, requester.id, panel.id);
    if (!job) throw notFound(MENSAGENS_EXPORTACAO.naoEncontrada);
    return job;
  };
  const powerBiJob = (job: ExportRecord) => ({
    workspaceId: job.workspaceId,
    reportId: job.reportId,
    exportId: job.powerBiExportId,
  });

  /** The answer for a job's state; while it runs, Retry-After says when to ask again. */
  const answer = (job: ExportRecord, state: PowerBiExport): Exportacao => {
    const running = state.status === 'NotStarted' || state.status === 'Running';
    return {
      id: job.id,
      painelId: job.painelId,
      formato: job.formato,
      status: state.status,
      percentComplete: state.percentComplete,
      aguardarSegundos: running ? Math.max(DEFAULT_WAIT_SECONDS, state.retryAfterSeconds ?? 0) : null,
      arquivoUrl: state.status === 'Succeeded' ? `/api/paineis/${job.painelId}/exportacoes/${job.id}/arquivo` : null,
    };
  };

  app.post(
    '/paineis/:id/exportacoes',
    {
      schema: {
        tags,
        summary: 'Inicia a exportação do relatório para PDF ou PowerPoint',
        description:
          'Pelo Power BI (exportação para arquivo), com a mesma identidade efetiva (RLS) do token de incorporação do usuário, o `estado` como indicador padrão e só a `pagina`, quando informada. ' +
          'Responde 202 com a exportação a acompanhar; 403 quando um administrador desativou a exportação do painel.',
        params: idParams,
        body: exportacaoBody,
        response: { 202: exportacao, ...errors },
      },
    },
    async (request, reply) => {
      const requester = requesterOf(request);
      await exportablePanel(request.params.id, requester);
      const { panel, roles } = await openPanel(app.db, request.params.id, requester, undefined);
      const { formato, estado, pagina } = request.body;
      const started = await app.reportExports
        .startExport(panel, { ...requester, roles }, { format: formato, state: estado, page: pagina })
        .catch((error: unknown) => {
          // Power BI's 400 to a request carrying the viewer's state or page is about them: the caller's input.
          const sentState = estado !== undefined || pagina !== undefined;
          if (sentState && error instanceof MicrosoftError && error.failure === 'refused' && error.status === 400) {
            throw new HttpError(400, MENSAGENS_EXPORTACAO.estadoRecusado);
          }
          throw error;
        });
      const job = await insertExport(app.db, requester.id, {
        painelId: panel.id,
        formato,
        powerBiExportId: started.exportId,
        workspaceId: started.workspaceId,
        reportId: started.reportId,
      });
      const body = answer(job, started);
      if (body.aguardarSegundos !== null) void reply.header('retry-after', String(body.aguardarSegundos));
      return reply.code(202).send(body);
    },
  );

  app.get(
    '/paineis/:id/exportacoes/:exportacaoId',
    {
      schema: {
        tags,
        summary: 'O andamento de uma exportação do usuário',
        description:
          'Enquanto o Power BI trabalha (NotStarted, Running), o cabeçalho `Retry-After` e `aguardarSegundos` dizem quando perguntar de novo; com Succeeded, `arquivoUrl` dá o arquivo.',
        params: exportacaoParams,
        response: { 200: exportacao, ...errors },
      },
    },
    async (request, reply) => {
      const requester = requesterOf(request);
      const panel = await exportablePanel(request.params.id, requester);
      const job = await ownJob(panel, request.params.exportacaoId, requester);
      const body = answer(job, await app.reportExports.exportStatus(powerBiJob(job), panel.id));
      if (body.aguardarSegundos !== null) void reply.header('retry-after', String(body.aguardarSegundos));
      return body;
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
      const requester = requesterOf(request);
      const panel = await exportablePanel(request.params.id, requester);
      const job = await ownJob(panel, request.params.exportacaoId, requester);
      const state = await app.reportExports.exportStatus(powerBiJob(job), panel.id);
      if (state.status === 'Failed') throw new HttpError(409, MENSAGENS_EXPORTACAO.falhou);
      if (state.status !== 'Succeeded') throw new HttpError(409, MENSAGENS_EXPORTACAO.naoPronta);
      const file = await app.reportExports.exportFile(powerBiJob(job), panel.id);
      const type = FILE_TYPES[job.formato];
      return reply
        .header('content-type', type.contentType)
        .header('content-disposition', attachment(exportFileName(panel.nomePainel, type.extension)))
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(file.bytes));
    },
  );
};
