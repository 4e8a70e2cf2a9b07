import { fixedEmbedding } from '../../test/fixed-embedding.ts';
import { sql } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../db/client.ts';
import { resetDatabase } from '../../test/database.ts';
import { TEST_SECRET, useTestApp } from '../../test/context.ts';
import { classificacao, createAdmin, createUser, link, panel } from '../../test/fixtures.ts';
import type { DemoUser } from '../demo/demo-data.ts';
import { signSessionToken } from '../modules/auth/tokens.ts';
import { ADMIN_ONLY, SESSION_INVALID } from './auth.ts';
import { identityOf } from '../modules/subscriptions/recipients.ts';
import { DEFAULT_POLICY } from '../modules/capacity/capacity-policy.ts';

/**
 * Permissions for every route of the API, taken from the app's own OpenAPI document, against every kind of
 * caller: nobody, forged or stale tokens, a signed-in user and an administrator.
 */

type Access = 'public' | 'user' | 'admin';

/** docs/requirements.md#server-permissions. A route missing here (or extra here) fails the first test: classify it. */
const EXPECTED: Record<string, Access> = {
  'GET /healthz': 'public',
  'GET /readyz': 'public',

  'GET /api/paineis': 'user',
  'POST /api/paineis': 'admin',
  'GET /api/paineis/agrupados': 'user',
  'GET /api/paineis/proxima-ordem': 'user',
  'GET /api/paineis/proxima-ordem/{classificacaoId}': 'user',
  'POST /api/paineis/reorder': 'admin',
  'GET /api/paineis/{id}': 'user',
  'GET /api/paineis/{id}/token': 'user',
  'PUT /api/paineis/{id}': 'admin',
  'DELETE /api/paineis/{id}': 'admin',
  'GET /api/paineis/{id}/dados': 'admin',
  'GET /api/paineis/{id}/configuracoes': 'admin',

  'GET /api/paineis/{id}/rls': 'admin',
  'POST /api/paineis/{id}/rls': 'admin',
  'DELETE /api/paineis/{id}/rls': 'admin',
  'GET /api/paineis/{id}/rls/roles': 'admin',
  'GET /api/paineis/{id}/rls/roles/{role}/usuarios': 'admin',
  'POST /api/paineis/{id}/rls/roles/{role}/usuarios': 'admin',

  'GET /api/paineis/{id}/usuarios': 'admin',
  'POST /api/paineis/{id}/usuarios': 'admin',
  'GET /api/paineis/{id}/grupos': 'admin',
  'POST /api/paineis/{id}/grupos': 'admin',
  'GET /api/paineis/{id}/acesso': 'admin',

  'GET /api/classificacoes': 'user',
  'POST /api/classificacoes': 'admin',
  'GET /api/classificacoes/admin': 'admin',
  'GET /api/classificacoes/{id}': 'user',
  'GET /api/configuracao': 'user',

  // The Power BI capacity (docs/requirements.md#capacity).
  'GET /api/capacidade': 'admin',
  'POST /api/capacidade/pausar': 'admin',
  'POST /api/capacidade/retomar': 'admin',
  'PUT /api/capacidade/sku': 'admin',
  'PUT /api/capacidade/politica': 'admin',
  'GET /api/capacidade/historico': 'admin',
  'PUT /api/classificacoes/{id}': 'admin',
  'DELETE /api/classificacoes/{id}': 'admin',

  'GET /api/usuarios365/ativos': 'admin',
  'POST /api/usuarios365/sincronizar': 'admin',
  'GET /api/usuarios365/{id}/acesso': 'admin',
  'GET /api/grupos365': 'admin',

  'GET /api/powerbi/workspaces': 'admin',
  'GET /api/powerbi/workspaces/{workspaceId}/relatorios': 'admin',
  'POST /api/paineis/importar': 'admin',
  'GET /api/paineis/atualizacoes': 'user',
  'POST /api/paineis/atualizacoes/verificar': 'admin',
  'GET /api/paineis/saude': 'admin',
  'POST /api/paineis/saude/verificar': 'admin',

  'POST /api/paineis/{id}/visualizacoes/{visualizacaoId}': 'user',
  'GET /api/uso/por-dia': 'admin',
  'GET /api/uso/paineis': 'admin',
  'GET /api/uso/paineis/{id}': 'admin',
  'GET /api/uso/sem-login': 'admin',
  'GET /api/auditoria': 'admin',

  'GET /api/favoritos': 'user',
  'PUT /api/favoritos/{painelId}': 'user',
  'DELETE /api/favoritos/{painelId}': 'user',
  'GET /api/recentes': 'user',
  'GET /api/paineis/{id}/visoes': 'user',
  'POST /api/paineis/{id}/visoes': 'user',
  'GET /api/paineis/{id}/visoes/{visaoId}': 'user',
  'PATCH /api/paineis/{id}/visoes/{visaoId}': 'user',
  'DELETE /api/paineis/{id}/visoes/{visaoId}': 'user',
  'POST /api/paineis/{id}/exportacoes': 'user',
  'GET /api/paineis/{id}/exportacoes/{exportacaoId}': 'user',
  'GET /api/paineis/{id}/exportacoes/{exportacaoId}/arquivo': 'user',
  'POST /api/paineis/{id}/exportacoes-dados': 'user',
  'POST /api/assinaturas': 'user',
  'GET /api/assinaturas': 'user',
  'GET /api/assinaturas/todas': 'admin',
  'PATCH /api/assinaturas/{id}': 'user',
  'DELETE /api/assinaturas/{id}': 'user',
  'POST /api/assinaturas/{id}/enviar-agora': 'user',
  'GET /api/assinaturas/arquivos/{id}': 'user',
  'GET /api/demonstracao/caixa-de-saida': 'admin',
  'GET /api/demonstracao/caixa-de-saida/{id}/anexos/{indice}': 'admin',
  'GET /api/alertas': 'admin',
  'PUT /api/alertas': 'admin',

  'GET /api/auth/microsoft-login': 'public',
  'GET /api/auth/microsoft-callback': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout-complete': 'public',
};

/** Routes that ask Graph or Power BI (or start a round that does): 503 without Microsoft configuration. */
const NEEDS_MICROSOFT = new Set([
  'POST /api/usuarios365/sincronizar',
  'GET /api/powerbi/workspaces',
  'GET /api/powerbi/workspaces/{workspaceId}/relatorios',
  'POST /api/paineis/importar',
  'POST /api/paineis/atualizacoes/verificar',
  'POST /api/paineis/saude/verificar',
]);

/**
 * What this app honestly cannot do, auth having let the call through: 'Enviar agora' without a mail transport (503),
 * and the demo outbox outside demo mode (404).
 */
const UNAVAILABLE_HERE: Record<string, number> = {
  'POST /api/assinaturas/{id}/enviar-agora': 503,
  // No Power BI capacity is configured here: its actions are refused as such (409).
  'POST /api/capacidade/pausar': 409,
  'POST /api/capacidade/retomar': 409,
  'PUT /api/capacidade/sku': 409,
  'GET /api/demonstracao/caixa-de-saida': 404,
  'GET /api/demonstracao/caixa-de-saida/{id}/anexos/{indice}': 404,
};

/** The same rules written as docs/requirements.md#server-permissions states them, to catch a mistyped row in the table above. */
function designRule(method: string, path: string): Access {
  if (path === '/healthz' || path === '/readyz') return 'public';
  // "Every API route but the sign-in ones needs a valid token"; signing out must work with a dead token.
  if (path.startsWith('/api/auth/')) return 'public';
  // The viewer's report of its own load times, sent by anyone who may open the panel.
  if (method === 'POST' && path === '/api/paineis/{id}/visualizacoes/{visualizacaoId}') return 'user';
  // What people keep and take for themselves: favourites, saved views, exports (docs/requirements.md#personal),
  // and the record of a visual's data exported (docs/requirements.md#viewer-data-export).
  if (/^\/api\/(favoritos\/|paineis\/\{id\}\/(visoes|exportacoes))/.test(path)) return 'user';
  // E-mail subscriptions, each its owner's; every one of them only for administrators
  // (docs/requirements.md#subscriptions).
  if (path === '/api/assinaturas/todas') return 'admin';
  // The alerts to the panels' keepers (docs/requirements.md#alerts).
  if (path === '/api/alertas') return 'admin';
  if (path === '/api/assinaturas' || path.startsWith('/api/assinaturas/')) return 'user';
  if (method !== 'GET') return 'admin';
  if (
    path === '/api/classificacoes/admin' ||
    path === '/api/paineis/{id}/dados' ||
    path === '/api/paineis/{id}/configuracoes' ||
    path.startsWith('/api/paineis/{id}/rls') ||
    path.startsWith('/api/paineis/{id}/usuarios') ||
    path === '/api/paineis/{id}/grupos' ||
    path === '/api/paineis/{id}/acesso' ||
    path.startsWith('/api/usuarios365/') ||
    path === '/api/grupos365' ||
    path.startsWith('/api/powerbi/') ||
    path === '/api/paineis/saude' ||
    path.startsWith('/api/uso/') ||
    path === '/api/auditoria' ||
    path.startsWith('/api/demonstracao/') ||
    path === '/api/capacidade' ||
    path.startsWith('/api/capacidade/')
  ) {
    return 'admin';
  }
  return 'user';
}

interface Route {
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  access: Access;
}

interface Seed {
  admin: DemoUser;
  user: DemoUser;
  classificacaoId: number;
  panelId: number;
}

/**
 * A saved view, an export job, a subscription (and another for DELETE, so that the routes called after it on the
 * same data still find the first) and a delivery's file of each person, under fixed ids: each calls with their own.
 */
const OWN = {
  user: {
    view: '5a1e0000-0000-4000-8000-00000000000a',
    job: 'e0e00000-0000-4000-8000-00000000000a',
    subscription: 'a5500000-0000-4000-8000-00000000000a',
    deleted: 'a5500000-0000-4000-8000-00000000001a',
    file: 'f1e00000-0000-4000-8000-00000000000a',
  },
  admin: {
    view: '5a1e0000-0000-4000-8000-00000000000b',
    job: 'e0e00000-0000-4000-8000-00000000000b',
    subscription: 'a5500000-0000-4000-8000-00000000000b',
    deleted: 'a5500000-0000-4000-8000-00000000001b',
    file: 'f1e00000-0000-4000-8000-00000000000b',
  },
};
/** Without Microsoft configuration an export is honestly unavailable (503): auth let the call through. */
const isExport = (route: { path: string }) => /\/exportacoes(\/|$)/.test(route.path);

/** A stand-in for Power BI, so GET /paineis/{id} can answer 200. */
const embedding = fixedEmbedding('token-de-teste');

describe('auth plugin: permissions for every route', () => {
  const ctx = useTestApp({ embedding });
  let routes: Route[] = [];
  let seed: Seed;

  async function seedDatabase(): Promise<Seed> {
    const admin = await createAdmin(ctx.db);
    const user = await createUser(ctx.db);
    const c = await classificacao(ctx.db, 'Comercial');
    const p = await panel(ctx.db, {
      classificacaoId: c.id,
      usaRls: true,
      rlsConfigurations: [{ roleName: 'Gestor', userEmails: [user.email] }],
    });
    await link(ctx.db, p.id, [user.id]);
    for (const [who, own] of [
      [user, OWN.user],
      [admin, OWN.admin],
    ] as const) {
      await ctx.db.execute(
        sql`insert into visoes_salvas (id, painel_id, usuario_id, nome, estado) values (${own.view}, ${p.id}, ${who.id}, 'Minha', 'e')`,
      );
      await ctx.db.execute(sql`
        insert into exportacoes (id, usuario_id, painel_id, formato, power_bi_export_id, workspace_id, report_id)
        values (${own.job}, ${who.id}, ${p.id}, 'PDF', 'exportacao-do-power-bi', ${p.workspaceId}, ${p.reportId})`);
      await ctx.db.execute(sql`
        insert into assinaturas (id, painel_id, usuario_id, formato, frequencia, hora, fuso_horario, proximo_envio)
        values (${own.subscription}, ${p.id}, ${who.id}, 'PDF', 'diaria', '08:00', 'America/Sao_Paulo', now() + interval '1 day'),
               (${own.deleted}, ${p.id}, ${who.id}, 'PDF', 'diaria', '09:00', 'America/Sao_Paulo', now() + interval '1 day')`);
      await ctx.db.execute(sql`
        with envio as (
          insert into envios_assinatura (assinatura_id, ocorrencia, estado) values (${own.subscription}, now(), 'enviado')
          returning id
        )
        , arquivo as (
          insert into arquivos_assinatura (id, envio_id, identidade, nome, tipo, conteudo, tamanho, expira_em)
          select ${own.file}, id, ${(await identityOf(ctx.db, p.id, who.id, ctx.config.rlsUsername))!.key}, 'Painel.pdf', 'application/pdf', ${Buffer.from('%PDF')}, 4, now() + interval '7 days'
          from envio returning id
        )
        insert into arquivo_destinatarios (arquivo_id, usuario_id) select id, ${who.id} from arquivo`);
    }
    return { admin, user, classificacaoId: c.id, panelId: p.id };
  }

  beforeAll(async () => {
    const res = await ctx.request('GET', '/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
    routes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((m) => {
        const method = m.toUpperCase() as Route['method'];
        const key = `${method} ${path}`;
        return { key, method, path, access: EXPECTED[key] ?? 'user' };
      }),
    );
  });

  beforeEach(async () => {
    seed = await seedDatabase();
  });

  const protectedRoutes = () => routes.filter((r) => r.access !== 'public');

  function urlOf(route: Route, s: Seed = seed, owner: 'user' | 'admin' = 'user'): string {
    return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'id' && route.path.startsWith('/api/usuarios365/')) return s.user.id;
      if (name === 'id' && route.path.startsWith('/api/assinaturas/arquivos/')) return OWN[owner].file;
      if (name === 'id' && route.key === 'DELETE /api/assinaturas/{id}') return OWN[owner].deleted;
      if (name === 'id' && route.path.startsWith('/api/assinaturas/')) return OWN[owner].subscription;
      if (name === 'id' && route.path.startsWith('/api/demonstracao/')) return 'mensagem-1';
      if (name === 'indice') return '0';
      if (name === 'id') return String(route.path.startsWith('/api/classificacoes') ? s.classificacaoId : s.panelId);
      if (name === 'painelId') return String(s.panelId);
      if (name === 'visaoId') return OWN[owner].view;
      if (name === 'exportacaoId') return OWN[owner].job;
      if (name === 'classificacaoId') return String(s.classificacaoId);
      if (name === 'role') return 'Gestor';
      if (name === 'visualizacaoId') return '0b6f2f4e-3c1a-4d8e-9a57-2f1e6c0d9b31';
      if (name === 'workspaceId') return '11111111-1111-4111-8111-111111111111';
      throw new Error(`parâmetro de rota sem valor de teste: {${name}} em ${route.key}`);
    });
  }

  /** A valid body for each route that takes one, so no 400 can hide what auth decided. */
  function bodyOf(route: Route, s: Seed = seed): unknown {
    const panelBody = {
      nomePainel: 'Painel de teste',
      workspaceId: '11111111-1111-4111-8111-111111111111',
      reportId: '22222222-2222-4222-8222-999999999999',
      usaRls: false,
      classificacaoId: s.classificacaoId,
    };
    const bodies: Record<string, unknown> = {
      'POST /api/paineis': panelBody,
      'PUT /api/paineis/{id}': panelBody,
      'POST /api/paineis/reorder': [{ painelId: s.panelId, novaOrdem: 2 }],
      'POST /api/paineis/{id}/rls': [{ roleName: 'Gestor', userEmails: [s.user.email, 'outra.pessoa@empresa.com.br'] }],
      'POST /api/paineis/{id}/rls/roles/{role}/usuarios': [s.user.email, 'outra.pessoa@empresa.com.br'],
      'POST /api/paineis/{id}/usuarios': [s.user.id, s.admin.id],
      // No group: linking none is valid, and needs no synced directory.
      'POST /api/paineis/{id}/grupos': [],
      'POST /api/classificacoes': { nome: 'Nova classificação', descricao: null },
      'PUT /api/classificacoes/{id}': { nome: 'Comercial e Vendas', descricao: 'Vendas', ativo: true },
      'POST /api/paineis/{id}/visualizacoes/{visualizacaoId}': { carregadoMs: 900 },
      'POST /api/paineis/{id}/visoes': { nome: 'Nova visão', estado: 'estado' },
      'PATCH /api/paineis/{id}/visoes/{visaoId}': { nome: 'Renomeada' },
      'POST /api/paineis/{id}/exportacoes': { formato: 'PDF' },
      'POST /api/paineis/{id}/exportacoes-dados': { pagina: 'P1', visual: 'v1', tipo: 'resumidos', linhas: 3 },
      'POST /api/assinaturas': {
        painelId: s.panelId,
        formato: 'PDF',
        frequencia: 'semanal',
        diaSemana: 1,
        hora: '07:30',
      },
      // Not a pause: 'Enviar agora', called next on the same data, would then be refused for it.
      'PATCH /api/assinaturas/{id}': { formato: 'PPTX' },
      'PUT /api/alertas': { eventos: ['falha-atualizacao'], destinatarios: { usuarios: [s.admin.id] } },
      'PUT /api/capacidade/sku': { sku: 'A2' },
      'PUT /api/capacidade/politica': DEFAULT_POLICY,
      'POST /api/paineis/importar': {
        classificacaoId: s.classificacaoId,
        relatorios: [{ workspaceId: panelBody.workspaceId, reportId: panelBody.reportId }],
      },
    };
    return bodies[route.key];
  }

  async function call(route: Route, headers: Record<string, string>, method: Route['method'] | 'HEAD' = route.method) {
    const response = await ctx.app.inject({
      method,
      url: urlOf(route),
      headers,
      ...(bodyOf(route) === undefined ? {} : { payload: bodyOf(route) as object }),
    });
    return response;
  }

  /** Everything a request could have changed, as one comparable text. */
  async function snapshot(): Promise<string> {
    const [row] = await rows<{ state: string }>(
      ctx.db,
      sql`
      select json_build_object(
        'classificacoes', (select json_agg(json_build_object('id', id, 'nome', nome, 'descricao', descricao, 'ativo', ativo) order by id) from classificacoes),
        'paineis', (select json_agg(json_build_object('id', id, 'nome', nome_painel, 'report', report_id, 'rls', usa_rls, 'c', classificacao_id, 'ordem', ordem) order by id) from paineis),
        'links', (select json_agg(json_build_object('p', painel_id, 'u', usuario_id) order by painel_id, usuario_id) from painel_usuarios),
        'roles', (select json_agg(json_build_object('id', id, 'p', painel_id, 'nome', role_name) order by id) from painel_rls_roles),
        'emails', (select json_agg(json_build_object('r', role_id, 'e', email) order by role_id, email) from painel_rls_role_emails),
        'usuarios', (select json_agg(json_build_object('id', id, 'role', role, 'active', active) order by id) from usuarios)
      )::text as state`,
    );
    return row!.state;
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const tokenOf = async (user: DemoUser, ttl?: number) => (await signSessionToken(ctx.config.jwt, user, ttl)).token;

  /** A token like the server's, with any part changed. */
  async function forge(
    user: DemoUser,
    changes: {
      alg?: string;
      secret?: string;
      issuer?: string;
      audience?: string;
      exp?: number;
      nbf?: number;
      jti?: string | null;
      sub?: string | null;
    } = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({
      name: user.email,
      unique_name: user.email,
      email: user.email,
      role: user.role,
      displayName: user.displayName,
    })
      .setProtectedHeader({ alg: changes.alg ?? 'HS256', typ: 'JWT' })
      .setIssuer(changes.issuer ?? ctx.config.jwt.issuer)
      .setAudience(changes.audience ?? ctx.config.jwt.audience)
      .setIssuedAt(now)
      .setNotBefore(changes.nbf ?? now)
      .setExpirationTime(changes.exp ?? now + 3600);
    if (changes.sub !== null) jwt.setSubject(changes.sub ?? user.id);
    if (changes.jti !== null) jwt.setJti(changes.jti ?? crypto.randomUUID());
    return jwt.sign(new TextEncoder().encode(changes.secret ?? TEST_SECRET));
  }

  it('the OpenAPI document lists exactly the classified routes, and the table follows the requirements', () => {
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.map((r) => r.key).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [key, access] of Object.entries(EXPECTED)) {
      const [method, path] = key.split(' ') as [string, string];
      expect(access, key).toBe(designRule(method, path));
    }
  });

  it('the document says which routes need a session and which need an administrator', async () => {
    const doc = (await ctx.request('GET', '/api/docs/json')).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    for (const route of routes) {
      const responses = Object.keys(doc.paths[route.path]![route.method.toLowerCase()]!.responses);
      if (route.access !== 'public') expect(responses, route.key).toContain('401');
      if (route.access === 'admin') expect(responses, route.key).toContain('403');
    }
  });

  it('public routes answer without a token, and ignore a bad one', async () => {
    // Health answers 200; the sign-in routes redirect (302), refuse the empty login (400) or sign out (204).
    const expected: Record<string, number> = {
      'GET /api/auth/microsoft-login': 302,
      'GET /api/auth/microsoft-callback': 302,
      'POST /api/auth/login': 400,
      'POST /api/auth/logout-complete': 204,
    };
    for (const route of routes.filter((r) => r.access === 'public')) {
      expect((await call(route, {})).statusCode, route.key).toBe(expected[route.key] ?? 200);
      expect((await call(route, { authorization: 'Bearer lixo' })).statusCode, route.key).toBe(
        expected[route.key] ?? 200,
      );
    }
  });

  describe('every non-public route answers 401 with the session message', () => {
    const cases: [string, () => Promise<Record<string, string>>][] = [
      ['no Authorization header', async () => ({})],
      ['a Basic Authorization header', async () => ({ authorization: 'Basic x' })],
      ['a Basic header carrying a valid token', async () => ({ authorization: `Basic ${await tokenOf(seed.admin)}` })],
      ['an empty Bearer', async () => ({ authorization: 'Bearer ' })],
      ['a Bearer that is not a JWT', async () => ({ authorization: 'Bearer nao-sou-um-jwt' })],
      [
        'two tokens in one header',
        async () => ({ authorization: `Bearer ${await tokenOf(seed.admin)} ${await tokenOf(seed.admin)}` }),
      ],
      ['an expired token (server-signed, ttl -10 s)', async () => bearer(await tokenOf(seed.admin, -10))],
      [
        'an expired token (exp one minute ago)',
        async () =>
          bearer(
            await forge(seed.admin, {
              exp: Math.floor(Date.now() / 1000) - 60,
              nbf: Math.floor(Date.now() / 1000) - 3600,
            }),
          ),
      ],
      [
        'a token not valid yet (nbf in an hour)',
        async () =>
          bearer(
            await forge(seed.admin, {
              nbf: Math.floor(Date.now() / 1000) + 3600,
              exp: Math.floor(Date.now() / 1000) + 7200,
            }),
          ),
      ],
      [
        'a token signed with another secret',
        async () => bearer(await forge(seed.admin, { secret: 'outro-segredo-com-mais-de-32-caracteres-!!' })),
      ],
      [
        'a token whose signature was tampered with',
        async () => {
          // The signature's first character carries six real bits (its last one can be mere padding).
          const [h, p, s] = (await tokenOf(seed.admin)).split('.');
          const first = s![0] === 'A' ? 'B' : 'A';
          return bearer(`${h}.${p}.${first}${s!.slice(1)}`);
        },
      ],
      [
        "a token with a user's payload swapped to an admin's",
        async () => {
          const [h, , s] = (await tokenOf(seed.user)).split('.');
          const [, p] = (await tokenOf(seed.admin)).split('.');
          return bearer(`${h}.${p}.${s}`);
        },
      ],
      [
        'an unsigned token (alg none)',
        async () => {
          const now = Math.floor(Date.now() / 1000);
          const token = new UnsecuredJWT({ email: seed.admin.email, role: 'Admin' })
            .setSubject(seed.admin.id)
            .setJti(crypto.randomUUID())
            .setIssuer(ctx.config.jwt.issuer)
            .setAudience(ctx.config.jwt.audience)
            .setIssuedAt(now)
            .setExpirationTime(now + 3600)
            .encode();
          return bearer(token);
        },
      ],
      [
        'an HS512 token signed with the right secret (alg is pinned to HS256)',
        async () => bearer(await forge(seed.admin, { alg: 'HS512' })),
      ],
      ['an HS384 token signed with the right secret', async () => bearer(await forge(seed.admin, { alg: 'HS384' }))],
      ['a token from another issuer', async () => bearer(await forge(seed.admin, { issuer: 'outro-emissor' }))],
      ['a token for another audience', async () => bearer(await forge(seed.admin, { audience: 'outra-audiencia' }))],
      ['a token without jti', async () => bearer(await forge(seed.admin, { jti: null }))],
      ['a token without sub', async () => bearer(await forge(seed.admin, { sub: null }))],
      [
        'a revoked token (jti in tokens_revogados)',
        async () => {
          const { token, jti, expiresAt } = await signSessionToken(ctx.config.jwt, seed.admin);
          await ctx.db.execute(
            sql`insert into tokens_revogados (jti, expira_em) values (${jti}, ${expiresAt.toISOString()})`,
          );
          return bearer(token);
        },
      ],
      [
        'a valid token of an inactive user',
        async () => {
          const token = await tokenOf(seed.admin);
          await ctx.db.execute(sql`update usuarios set active = false where id = ${seed.admin.id}`);
          return bearer(token);
        },
      ],
      [
        'a valid token of a deleted user',
        async () => {
          const token = await tokenOf(seed.admin);
          await ctx.db.execute(sql`delete from usuarios where id = ${seed.admin.id}`);
          return bearer(token);
        },
      ],
      [
        'a valid token for a user id that never existed',
        async () => bearer(await tokenOf({ ...seed.admin, id: 'nunca-existiu', email: 'ninguem@empresa.com.br' })),
      ],
    ];

    it.each(cases)('%s', async (_name, headersOf) => {
      const headers = await headersOf();
      const before = await snapshot();
      const wrong: string[] = [];
      for (const route of protectedRoutes()) {
        const res = await call(route, headers);
        if (res.statusCode !== 401 || JSON.stringify(res.json()) !== JSON.stringify({ message: SESSION_INVALID })) {
          wrong.push(`${route.key} → ${res.statusCode} ${res.body}`);
        }
        if (route.method === 'GET') {
          const head = await call(route, headers, 'HEAD');
          if (head.statusCode !== 401) wrong.push(`HEAD ${route.path} → ${head.statusCode}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(protectedRoutes().length).toBeGreaterThan(20);
      // Nothing was changed by requests that were turned away.
      expect(await snapshot()).toBe(before);
    });
  });

  it('a signed-in non-admin gets 403 on every admin route, and changes nothing', async () => {
    const headers = bearer(await tokenOf(seed.user));
    const before = await snapshot();
    const wrong: string[] = [];
    for (const route of protectedRoutes().filter((r) => r.access === 'admin')) {
      const res = await call(route, headers);
      if (res.statusCode !== 403 || JSON.stringify(res.json()) !== JSON.stringify({ message: ADMIN_ONLY })) {
        wrong.push(`${route.key} → ${res.statusCode} ${res.body}`);
      }
      if (route.method === 'GET') {
        const head = await call(route, headers, 'HEAD');
        if (head.statusCode !== 403) wrong.push(`HEAD ${route.path} → ${head.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('a signed-in non-admin reaches every route open to any user', async () => {
    const headers = bearer(await tokenOf(seed.user));
    const wrong: string[] = [];
    const userRoutes = protectedRoutes().filter((r) => r.access === 'user');
    expect(userRoutes.length).toBeGreaterThan(5);
    for (const route of userRoutes) {
      const res = await call(route, headers);
      // The user is linked to the panel and listed in its RLS role: every one of these GETs answers 200, the
      // writes their own success (the viewer's report, written in the background, 202).
      const writes: Record<string, number> = {
        'POST /api/paineis/{id}/visualizacoes/{visualizacaoId}': 202,
        'PUT /api/favoritos/{painelId}': 204,
        'DELETE /api/favoritos/{painelId}': 204,
        'POST /api/paineis/{id}/visoes': 201,
        'DELETE /api/paineis/{id}/visoes/{visaoId}': 204,
        'POST /api/paineis/{id}/exportacoes-dados': 201,
        'POST /api/assinaturas': 201,
        'DELETE /api/assinaturas/{id}': 204,
      };
      const ok = isExport(route) ? 503 : (UNAVAILABLE_HERE[route.key] ?? writes[route.key] ?? 200);
      if (res.statusCode !== ok) wrong.push(`${route.key} → ${res.statusCode} ${res.body}`);
    }
    expect(wrong).toEqual([]);
  });

  // A reset and a seed per route: on a busy PostgreSQL server that is well over the default 30 s.
  it('an administrator is never turned away (each route on fresh data)', async () => {
    const wrong: string[] = [];
    for (const route of protectedRoutes()) {
      await resetDatabase(ctx.database);
      const s = await seedDatabase();
      const res = await ctx.app.inject({
        method: route.method,
        url: urlOf(route, s, 'admin'),
        headers: bearer(await tokenOf(s.admin)),
        ...(bodyOf(route, s) === undefined ? {} : { payload: bodyOf(route, s) as object }),
      });
      // This app has no Microsoft configuration, so what asks Graph or Power BI is honestly unavailable (503).
      const ok =
        NEEDS_MICROSOFT.has(route.key) || isExport(route)
          ? res.statusCode === 503
          : route.key in UNAVAILABLE_HERE
            ? res.statusCode === UNAVAILABLE_HERE[route.key]
            : route.method === 'GET'
              ? res.statusCode === 200
              : res.statusCode >= 200 && res.statusCode < 300;
      if (!ok) wrong.push(`${route.key} → ${res.statusCode} ${res.body}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  describe('the role and the active flag come from the database, not from the token', () => {
    const adminRoute = '/api/usuarios365/ativos';

    it('a user promoted to Admin in the database is an admin even with a token that says User', async () => {
      const token = await tokenOf(seed.user);
      expect((await ctx.request('GET', adminRoute, { token })).statusCode).toBe(403);
      await ctx.db.execute(sql`update usuarios set role = 'Admin' where id = ${seed.user.id}`);
      expect((await ctx.request('GET', adminRoute, { token })).statusCode).toBe(200);
      const created = await ctx.request('POST', '/api/classificacoes', {
        token,
        body: { nome: 'Promovido', descricao: null },
      });
      expect(created.statusCode).toBe(201);
    });

    it('a token that claims Admin gives nothing to a user whose stored role is User', async () => {
      const token = await tokenOf({ ...seed.user, role: 'Admin' });
      const res = await ctx.request('GET', adminRoute, { token });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: ADMIN_ONLY });
      const forged = await forge({ ...seed.user, role: 'Admin' });
      expect((await ctx.request('DELETE', `/api/paineis/${seed.panelId}`, { token: forged })).statusCode).toBe(403);
      expect((await ctx.request('GET', `/api/paineis/${seed.panelId}`, { token })).statusCode).toBe(200);
    });

    it('an admin demoted in the database loses admin access at once', async () => {
      const token = await tokenOf(seed.admin);
      expect((await ctx.request('GET', adminRoute, { token })).statusCode).toBe(200);
      await ctx.db.execute(sql`update usuarios set role = 'User' where id = ${seed.admin.id}`);
      const res = await ctx.request('GET', adminRoute, { token });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: ADMIN_ONLY });
    });

    it('deactivating a signed-in user ends their session at once', async () => {
      const token = await tokenOf(seed.user);
      expect((await ctx.request('GET', '/api/paineis', { token })).statusCode).toBe(200);
      await ctx.db.execute(sql`update usuarios set active = false where id = ${seed.user.id}`);
      const res = await ctx.request('GET', '/api/paineis', { token });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: SESSION_INVALID });
    });

    it("revoking one token leaves the same user's other tokens working", async () => {
      const first = await signSessionToken(ctx.config.jwt, seed.user);
      const second = await signSessionToken(ctx.config.jwt, seed.user);
      await ctx.db.execute(
        sql`insert into tokens_revogados (jti, expira_em) values (${first.jti}, ${first.expiresAt.toISOString()})`,
      );
      expect((await ctx.request('GET', '/api/paineis', { token: first.token })).statusCode).toBe(401);
      expect((await ctx.request('GET', '/api/paineis', { token: second.token })).statusCode).toBe(200);
    });

    it('accepts the scheme name in any case, as HTTP allows', async () => {
      const token = await tokenOf(seed.user);
      const res = await ctx.request('GET', '/api/paineis', { headers: { authorization: `bearer ${token}` } });
      expect(res.statusCode).toBe(200);
    });
  });
});
