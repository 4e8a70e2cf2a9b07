import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

export const ROUTE_NOT_FOUND = 'Rota não encontrada.';

/**
 * Serves the built web app and answers every other GET that asks for HTML with its index.html, so the
 * app's own routes (/login, /visualizar/1...) work on reload. Unknown /api paths get a JSON 404.
 */
export default fp<{ distDir: string }>(
  async (app, { distDir }) => {
    const hasWebApp = existsSync(path.join(distDir, 'index.html'));
    if (hasWebApp) {
      // Its own context, so that only the static files are public: everything else stays behind the session.
      await app.register(async (web) => {
        web.addHook('onRoute', (route) => {
          route.config = { ...(route.config as object), public: true };
        });
        await web.register(fastifyStatic, {
          root: distDir,
          wildcard: false,
          index: false,
          // scripts/build.mjs writes each asset's brotli (.br) and gzip (.gz) copy, compressed once at their
          // strongest: sent as the browser accepts, they leave @fastify/compress (which skips an answer already
          // encoded) nothing to do. A file without one is compressed on the fly as any answer is.
          preCompressed: true,
          // Vite fingerprints everything under assets/, so those may be cached for good.
          setHeaders: (res, file: string) => {
            res.header(
              'cache-control',
              file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
            );
          },
        });
      });
    } else {
      app.log.warn({ distDir }, 'aplicação web não compilada: rode npm run build');
    }
    app.setNotFoundHandler(async (request, reply) => {
      const url = request.url.split('?')[0] ?? '';
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !url.startsWith('/api/') &&
        url !== '/api' &&
        path.extname(url) === '';
      if (hasWebApp && wantsPage) {
        // Read each time (it is tiny): a rebuilt app is served without a restart.
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(await readFile(path.join(distDir, 'index.html')));
      }
      return reply.code(404).send({ message: ROUTE_NOT_FOUND });
    });
  },
  { name: 'web-app' },
);
