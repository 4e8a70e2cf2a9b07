import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-error.ts';
import { MicrosoftError } from '../integrations/microsoft-error.ts';
import { microsoftErrorAnswer } from './microsoft-error-answers.ts';
import { PG_FOREIGN_KEY_VIOLATION, PG_UNIQUE_VIOLATION, pgErrorCode } from '../db/pg-errors.ts';

export const INTERNAL_ERROR = 'Erro interno do servidor. Tente novamente em instantes.';

const where: Record<string, string> = {
  body: 'Corpo da requisição',
  params: 'Endereço',
  querystring: 'Parâmetros da consulta',
  headers: 'Cabeçalhos',
};

/** The message of the first problem, naming the field unless the message already does. */
function validationMessage(error: FastifyError & { validationContext?: string }, body: unknown): string {
  const first = error.validation?.[0] as { instancePath?: string; message?: string } | undefined;
  const message = first?.message ?? 'Requisição inválida.';
  const segments = (first?.instancePath ?? '').split('/').filter(Boolean);
  const context = error.validationContext ?? 'body';
  if (segments.length === 0) {
    // Zod issues do not carry the input: look at the body itself, as absent is not the same as wrong.
    if (context === 'body' && (body === undefined || body === null)) {
      return 'O corpo da requisição é obrigatório: envie um JSON.';
    }
    return `${where[context] ?? 'Requisição'}: ${message}`;
  }
  // Our own messages already name their field; the library's defaults get the path in front.
  const named = segments.some((s) => !/^\d+$/.test(s) && message.includes(s));
  return named ? message : `Campo '${segments.join('.')}': ${message}`;
}

const fastifyClientErrors: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'O corpo da requisição não é um JSON válido.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'O corpo da requisição está vazio, mas o tipo de conteúdo é JSON.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Tipo de conteúdo não suportado: envie application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'O tamanho informado do corpo não confere.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'O corpo da requisição é grande demais.'],
};

/** One error shape for the whole API: `{ message }` in Portuguese. 5xx details go to the log only. */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        return reply.code(400).send({ message: validationMessage(error, request.body) });
      }
      if (error instanceof HttpError) {
        return reply.code(error.statusCode).send({ message: error.message });
      }
      if (error instanceof MicrosoftError) {
        const { status, message } = microsoftErrorAnswer(error);
        request.log.warn(
          {
            service: error.service,
            failure: error.failure,
            status: error.status,
            code: error.code,
            requestId: error.requestId,
          },
          'serviço da Microsoft falhou',
        );
        return reply.code(status).send({ message });
      }
      const known = error.code ? fastifyClientErrors[error.code] : undefined;
      if (known) return reply.code(known[0]).send({ message: known[1] });
      if (error.statusCode === 429) {
        return reply.code(429).send({ message: 'Muitas tentativas. Aguarde um minuto e tente novamente.' });
      }
      const pgCode = pgErrorCode(error);
      // Safety nets: a constraint the code did not check first is still the client's conflict, not a 500.
      if (pgCode === PG_UNIQUE_VIOLATION) return reply.code(409).send({ message: 'Registro duplicado.' });
      if (pgCode === PG_FOREIGN_KEY_VIOLATION) {
        return reply.code(409).send({ message: 'O registro referenciado não existe mais.' });
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return reply.code(error.statusCode).send({ message: 'Requisição inválida.' });
      }
      request.log.error({ err: error }, 'erro não tratado');
      return reply.code(500).send({ message: INTERNAL_ERROR });
    });
  },
  { name: 'error-handler' },
);
