import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/context.ts';

/** Each route's hooks by name, read off Fastify's own route tree (`printRoutes` with its hooks). */
function hooksByRoute(tree: string): Map<string, Record<string, string[]>> {
  const routes = new Map<string, Record<string, string[]>>();
  const segments: string[] = [];
  let current: Record<string, string[]> = {};
  for (const line of tree.split('\n')) {
    const hook = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (hook) {
      current[hook[1]!] = (JSON.parse(hook[2]!) as string[]).map((name) => name.replace(/\(\)$/, ''));
      continue;
    }
    const route = /^([│ ]*(?:[├└]── )?)(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!route) continue;
    const depth = route[1]!.length / 4;
    segments.length = depth;
    segments[depth - 1] = route[2]!;
    current = {};
    for (const method of route[3]!.split(', ')) routes.set(`${method} ${segments.join('')}`, current);
  }
  return routes;
}

/**
 * docs/decisions/017-request-logs.md: every hook runs on every request of its routes. The hot reads, which answer
 * prepared bytes, run only the session check and the security headers: neither the cookie parser (only the
 * Microsoft sign-in uses a cookie) nor compression's three hooks (a prepared answer is compressed once, in
 * advance; a GET has no body to decompress).
 */
describe('the hooks each request runs', () => {
  const ctx = useTestApp();
  const routes = () => hooksByRoute(ctx.app.printRoutes({ includeHooks: true, commonPrefix: false }));

  it.each([
    'GET /api/paineis',
    'GET /api/paineis/agrupados',
    'GET /api/paineis/:id',
    'GET /api/paineis/:id/token',
    'GET /api/paineis/:id/dados',
    'GET /api/classificacoes',
    'GET /api/classificacoes/admin',
    'GET /api/usuarios365/ativos',
    'GET /api/paineis/atualizacoes',
    'GET /api/paineis/saude',
  ])('%s: the session check and the security headers, nothing else', (route) => {
    const hooks = routes().get(route);
    expect(hooks, `${route} não está na árvore de rotas`).toBeDefined();
    expect(Object.keys(hooks!).sort()).toEqual(['onRequest', 'onSend']);
    expect(hooks!.onRequest).toHaveLength(1);
    expect(hooks!.onSend).toHaveLength(1);
  });

  it('a route that takes a body still decompresses it, and an answer not prepared is still compressed', () => {
    const hooks = routes().get('POST /api/paineis');
    expect(hooks?.preParsing).toEqual(['preParsing']);
    expect(routes().get('GET /api/auditoria')?.onSend).toHaveLength(2);
    // The subscriptions' lists are read per request, each with its situation now: compressed as they are answered.
    for (const route of ['GET /api/assinaturas', 'GET /api/assinaturas/todas']) {
      expect(routes().get(route)?.onSend, route).toHaveLength(2);
    }
  });

  it('the Microsoft sign-in keeps its cookie', () => {
    for (const route of ['GET /api/auth/microsoft-login', 'GET /api/auth/microsoft-callback']) {
      expect(routes().get(route)?.onRequest).toContain('fastifyCookieHandler');
      expect(routes().get(route)?.onSend).toContain('fastifyCookieOnSendHandler');
    }
  });
});
