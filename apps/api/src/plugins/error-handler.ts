import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-error.ts';
import { DomainFailure, type FailureKind } from '../lib/domain-failure.ts';
import { MicrosoftError } from '../integrations/microsoft-error.ts';
import { microsoftErrorAnswer } from './microsoft-error-answers.ts';
import { BARE_ANSWER_HEADERS } from './security-headers.ts';
import { PG_FOREIGN_KEY_VIOLATION, PG_UNIQUE_VIOLATION, pgErrorCode } from '../db/pg-errors.ts';

/** The status of each kind of refusal a module throws. */
const FAILURE_STATUS: Record<FailureKind, number> = {
  'not-found': 404,
  invalid: 400,
  conflict: 409,
  forbidden: 403,
  busy: 503,
  unauthenticated: 401,
  throttled: 429,
  unavailable: 503,
};

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

/** Node's limit on a request's head (its first line and headers), `http.maxHeaderSize`. */
const MAX_HEAD_BYTES = 16 * 1024;

/** What a request that Node could not read as HTTP is answered (see answerClientError). */
export function clientErrorAnswer(error: Error & { code?: string; rawPacket?: Buffer }): [number, string] {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return [408, 'A requisição demorou demais para chegar. Tente novamente.'];
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // The address itself is most of the head: 414. Only the packet Node was reading is at hand, so a head
    // that overflowed in a later packet is answered 431, which covers both.
    const packet = error.rawPacket?.subarray(0, MAX_HEAD_BYTES).toString('latin1') ?? '';
    const firstLine = /^[A-Z]+ (\S*)/.exec(packet);
    const lineEnd = packet.indexOf('\n');
    if (firstLine && (lineEnd === -1 || lineEnd > MAX_HEAD_BYTES / 2)) {
      return [414, 'O endereço da requisição é longo demais (limite de 16 KB, parâmetros da consulta incluídos).'];
    }
    return [431, 'O endereço e os cabeçalhos da requisição são grandes demais (limite de 16 KB).'];
  }
  return [400, 'Requisição HTTP malformada.'];
}

/**
 * Fastify's clientErrorHandler: a request Node refused before Fastify saw it (a head over 16 KB, malformed
 * HTTP, a timeout) gets the API's one error shape too, instead of Node's or Fastify's English.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = clientErrorAnswer(error);
  this.log.debug({ err: error, status }, 'requisição recusada antes do roteamento');
  if (socket.writable) {
    const body = JSON.stringify({ message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        Object.entries(BARE_ANSWER_HEADERS)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** One error shape for the whole API: `{ message }` in Portuguese. 5xx details go to the log only. */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        return reply.code(400).send({ message: validationMessage(error, request.body) });
      }
      if (error instanceof DomainFailure) {
        // As with an HttpError: a 429 always says when to come back, a busy 503 when whoever raised it knew.
        if (error.kind === 'throttled' || error.retryAfterSeconds !== undefined) {
          void reply.header('retry-after', String(error.retryAfterSeconds ?? 60));
        }
        return reply.code(FAILURE_STATUS[error.kind]).send({ ...error.details, message: error.message });
      }
      if (error instanceof HttpError) {
        // A 429 always says when to come back; any other status (a busy 503) when whoever raised it knew.
        if (error.statusCode === 429 || error.retryAfterSeconds !== undefined) {
          void reply.header('retry-after', String(error.retryAfterSeconds ?? 60));
        }
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
        // Every 429 says when to come back: what whoever raised it set, else the minute the message names.
        if (!reply.hasHeader('retry-after')) void reply.header('retry-after', '60');
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
