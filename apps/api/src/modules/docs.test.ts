import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/context.ts';

/** The OpenAPI document generated from the routes' own schemas, and the browsable UI over it. */

interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  security?: Record<string, unknown>[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const PUBLIC_PATHS = [
  '/healthz',
  '/readyz',
  '/api/auth/microsoft-login',
  '/api/auth/microsoft-callback',
  '/api/auth/login',
  '/api/auth/logout-complete',
];

/**
 * Every route the server really has, read from Fastify's own route tree (not from the document), as
 * "METHOD /path/{param}". HEAD twins of GET routes are left out, as the document leaves them out.
 */
function routesOfTree(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^(.*?)(?:├── |└── )(.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean)) {
      if (method !== 'HEAD') routes.push(`${method} ${path}`);
    }
  }
  return routes;
}

describe('API documentation', () => {
  const ctx = useTestApp();

  async function document(): Promise<OpenApiDocument> {
    const res = await ctx.request('GET', '/api/docs/json');
    expect(res.statusCode).toBe(200);
    return res.json<OpenApiDocument>();
  }

  it('GET /api/docs/json is public: no token, or a bad one, still gets it', async () => {
    expect((await ctx.request('GET', '/api/docs/json')).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/docs/json', { token: 'lixo' })).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/docs/yaml')).statusCode).toBe(200);
  });

  it('is an OpenAPI 3.1 document of this API, with the bearer token as its default security', async () => {
    const doc = await document();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.title).toContain('Painéis');
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it('lists every route the server has (and only those), docs and the web app aside', async () => {
    const doc = await document();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const served = routesOfTree(ctx.app.printRoutes({ commonPrefix: false }))
      .filter((r) => !r.split(' ')[1]!.startsWith('/api/docs'))
      .sort();
    expect(served.length).toBeGreaterThan(20);
    expect(served.filter((r) => r.includes(' /api/')).length).toBeGreaterThan(20);
    expect(documented).toEqual(served);
  });

  it('documents every /api operation with a summary, a tag, a success answer and its error answers', async () => {
    const doc = await document();
    const problems: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const key = `${method.toUpperCase()} ${path}`;
        const statuses = Object.keys(op.responses);
        if (!op.summary) problems.push(`${key}: sem summary`);
        if (!op.tags?.length) problems.push(`${key}: sem tag`);
        // The Microsoft sign-in routes succeed with a redirect.
        if (!statuses.some((s) => /^[23]\d\d$/.test(s))) problems.push(`${key}: sem resposta de sucesso`);
        if (!path.startsWith('/api/') || PUBLIC_PATHS.includes(path)) continue;
        if (!statuses.includes('401')) problems.push(`${key}: sem 401`);
        if (path.includes('{') && !statuses.includes('400')) problems.push(`${key}: parâmetro no caminho sem 400`);
        if (op.requestBody && !statuses.includes('400')) problems.push(`${key}: corpo sem 400`);
        if (path.includes('{id}') && !statuses.includes('404')) problems.push(`${key}: {id} sem 404`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every 4xx answer uses the one error schema { message }', async () => {
    const doc = await document();
    expect(doc.components.schemas.Erro).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
    const problems: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (!/^4\d\d$/.test(status)) continue;
          checked += 1;
          const ref = response.content?.['application/json']?.schema?.$ref;
          if (ref !== '#/components/schemas/Erro')
            problems.push(`${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(response)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // 400, 401, 403 and 404 all appear somewhere.
    const all = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).flatMap((op) => Object.keys(op.responses)),
    );
    for (const status of ['400', '401', '403', '404']) expect(all).toContain(status);
    expect(checked).toBeGreaterThan(50);
  });

  it('documents path parameters and request bodies', async () => {
    const doc = await document();
    const role = doc.paths['/api/paineis/{id}/rls/roles/{role}/usuarios']!.get!;
    expect(
      role.parameters
        ?.filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort(),
    ).toEqual(['id', 'role']);
    expect(doc.paths['/api/classificacoes']!.post!.requestBody).toBeDefined();
    expect(doc.paths['/api/paineis/{id}']!.put!.requestBody).toBeDefined();
  });

  it('marks the public routes as needing no token, and no other', async () => {
    const doc = await document();
    for (const path of PUBLIC_PATHS) {
      for (const [method, op] of Object.entries(doc.paths[path]!)) expect(op.security, `${method} ${path}`).toEqual([]);
    }
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (PUBLIC_PATHS.includes(path)) continue;
      for (const [method, op] of Object.entries(ops)) expect(op.security, `${method} ${path}`).toBeUndefined();
    }
  });

  it('GET /api/docs serves the browsable UI without a token', async () => {
    let res = await ctx.request('GET', '/api/docs');
    if (res.statusCode >= 300 && res.statusCode < 400) {
      res = await ctx.request('GET', new URL(String(res.headers.location), 'http://localhost/api/docs').pathname);
    }
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.body).toMatch(/swagger-ui/i);

    const initializer = await ctx.request('GET', '/api/docs/static/swagger-initializer.js');
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain('json');
    const bundle = await ctx.request('GET', '/api/docs/static/swagger-ui-bundle.js');
    expect(bundle.statusCode).toBe(200);
  });
});
