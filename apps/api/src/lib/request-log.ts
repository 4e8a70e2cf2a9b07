import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

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
    const line = {
      method: request.method,
      route,
      path: route === undefined ? pathOf(request.url) : undefined,
      status: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
      userId: (request.user as { id?: string } | null | undefined)?.id,
    };
    if (error) reply.log.error({ ...line, err: error }, REQUEST_LINE);
    else reply.log.info(line, REQUEST_LINE);
  }
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
