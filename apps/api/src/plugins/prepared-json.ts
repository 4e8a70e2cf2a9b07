import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PreparedJson } from '../lib/prepared-json.ts';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Sends an answer prepared in advance: 304 when the client holds it already (If-None-Match), otherwise its
     * bytes, compressed as the client accepts (brotli, then gzip). Never serialised again. Sent at once, returning
     * nothing, unless the compressed bytes must be made first: then a promise that settles once the answer has gone
     * (a handler returns it).
     */
    sendPrepared(prepared: PreparedJson): void | Promise<void>;
  }
}

const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

/** Whether If-None-Match names this ETag (weak or strong, in a list, or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

function sendPrepared(this: FastifyReply, prepared: PreparedJson): void | Promise<void> {
  const request: FastifyRequest = this.request;
  // Private: the answer depends on who asks; no-cache: the browser keeps it but asks again, and gets a 304.
  void this.header('etag', prepared.etag)
    .header('cache-control', 'private, no-cache')
    .header('vary', 'accept-encoding, authorization');
  if (matchesEtag(request.headers['if-none-match'], prepared.etag)) {
    void this.code(304).send();
    return;
  }
  void this.type('application/json; charset=utf-8');
  const accepted = request.headers['accept-encoding'];
  const encoding = prepared.compressible && accepted ? negotiate(accepted, ENCODINGS) : null;
  if (!encoding) {
    void this.send(prepared.body);
    return;
  }
  void this.header('content-encoding', encoding);
  const made = prepared.compressedNow(encoding);
  if (made) void this.send(made);
  // Fastify's reply is a thenable that settles, with nothing, once its answer has gone: this promise follows it.
  else return prepared.compressed(encoding).then((bytes) => this.send(bytes)) as unknown as Promise<void>;
}

export default fp(
  async (app) => {
    app.decorateReply('sendPrepared', sendPrepared);
  },
  { name: 'prepared-json' },
);
