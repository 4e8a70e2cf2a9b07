import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  arquivoAssinaturaParams,
  assinatura,
  assinaturaBody,
  assinaturaParams,
  assinaturaPatchBody,
  assinaturas,
  envioSolicitado,
  MAX_ASSINATURAS_POR_PESSOA,
} from '@paineis/contract/subscriptions';
import { errorResponses } from '../../lib/route-schema.ts';
import { actorOf } from '../audit/audit.ts';
import { FILE_TYPES } from '../exports/export-answers.ts';
import { requesterOf } from '../panels/requester.ts';
import {
  createSubscription,
  listEverySubscription,
  listOwnSubscriptions,
  removeSubscription,
  sendNow,
  subscriptionFile,
  updateSubscription,
} from './subscriptions.ts';

const tags = ['Assinaturas'];

/**
 * docs/requirements.md#subscriptions: a person's e-mail subscriptions, an administrator's for people and groups, and
 * the files too large to attach. A subscription is its owner's: anyone else's is 404, except that administrators may
 * pause, resume and delete anyone's.
 */
export const subscriptionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/assinaturas',
    {
      schema: {
        tags,
        summary: 'Assina um painel por e-mail (PDF ou PowerPoint, diária, semanal ou mensal)',
        description:
          'Num painel que a pessoa pode abrir (404 para os outros) e com a exportação ativa (403). `fusoHorario` é, por padrão, o do portal (USAGE_TIME_ZONE); `visaoId`, uma visão salva da própria pessoa neste painel. ' +
          `\`destinatarios\` (pessoas e grupos) é só para administradores; o dono então só recebe se estiver entre eles. Até ${MAX_ASSINATURAS_POR_PESSOA} assinaturas por pessoa (409).`,
        body: assinaturaBody,
        response: { 201: assinatura, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSubscription(app, requesterOf(request), request.body, actorOf(request))),
  );

  app.get(
    '/assinaturas',
    {
      schema: {
        tags,
        summary: 'As assinaturas do usuário, das mais novas às mais antigas',
        response: { 200: assinaturas, ...errorResponses() },
      },
    },
    async (request) => ({ assinaturas: await listOwnSubscriptions(app.db, requesterOf(request)) }),
  );

  app.get(
    '/assinaturas/todas',
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Todas as assinaturas, com dono, destinatários, situação e última falha (administradores)',
        response: { 200: assinaturas, ...errorResponses(403) },
      },
    },
    async () => ({ assinaturas: await listEverySubscription(app.db) }),
  );

  app.patch(
    '/assinaturas/:id',
    {
      schema: {
        tags,
        summary: 'Altera, pausa (`ativa: false`) ou retoma (`ativa: true`) uma assinatura',
        description:
          'Os campos enviados substituem os guardados e a agenda resultante é validada de novo: uma nova `frequencia` vem com o seu dia; `diaria` apaga os dias. ' +
          'Pausar apaga o próximo envio; retomar, ou mudar a agenda, calcula-o a partir de agora. `destinatarios` é só para administradores e substitui os destinatários. ' +
          'A assinatura de outra pessoa é 404, exceto para administradores, que podem pausá-la ou retomá-la (só `ativa`; qualquer outro campo é 403).',
        params: assinaturaParams,
        body: assinaturaPatchBody,
        response: { 200: assinatura, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) =>
      updateSubscription(app.db, request.params.id, requesterOf(request), request.body, actorOf(request)),
  );

  app.delete(
    '/assinaturas/:id',
    {
      schema: {
        tags,
        summary: 'Exclui uma assinatura',
        description: 'A do próprio usuário; a de qualquer pessoa, para administradores (404 para os outros).',
        params: assinaturaParams,
        response: { 204: z.null(), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      await removeSubscription(app.db, request.params.id, requesterOf(request), actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/assinaturas/:id/enviar-agora',
    {
      schema: {
        tags,
        summary: 'Envia uma assinatura do usuário agora, fora da agenda',
        description:
          'Responde 202 com o envio na fila. Só o dono envia (403 para outro administrador), e só enquanto ainda pode fazê-la: a de outras pessoas e grupos exige que ele ainda seja administrador (403). ' +
          '409 quando está pausada, quando o dono (ou nenhum destinatário) não pode mais abrir o painel ou quando outro envio manual dela ainda não terminou; ' +
          '403 com a exportação do painel desativada; 503 quando o envio de e-mail não está configurado; ' +
          '429 com `Retry-After` além de SUBSCRIPTION_SEND_NOW_PER_HOUR pedidos por pessoa na última hora.',
        params: assinaturaParams,
        response: { 202: envioSolicitado, ...errorResponses(400, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await sendNow(app, request.params.id, requesterOf(request), actorOf(request))),
  );

  app.get(
    '/assinaturas/arquivos/:id',
    {
      schema: {
        tags,
        summary: 'Um arquivo de assinatura grande demais para o anexo, para o seu destinatário',
        description:
          'Só para as pessoas a quem foi enviado, até expirar (SUBSCRIPTION_FILE_DAYS), enquanto ainda podem abrir o painel com a mesma identidade (404 para qualquer outra) e a exportação do painel está ativa (403).',
        params: arquivoAssinaturaParams,
        response: {
          200: z.unknown().meta({
            description: 'O arquivo (PDF ou PPTX), como anexo com o seu nome.',
            content: {
              [FILE_TYPES.PDF.contentType]: { schema: { type: 'string', format: 'binary' } },
              [FILE_TYPES.PPTX.contentType]: { schema: { type: 'string', format: 'binary' } },
            },
          }),
          ...errorResponses(400, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { body, headers } = await subscriptionFile(app, request.params.id, requesterOf(request));
      return reply.headers(headers).send(body);
    },
  );
};
