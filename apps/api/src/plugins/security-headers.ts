import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyRequest } from 'fastify';

const HSTS = 'max-age=31536000; includeSubDomains';
const UPGRADE = 'upgrade-insecure-requests';

/**
 * Helmet's headers, with those that only make sense over HTTPS sent only then: HSTS, Cross-Origin-Opener-
 * Policy, and the CSP's `upgrade-insecure-requests`, which over plain HTTP makes the browser fetch every asset over https and
 * shows a blank page on an intranet address. The portal is served over HTTPS when PUBLIC_URL is https, or
 * when a trusted proxy says so (X-Forwarded-Proto with TRUST_PROXY, which `request.protocol` reads).
 */
export default fp(
  async (app, options: { publicUrl: string | null; frameSources: string[] }) => {
    const alwaysHttps = options.publicUrl?.startsWith('https:') ?? false;
    const overHttps = (request: FastifyRequest) => alwaysHttps || request.protocol === 'https';

    await app.register(helmet, {
      hsts: false,
      // Browsers ignore it, with a console error, on an origin that is not https.
      crossOriginOpenerPolicy: false,
      contentSecurityPolicy: {
        directives: {
          'frame-src': ["'self'", ...options.frameSources],
          'img-src': ["'self'", 'data:'],
          [UPGRADE]: null,
        },
      },
    });

    app.addHook('onSend', async (request, reply) => {
      const https = overHttps(request);
      if (https)
        void reply.header('strict-transport-security', HSTS).header('cross-origin-opener-policy', 'same-origin');
      // Routes with a policy of their own (the API docs) get the same rule.
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp !== 'string') return;
      const directives = csp
        .split(';')
        .map((d) => d.trim())
        .filter((d) => d && d !== UPGRADE);
      if (https) directives.push(UPGRADE);
      void reply.header('content-security-policy', directives.join(';'));
    });
  },
  { name: 'security-headers' },
);
