import type { FastifyReply } from 'fastify';

/** How the Power BI REST stand-in refuses: Power BI's status, error code and message, in its error shape. */

export interface PowerBiError {
  status: number;
  code: string;
  message: string;
}

export function sendError(reply: FastifyReply, { status, code, message }: PowerBiError): FastifyReply {
  return reply.code(status).send({ error: { code, message } });
}

export const invalid = (message: string): PowerBiError => ({ status: 400, code: 'InvalidRequest', message });
export const notFound = (message: string): PowerBiError => ({
  status: 404,
  code: 'PowerBIEntityNotFound',
  message,
});
