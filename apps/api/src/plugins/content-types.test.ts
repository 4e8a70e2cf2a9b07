import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/context.ts';
import { sql } from 'drizzle-orm';
import { classificacao, createAdmin, panel } from '../../test/fixtures.ts';

type Operation = { requestBody?: unknown };
const EMPTY_JSON = 'O corpo da requisição está vazio, mas o tipo de conteúdo é JSON.';

/** Every call that takes no body accepts what clients send with it: an empty JSON body, or nothing at all. */
describe('calls that take no body', () => {
  const ctx = useTestApp();
  let bodiless: { method: 'POST' | 'PUT' | 'DELETE'; path: string }[] = [];
  let token: string;
  let adminId: string;

  beforeEach(async () => {
    const admin = await createAdmin(ctx.db);
    adminId = admin.id;
    token = await ctx.tokenFor(admin);
    const doc = (await ctx.request('GET', '/api/docs/json')).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    // From the OpenAPI document, so a new bodiless route is covered without being listed here.
    bodiless = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method, op]) => ['post', 'put', 'delete'].includes(method) && !op.requestBody)
        .map(([method]) => ({ method: method.toUpperCase() as 'POST' | 'PUT' | 'DELETE', path })),
    );
  });

  const forms = {
    'an empty body under a JSON content type': { 'content-type': 'application/json' },
    'no content type at all': {},
  };

  it('are the ones the contract calls without a body', () => {
    expect(bodiless.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'DELETE /api/assinaturas/{id}',
      'DELETE /api/classificacoes/{id}',
      'DELETE /api/favoritos/{painelId}',
      'DELETE /api/paineis/{id}',
      'DELETE /api/paineis/{id}/rls',
      'DELETE /api/paineis/{id}/visoes/{visaoId}',
      'POST /api/assinaturas/{id}/enviar-agora',
      'POST /api/auth/logout-complete',
      'POST /api/paineis/atualizacoes/verificar',
      'POST /api/paineis/saude/verificar',
      'POST /api/usuarios365/sincronizar',
      'PUT /api/favoritos/{painelId}',
    ]);
  });

  it.each(Object.entries(forms))('each one does its work with %s', async (_form, headers) => {
    const c = await classificacao(ctx.db, 'Temporária');
    const p = await panel(ctx.db, { usaRls: true, rlsConfigurations: [{ roleName: 'Norte', userEmails: [] }] });
    const visao = '5a1e0000-0000-4000-8000-000000000001';
    await ctx.db.execute(
      sql`insert into visoes_salvas (id, painel_id, usuario_id, nome, estado) values (${visao}, ${p.id}, ${adminId}, 'V', 'e')`,
    );
    const assinatura = 'a5500000-0000-4000-8000-000000000001';
    await ctx.db.execute(sql`
      insert into assinaturas (id, painel_id, usuario_id, formato, frequencia, hora, fuso_horario, proximo_envio)
      values (${assinatura}, ${p.id}, ${adminId}, 'PDF', 'diaria', '08:00', 'America/Sao_Paulo', now() + interval '1 day')`);
    // Each route as the document names it, with the call made; in an order where nothing is gone before its turn.
    const calls: [string, string, number][] = [
      ['PUT /api/favoritos/{painelId}', `PUT /api/favoritos/${p.id}`, 204],
      ['DELETE /api/favoritos/{painelId}', `DELETE /api/favoritos/${p.id}`, 204],
      ['DELETE /api/paineis/{id}/visoes/{visaoId}', `DELETE /api/paineis/${p.id}/visoes/${visao}`, 204],
      // Without a mail transport 'Enviar agora' answers its own 503, having read the subscription.
      ['POST /api/assinaturas/{id}/enviar-agora', `POST /api/assinaturas/${assinatura}/enviar-agora`, 503],
      ['DELETE /api/assinaturas/{id}', `DELETE /api/assinaturas/${assinatura}`, 204],
      ['DELETE /api/classificacoes/{id}', `DELETE /api/classificacoes/${c.id}`, 204],
      ['DELETE /api/paineis/{id}/rls', `DELETE /api/paineis/${p.id}/rls`, 204],
      ['DELETE /api/paineis/{id}', `DELETE /api/paineis/${p.id}`, 204],
      // Without Microsoft configuration the sync answers its own 503, not a complaint about the body.
      ['POST /api/usuarios365/sincronizar', 'POST /api/usuarios365/sincronizar', 503],
      // ...and so do the Power BI rounds.
      ['POST /api/paineis/atualizacoes/verificar', 'POST /api/paineis/atualizacoes/verificar', 503],
      ['POST /api/paineis/saude/verificar', 'POST /api/paineis/saude/verificar', 503],
      ['POST /api/auth/logout-complete', 'POST /api/auth/logout-complete', 204],
    ];
    expect(calls.map(([route]) => route).sort()).toEqual(bodiless.map((r) => `${r.method} ${r.path}`).sort());
    const expected = Object.fromEntries(calls.map(([, call, status]) => [call, status]));
    const urls = Object.keys(expected);
    for (const call of urls) {
      const [method, url] = call.split(' ') as ['POST' | 'PUT' | 'DELETE', string];
      const res = await ctx.app.inject({
        method,
        url,
        headers: { ...headers, authorization: `Bearer ${token}` },
        payload: '',
      });
      expect(res.statusCode, call).toBe(expected[call]);
      expect(res.body, call).not.toContain(EMPTY_JSON);
    }
  });

  it.each(Object.entries(forms))('sign-out revokes the token with %s', async (_form, headers) => {
    const own = await ctx.tokenFor(await createAdmin(ctx.db));
    expect((await ctx.request('GET', '/api/paineis', { token: own })).statusCode).toBe(200);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout-complete',
      headers: { ...headers, authorization: `Bearer ${own}` },
      payload: '',
    });
    expect(res.statusCode).toBe(204);
    expect((await ctx.request('GET', '/api/paineis', { token: own })).statusCode).toBe(401);
  });

  it('a JSON body sent anyway is ignored, and a route that takes a body still refuses an empty one', async () => {
    const own = await ctx.tokenFor(await createAdmin(ctx.db));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout-complete',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${own}` },
      payload: '{}',
    });
    expect(res.statusCode).toBe(204);
    expect((await ctx.request('GET', '/api/paineis', { token: own })).statusCode).toBe(401);
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/classificacoes',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: EMPTY_JSON });
  });
});
