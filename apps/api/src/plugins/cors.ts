import fp from 'fastify-plugin';
import fastifyCors from '@fastify/cors';

/**
 * Cross-origin calls from a browser (CORS), closed unless CORS_ORIGINS lists origins. Closed, the answers
 * carry no Access-Control-* header, so a browser refuses to let another site's page read them. Open, only
 * the listed origins, compared exactly, get `Access-Control-Allow-Origin` (their own, never `*`); every other
 * origin gets nothing, as if closed. No credentials: the API takes a bearer token, never a cookie.
 */
export default fp(
  async (app, { origins }: { origins: readonly string[] }) => {
    if (origins.length === 0) return;
    const allowed = new Set(origins);
    // The preflight carries no token: its route (OPTIONS *, added by @fastify/cors) must not ask for one.
    app.addHook('onRoute', (route) => {
      if (route.method === 'OPTIONS' && (route.url === '*' || route.url === '/*')) {
        route.config = { ...(route.config as object), public: true };
      }
    });
    await app.register(fastifyCors, {
      // true reflects the request's Origin; false leaves the answer without any CORS header.
      origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
      credentials: false,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type'],
      // A 429 says when to try again; pages of another origin may read that.
      exposedHeaders: ['retry-after'],
      maxAge: 600,
    });
  },
  { name: 'cors' },
);
