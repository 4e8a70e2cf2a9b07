import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PreparedJson } from '../lib/prepared-json.ts';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Sends an answer prepared in advance: 304 when the client holds it already (If-None-Match), otherwise its
     * bytes, compressed as the client accepts (brotli, then gzip). Never serialised again.
     */
    sendPrepared(prepared: PreparedJson): Promise<FastifyReply>;
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

async function sendPrepared(this: FastifyReply, prepared: PreparedJson): Promise<FastifyReply> {
  const request: FastifyRequest = this.request;
  // Private: the answer depends on who asks; no-cache: the browser keeps it but asks again, and gets a 304.
  void this.header('etag', prepared.etag)
    .header('cache-control', 'private, no-cache')
    .header('vary', 'accept-encoding, authorization');
  if (matchesEtag(request.headers['if-none-match'], prepared.etag)) return this.code(304).send();
  void this.type('application/json; charset=utf-8');
  const accepted = request.headers['accept-encoding'];
  const encoding = prepared.compressible && accepted ? negotiate(accepted, ENCODINGS) : null;
  if (!encoding) return this.send(prepared.body);
  void this.header('content-encoding', encoding);
  return this.send(prepared.compressedNow(encoding) ?? (await prepared.compressed(encoding)));
}

export default fp(
  async (app) => {
    app.decorateReply('sendPrepared', sendPrepared);
  },
  { name: 'prepared-json' },
);
