import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { FastifyRequest } from 'fastify';

const HSTS = 'max-age=31536000; includeSubDomains';
const UPGRADE = 'upgrade-insecure-requests';
/** Nobody may frame the portal (clickjacking). The reports it frames are frame-src, not this. */
const FRAME_ANCESTORS = "frame-ancestors 'none'";
const REFERRER_POLICY = 'no-referrer';

/**
 * The headers of an answer that no hook reaches (Fastify's frameworkErrors: an address it cannot read): a bare
 * JSON error loads nothing, so nothing at all is allowed, and nobody may frame it.
 */
export const BARE_ANSWER_HEADERS = {
  'content-security-policy': `default-src 'none'; ${FRAME_ANCESTORS}`,
  'x-frame-options': 'DENY',
  'referrer-policy': REFERRER_POLICY,
  'x-content-type-options': 'nosniff',
} as const;

/**
 * The API docs' own policy (@fastify/swagger-ui's, set by its own hook after ours), with the same rules:
 * nobody frames them (it says 'self'), and no `upgrade-insecure-requests`, which breaks them on a plain-HTTP
 * address; over HTTPS, HSTS already keeps the browser on https.
 */
export function docsContentSecurityPolicy(header: string): string {
  const directives = header
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && d !== UPGRADE && !/^frame-ancestors(\s|$)/i.test(d));
  return [...directives, FRAME_ANCESTORS].join('; ');
}

/** The few policies there are, rewritten once each rather than on every answer. */
const rewritten = new Map<string, string>();

/** A policy with our rules: our frame-ancestors, and upgrade-insecure-requests only over HTTPS. */
function ourPolicy(csp: string, https: boolean): string {
  const key = `${https ? 1 : 0}${csp}`;
  let policy = rewritten.get(key);
  if (policy === undefined) {
    const directives = csp
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d && d !== UPGRADE && !/^frame-ancestors(\s|$)/i.test(d));
    directives.push(FRAME_ANCESTORS);
    if (https) directives.push(UPGRADE);
    policy = directives.join(';');
    // Policies come from configuration, not from requests; the bound only guards against a surprise.
    if (rewritten.size < 64) rewritten.set(key, policy);
  }
  return policy;
}

/**
 * The headers helmet's middleware sets, read once by running it against a response that only records them: with
 * no nonces, they are the same for every request. Setting them on each answer from this record costs a fraction of
 * running helmet's dozen middlewares (each a `setHeader`, validated and then merged again by Fastify's writeHead).
 */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error as Error;
  });
  return headers;
}

/**
 * Helmet's headers, with those that only make sense over HTTPS sent only then: HSTS, Cross-Origin-Opener-
 * Policy, and the CSP's `upgrade-insecure-requests`, which over plain HTTP makes the browser fetch every asset over https and
 * shows a blank page on an intranet address. The portal is served over HTTPS when PUBLIC_URL is https, or
 * when a trusted proxy says so (X-Forwarded-Proto with TRUST_PROXY, which `request.protocol` reads).
 *
 * On every answer (pages, API, the API docs with their own policy, static files, 404s): `frame-ancestors 'none'`
 * and `X-Frame-Options: DENY`, since nothing frames the portal (it frames Power BI, which frame-src allows);
 * `Referrer-Policy: no-referrer`, so no address of the portal (a panel's id, `/login?token=`) leaks to another
 * site; and no `X-Powered-By`.
 */
export default fp(
  async (app, options: { publicUrl: string | null; frameSources: string[] }) => {
    const alwaysHttps = options.publicUrl?.startsWith('https:') ?? false;
    const overHttps = (request: FastifyRequest) => alwaysHttps || request.protocol === 'https';

    const helmetHeaders = headersOf(
      helmet({
        hsts: false,
        // Browsers ignore it, with a console error, on an origin that is not https.
        crossOriginOpenerPolicy: false,
        contentSecurityPolicy: {
          directives: {
            'frame-src': ["'self'", ...options.frameSources],
            'frame-ancestors': ["'none'"],
            'img-src': ["'self'", 'data:'],
            [UPGRADE]: null,
          },
        },
        xFrameOptions: { action: 'deny' },
        referrerPolicy: { policy: REFERRER_POLICY },
      }),
    );
    const helmetPolicy = helmetHeaders['content-security-policy'] ?? "default-src 'none'";
    /** Every answer's headers, over plain HTTP and over HTTPS, with the policy of our rules. */
    const answerHeaders = (https: boolean) => ({
      ...helmetHeaders,
      'content-security-policy': ourPolicy(helmetPolicy, https),
      'referrer-policy': REFERRER_POLICY,
      'x-frame-options': 'DENY',
      ...(https ? { 'strict-transport-security': HSTS, 'cross-origin-opener-policy': 'same-origin' } : {}),
    });
    const overHttp = answerHeaders(false);
    const overHttpsHeaders = answerHeaders(true);

    app.addHook('onSend', (request, reply, payload, done) => {
      const https = overHttps(request);
      // Routes with a policy of their own (the API docs ask for frame-ancestors 'self') get the same rules.
      const csp = reply.getHeader('content-security-policy');
      void reply.headers(https ? overHttpsHeaders : overHttp);
      if (typeof csp === 'string') void reply.header('content-security-policy', ourPolicy(csp, https));
      reply.removeHeader('x-powered-by');
      done(null, payload);
    });
  },
  { name: 'security-headers' },
);
