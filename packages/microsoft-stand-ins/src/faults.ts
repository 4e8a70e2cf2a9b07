import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { StandInFaults, StandInGarbage, StandInHang, StandInRetryAfter } from './types.ts';

/**
 * Upstream faults the stand-ins can be told to play, for tests of how the portal copes: error statuses, throttling
 * (with or without Retry-After), answers that never come or never finish, and 200s that cannot be used.
 */
export type Fault =
  | { kind: 'fail'; status: number }
  | { kind: 'throttle'; retryAfter: string | null }
  | { kind: 'hang'; stage: StandInHang }
  | { kind: 'garbage'; garbage: StandInGarbage };

const GARBAGE: readonly StandInGarbage[] = ['not-json', 'wrong-shape', 'truncated', 'wrong-content-type'];
const HANGS: readonly StandInHang[] = ['headers', 'body'];

function count(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number, 0 or more`);
  return value;
}

/** A Retry-After as sent: delay-seconds (any size, however absurd), an HTTP-date or anything else verbatim; null: none. */
function retryAfterHeader(value: StandInRetryAfter): string | null {
  if (value === null) return null;
  if (typeof value === 'number') return String(count(value, 'retryAfter'));
  return value;
}

/**
 * One service's (or endpoint's) queue of faults, taken one per request in request order by the requests the service
 * would otherwise serve; `afterRequests` queues that many normal answers first, so a fault can start part-way (a
 * later page, the second call of two). Requests held hanging are let go of (their connections closed) by `reset`.
 */
export class FaultQueue {
  private readonly queue: (Fault | null)[] = [];
  private readonly held = new Set<ServerResponse>();

  /** The fault for this request, if one is due (a queued normal answer is taken too, and gives none). */
  take(): Fault | undefined {
    return this.queue.shift() ?? undefined;
  }

  reset(): void {
    this.queue.length = 0;
    for (const response of this.held) response.destroy();
    this.held.clear();
  }

  private push(fault: Fault, times: number, afterRequests: number): void {
    for (let i = 0; i < count(afterRequests, 'afterRequests'); i++) this.queue.push(null);
    for (let i = 0; i < count(times, 'times'); i++) this.queue.push(fault);
  }

  readonly controls: StandInFaults = {
    failNext: (status, times = 1, afterRequests = 0) => {
      if (!Number.isInteger(status) || status < 400 || status > 599) {
        throw new RangeError('status must be an HTTP error status (400–599)');
      }
      this.push({ kind: 'fail', status }, times, afterRequests);
    },
    throttleNext: (retryAfter, times = 1, afterRequests = 0) => {
      this.push({ kind: 'throttle', retryAfter: retryAfterHeader(retryAfter) }, times, afterRequests);
    },
    hangNext: (times = 1, afterRequests = 0, stage = 'headers') => {
      if (!HANGS.includes(stage)) throw new RangeError(`stage must be one of ${HANGS.join(', ')}`);
      this.push({ kind: 'hang', stage }, times, afterRequests);
    },
    garbageNext: (garbage, times = 1, afterRequests = 0) => {
      if (!GARBAGE.includes(garbage)) throw new RangeError(`garbage must be one of ${GARBAGE.join(', ')}`);
      this.push({ kind: 'garbage', garbage }, times, afterRequests);
    },
  };

  /**
   * Answers nothing ('headers'), or a 200 whose body starts like `sample` and never finishes ('body'), until the
   * client gives up or `reset` lets go. The connection stays open either way.
   */
  hang(reply: FastifyReply, stage: StandInHang, sample: string): void {
    reply.hijack();
    const response = reply.raw;
    this.held.add(response);
    response.once('close', () => this.held.delete(response));
    if (stage === 'body') {
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(sample)),
      });
      response.write(sample.slice(0, Math.floor(sample.length / 2)));
    }
  }
}

/**
 * A 200 the client cannot use: `not-json` (JSON content type, a text body), `wrong-shape` (valid JSON, not what the
 * endpoint answers), `truncated` (the Content-Length of `sample`, half of it, then the connection closes) or
 * `wrong-content-type` (an HTML page, as a proxy or captive portal answers in the service's place).
 */
export function sendGarbage(reply: FastifyReply, garbage: StandInGarbage, wrongShape: unknown, sample: string): void {
  if (garbage === 'truncated') {
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(sample)),
    });
    response.write(sample.slice(0, Math.floor(sample.length / 2)), () => response.destroy());
    return;
  }
  const [type, body] =
    garbage === 'not-json'
      ? ['application/json; charset=utf-8', 'The service is busy. Please try again later. (simulated garbage)']
      : garbage === 'wrong-shape'
        ? ['application/json; charset=utf-8', JSON.stringify(wrongShape)]
        : [
            'text/html; charset=utf-8',
            '<!DOCTYPE html><html><head><title>Proxy</title></head><body><h1>Acesso à internet</h1>' +
              '<p>Aceite os termos de uso para continuar (simulated garbage).</p></body></html>',
          ];
  void reply.code(200).header('content-type', type).send(body);
}
