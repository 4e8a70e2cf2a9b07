import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';

/** The message of the one line each request writes. */
export const REQUEST_LINE = 'requisição';

/**
 * One line per request, written when its answer has gone (Fastify's requestCompleted, after the onResponse hooks),
 * instead of Fastify's two ('incoming request' with the request serialised, 'request completed'): each line costs
 * its serialisation, the redaction's passes and a write, and the two cost about half of a hot read's throughput.
 *
 * The line holds what an operator searches by: the method, the route's template (`/api/paineis/:id`, so that
 * lines group by route and no query string, with whatever it carries, is written), the status, the response
 * time in ms, the request id (the child logger's `reqId`) and the signed-in person's id. A request no route
 * matched (the web app's pages, unknown paths) has no template: its path is written instead, without its query.
 * A response that failed while being sent is written at error level with its error. The other lines of Fastify's
 * controller (stream errors, serializer failures) stay as they are.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {
    // Nothing: the line is written once, with the outcome.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url;
    const userId = (request.user as { id?: string } | null | undefined)?.id;
    if (!error && route !== undefined && writtenAtOnce(reply.log, request.method, route, reply, userId)) return;
    const line = {
      method: request.method,
      route,
      path: route === undefined ? pathOf(request.url) : undefined,
      status: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
      userId,
    };
    if (error) reply.log.error({ ...line, err: error }, REQUEST_LINE);
    else reply.log.info(line, REQUEST_LINE);
  }
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

type PinoInternals = Record<symbol, unknown>;
const { chindingsSym, endSym, lsCacheSym, mixinSym, streamSym, timeSym } = pino.symbols;
const needsMetadata = Symbol.for('pino.metadata');

/**
 * The line of a request its route answered, written as pino would write it (same fields, same order: level, time,
 * the child's bindings with its reqId, the line's fields, msg) but without pino's passes over it. Redaction
 * (lib/log-redaction.ts) would find nothing here: every value is the server's own (a method Node parsed as an HTTP
 * token, a route's template, numbers, a stored id, the request id Fastify made), and none comes from what the client
 * sent beyond the method. Its passes cost more than the line's writing, so this line, the most frequent by far,
 * skips them. Returns false, and writes nothing, when the logger is not a plain pino logger (a mixin, a stream that
 * wants each line's metadata): then pino writes the line.
 */
function writtenAtOnce(
  log: FastifyBaseLogger,
  method: string,
  route: string,
  reply: FastifyReply,
  userId: string | undefined,
): boolean {
  if (!(log as pino.Logger).isLevelEnabled('info')) return true;
  const internals = log as unknown as PinoInternals;
  const stream = internals[streamSym] as { write(line: string): unknown; [needsMetadata]?: boolean } | undefined;
  const levelPrefix = (internals[lsCacheSym] as Record<number, string> | undefined)?.[30];
  const time = internals[timeSym] as (() => string) | undefined;
  if (!stream || stream[needsMetadata] || internals[mixinSym] || levelPrefix === undefined || !time) return false;
  const line =
    `${levelPrefix}${time()}${internals[chindingsSym] as string},"method":${JSON.stringify(method)}` +
    `,"route":${JSON.stringify(route)},"status":${reply.statusCode}` +
    `,"responseTime":${Math.round(reply.elapsedTime * 100) / 100}` +
    `${userId === undefined ? '' : `,"userId":${JSON.stringify(userId)}`},"msg":"${REQUEST_LINE}"${internals[endSym] as string}`;
  stream.write(line);
  return true;
}
