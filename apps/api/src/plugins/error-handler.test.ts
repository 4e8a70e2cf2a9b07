import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { rows, type Database } from '../db/client.ts';
import { signSessionToken } from '../modules/auth/tokens.ts';
import { testConfig } from '../../test/context.ts';
import { openTestDatabase, resetDatabase } from '../../test/database.ts';
import { createAdmin, createUser } from '../../test/fixtures.ts';
import { SESSION_INVALID } from './auth.ts';
import { HttpError } from '../lib/http-error.ts';
import {
  busy,
  conflict,
  DomainFailure,
  forbidden,
  invalid,
  notFound,
  throttled,
  unauthenticated,
  unavailable,
} from '../lib/domain-failure.ts';
import { clientErrorAnswer, INTERNAL_ERROR } from './error-handler.ts';
import { ROUTE_NOT_FOUND } from './web-app.ts';

const SECRET_DETAIL = 'detalhe interno: senha=hunter2 em /srv/segredo';

/**
 * The one error shape of the API, for errors raised by Fastify, by validation, by the database and by
 * code that fails unexpectedly. The app is the real one plus a few test-only routes that fail on purpose.
 */
describe('error handler', () => {
  const config = testConfig();
  let database: Database;
  let app: App;
  let adminToken: string;
  let userToken: string;
  const log: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ config, database, ownsDatabase: false, logger: { level: 'error', stream } });

    app.get('/api/teste/explode', { config: { public: true } }, async () => {
      throw new Error(SECRET_DETAIL);
    });
    app.get('/api/teste/explode-sincrono', { config: { public: true } }, () => {
      throw new TypeError(`${SECRET_DETAIL} (síncrono)`);
    });
    app.get('/api/teste/erro-com-status-502', { config: { public: true } }, async () => {
      throw Object.assign(new Error(SECRET_DETAIL), { statusCode: 502, code: 'EPIPE' });
    });
    app.get('/api/teste/duplicado', { config: { public: true } }, async () => {
      await app.db.execute(sql`insert into classificacoes (nome) values ('Duplicada')`);
      await app.db.execute(sql`insert into classificacoes (nome) values ('duplicada')`);
      return { ok: true };
    });
    app.get('/api/teste/duplicado-em-transacao', { config: { public: true } }, async () => {
      await app.db.transaction(async (tx) => {
        await tx.execute(sql`insert into classificacoes (nome) values ('Na transação')`);
        await tx.execute(sql`insert into classificacoes (nome) values ('NA TRANSAÇÃO')`);
      });
      return { ok: true };
    });
    app.get('/api/teste/chave-estrangeira', { config: { public: true } }, async () => {
      await app.db.execute(sql`
        insert into paineis (nome_painel, workspace_id, report_id, classificacao_id)
        values ('Órfão', 'w', 'r', 999999)`);
      return { ok: true };
    });
    app.get(
      '/api/teste/resposta-invalida',
      { config: { public: true }, schema: { response: { 200: z.object({ ok: z.boolean() }) } } },
      async () => ({ ok: 'sim' }) as unknown as { ok: boolean },
    );
    app.get('/api/teste/ocupado', { config: { public: true } }, async () => {
      throw new HttpError(503, 'Ocupado agora.', 12);
    });
    app.get('/api/teste/conflito', { config: { public: true } }, async () => {
      throw new HttpError(409, 'Em conflito.');
    });
    // What modules throw: one route per kind of refusal.
    for (const [path, failure] of [
      ['nao-encontrado', notFound('Nada aqui.')],
      ['invalido', invalid('Campo errado.')],
      ['em-conflito', conflict('Já existe.')],
      ['proibido', forbidden('Não é seu.')],
      ['aguarde', busy('Aguarde 3 segundos.', 2.2)],
      ['sem-credencial', unauthenticated('Quem é você?')],
      ['devagar', throttled('Devagar.', 7.2)],
      ['devagar-sem-prazo', new DomainFailure('throttled', 'Devagar.')],
      ['indisponivel', unavailable('Falta o transporte.')],
    ] as const) {
      app.get(`/api/teste/falha/${path}`, { config: { public: true } }, async () => {
        throw failure;
      });
    }
    // No config at all: a new route is protected unless it says otherwise.
    app.get('/api/teste/sem-configuracao', async () => ({ ok: true }));
    await app.ready();
  });

  beforeEach(async () => {
    await resetDatabase(database);
    adminToken = (await signSessionToken(config.jwt, await createAdmin(database.db))).token;
    userToken = (await signSessionToken(config.jwt, await createUser(database.db))).token;
    log.length = 0;
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    options: { token?: string; headers?: Record<string, string>; payload?: string | Buffer } = {},
  ) {
    const res = await app.inject({
      method,
      url,
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
    return res;
  }

  /** Every error answer: JSON, exactly `{ message }`, the message a non-empty string. */
  function expectError(res: Awaited<ReturnType<typeof send>>, status: number, message?: string | RegExp) {
    expect(res.statusCode, res.body).toBe(status);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['message']);
    expect(typeof body.message).toBe('string');
    expect(body.message.length).toBeGreaterThan(0);
    if (typeof message === 'string') expect(body.message).toBe(message);
    else if (message) expect(body.message).toMatch(message);
    return body.message as string;
  }

  const json = { 'content-type': 'application/json' };

  describe('bodies', () => {
    it('invalid JSON → 400', async () => {
      const res = await send('POST', '/api/classificacoes', {
        token: adminToken,
        headers: json,
        payload: '{"nome": "x",',
      });
      expectError(res, 400, 'O corpo da requisição não é um JSON válido.');
    });

    it.each(['application/xml', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
      'content type %s → 415',
      async (type) => {
        const res = await send('POST', '/api/classificacoes', {
          token: adminToken,
          headers: { 'content-type': type },
          payload: type === 'text/plain' ? '{"nome":"Via texto"}' : 'nome=x',
        });
        expectError(res, 415, 'Tipo de conteúdo não suportado: envie application/json.');
        // Nothing was created from it.
        const list = await send('GET', '/api/classificacoes', { token: adminToken });
        expect(list.json()).toEqual([]);
      },
    );

    it('JSON with a charset parameter is still JSON', async () => {
      const res = await send('POST', '/api/classificacoes', {
        token: adminToken,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        payload: JSON.stringify({ nome: 'Com charset' }),
      });
      expect(res.statusCode).toBe(201);
    });

    it('missing body on POST /api/classificacoes → 400 in Portuguese', async () => {
      const res = await send('POST', '/api/classificacoes', { token: adminToken });
      expectError(res, 400, 'O corpo da requisição é obrigatório: envie um JSON.');
    });

    it('an empty body declared as JSON → 400', async () => {
      const res = await send('POST', '/api/classificacoes', { token: adminToken, headers: json, payload: '' });
      expectError(res, 400, 'O corpo da requisição está vazio, mas o tipo de conteúdo é JSON.');
    });

    it('a JSON body of the wrong kind is not reported as missing', async () => {
      for (const payload of ['[1, 2]', '"texto"', '42']) {
        const res = await send('POST', '/api/classificacoes', { token: adminToken, headers: json, payload });
        const message = expectError(res, 400, /^Corpo da requisição: /);
        expect(message).not.toMatch(/obrigatório/);
      }
      const res = await send('POST', '/api/paineis/reorder', { token: adminToken, headers: json, payload: '{}' });
      expectError(res, 400, 'Corpo da requisição: O corpo deve ser uma lista de { painelId, novaOrdem }.');
    });

    it('a body missing a field → 400 naming the field', async () => {
      const res = await send('POST', '/api/classificacoes', { token: adminToken, headers: json, payload: '{}' });
      expectError(res, 400, /\bnome\b/);
    });

    it('a body over 5 MB → 413', async () => {
      const payload = JSON.stringify({ nome: 'x'.repeat(5 * 1024 * 1024 + 10) });
      const res = await send('POST', '/api/classificacoes', { token: adminToken, headers: json, payload });
      expectError(res, 413, 'O corpo da requisição é grande demais.');
    });

    it('a body just under 5 MB is read (and then judged by its content)', async () => {
      const payload = JSON.stringify({ nome: 'x'.repeat(4 * 1024 * 1024) });
      const res = await send('POST', '/api/classificacoes', { token: adminToken, headers: json, payload });
      expectError(res, 400, /nome/);
    });

    it('a big body without a session is refused before it is read: 401, not 413', async () => {
      const payload = JSON.stringify({ nome: 'x'.repeat(6 * 1024 * 1024) });
      const res = await send('POST', '/api/classificacoes', { headers: json, payload });
      expectError(res, 401, SESSION_INVALID);
    });
  });

  describe('addresses', () => {
    it.each([
      ['GET', '/api/nao-existe'],
      ['GET', '/api/paineis/1/inexistente'],
      ['PATCH', '/api/paineis'],
      ['POST', '/api/usuarios365/ativos'],
      ['GET', '/api'],
      ['GET', '/api/'],
      ['GET', '/api/PAINEIS'],
      ['GET', '/arquivo-que-nao-existe.js'],
    ] as const)('%s %s → 404 Rota não encontrada', async (method, url) => {
      expectError(await send(method, url), 404, ROUTE_NOT_FOUND);
      expectError(await send(method, url, { token: userToken }), 404, ROUTE_NOT_FOUND);
    });

    it('an over-long path parameter → 400, before any other check', async () => {
      const role = 'a'.repeat(300);
      for (const token of [adminToken, userToken, undefined]) {
        expectError(
          await send('GET', `/api/paineis/1/rls/roles/${role}/usuarios`, { token }),
          400,
          /parâmetro longo demais/,
        );
      }
      expectError(await send('GET', `/api/paineis/${'9'.repeat(300)}`, { token: adminToken }), 400);
    });

    it('a long but acceptable path parameter is validated by the route: 400 naming it', async () => {
      const res = await send('GET', `/api/paineis/1/rls/roles/${'a'.repeat(150)}/usuarios`, { token: adminToken });
      expectError(res, 400, /roleName/);
    });

    it('malformed percent-encoding → 400', async () => {
      expectError(await send('GET', '/api/paineis/%E0%A4%A', { token: adminToken }), 400);
    });

    it.each(['abc', '0', '-1', '1.5', '2147483648', '99999999999999999999'])('id %s → 400, never 500', async (id) => {
      expectError(await send('GET', `/api/paineis/${id}`, { token: adminToken }), 400);
      expectError(await send('GET', `/api/classificacoes/${id}`, { token: adminToken }), 400);
      expectError(await send('DELETE', `/api/paineis/${id}`, { token: adminToken }), 400);
    });
  });

  describe('untrusted text', () => {
    const count = async (table: 'classificacoes' | 'paineis' | 'painel_rls_roles' | 'painel_usuarios') => {
      const [row] = await rows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from ${sql.identifier(table)}`,
      );
      return row!.n;
    };
    const GUID = '11111111-1111-4111-8111-111111111111';

    // PostgreSQL cannot store U+0000: it used to answer 500. JSON's "\ud800" is half a surrogate pair, which
    // UTF-8 cannot hold: it used to be stored as U+FFFD. Both are refused, naming the field, before any write.
    it.each([
      ['U+0000', '\\u0000', /caractere de controle \(U\+0000\)/],
      ['a lone surrogate', '\\ud800', /caractere inválido \(U\+D800/],
      ['another control character', '\\u001b', /caractere de controle \(U\+001B\)/],
    ])('%s in any text → 400 naming the field, nothing stored', async (_label, escaped, problem) => {
      const painel = await createPanelRow();
      const bad = `a${escaped}b`;
      const cases: Array<[method: 'POST' | 'PUT', url: string, payload: string, field: RegExp]> = [
        ['POST', '/api/classificacoes', `{"nome":"${bad}"}`, /^Nome \(nome\) não pode conter/],
        [
          'POST',
          '/api/classificacoes',
          `{"nome":"x","descricao":"${bad}"}`,
          /^Descrição \(descricao\) não pode conter/,
        ],
        [
          'PUT',
          `/api/paineis/${painel}`,
          `{"nomePainel":"${bad}","workspaceId":"${GUID}","reportId":"${GUID}"}`,
          /^Nome do painel \(nomePainel\) não pode conter/,
        ],
        [
          'POST',
          `/api/paineis/${painel}/rls`,
          `[{"roleName":"${bad}","userEmails":[]}]`,
          /Nome do papel RLS \(roleName\) não pode conter/,
        ],
        ['POST', `/api/paineis/${painel}/usuarios`, `["${bad}"]`, /O id de usuário não pode conter/],
        ['POST', '/api/auth/login', `{"username":"${bad}","password":"x"}`, /^Usuário \(username\) não pode conter/],
        ['POST', '/api/auth/login', `{"username":"x","password":"${bad}"}`, /^Senha \(password\) não pode conter/],
      ];
      for (const [method, url, payload, field] of cases) {
        const message = expectError(await send(method, url, { token: adminToken, headers: json, payload }), 400, field);
        expect(message, url).toMatch(problem);
      }
      expect(await count('classificacoes')).toBe(0);
      expect(await count('painel_rls_roles')).toBe(0);
      expect(await count('painel_usuarios')).toBe(0);
      const [panel] = await rows<{ nome_painel: string }>(database.db, sql`select nome_painel from paineis`);
      expect(panel!.nome_painel).toBe('Intacto');
    });

    it('an address that cannot be read → 400 with the security headers, though no hook runs for it', async () => {
      const res = await send('GET', '/api/paineis/1/rls/roles/a%ED%A0%80b/usuarios', { token: adminToken });
      expectError(res, 400, /Endereço inválido/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    });

    it.each([
      ['%00', /caractere de controle \(U\+0000\)/],
      ['%1B', /caractere de controle \(U\+001B\)/],
      ['%ED%A0%80', /Endereço inválido/],
    ])('%s in the {role} of an address → 400, no role created', async (segment, message) => {
      const painel = await createPanelRow();
      for (const method of ['GET', 'POST'] as const) {
        const url = `/api/paineis/${painel}/rls/roles/a${segment}b/usuarios`;
        const payload = method === 'POST' ? '["ana@empresa.com.br"]' : undefined;
        const res = await send(method, url, { token: adminToken, headers: json, ...(payload ? { payload } : {}) });
        expectError(res, 400, message);
      }
      expect(await count('painel_rls_roles')).toBe(0);
    });

    it('U+0000 in ?papel= → 400 naming it', async () => {
      const painel = await createPanelRow();
      expectError(
        await send('GET', `/api/paineis/${painel}?papel=a%00b`, { token: adminToken }),
        400,
        /^Papel RLS \(papel\)/,
      );
    });

    it('a description keeps its line breaks and tabs; every accepted text comes back as sent, trimmed', async () => {
      const nome = '<img src=x onerror="window.__xss=1"> 😀 \u202eRTL';
      const descricao = 'linha 1\r\n\tlinha 2';
      const res = await send('POST', '/api/classificacoes', {
        token: adminToken,
        headers: json,
        payload: JSON.stringify({ nome: ` \n${nome}\t `, descricao }),
      });
      expect(res.statusCode, res.body).toBe(201);
      const stored = await send('GET', `/api/classificacoes/${res.json().id}`, { token: adminToken });
      expect(stored.json()).toMatchObject({ nome, descricao });
    });

    async function createPanelRow(): Promise<number> {
      const [row] = await rows<{ id: number }>(
        database.db,
        sql`insert into paineis (nome_painel, workspace_id, report_id) values ('Intacto', ${GUID}, ${GUID}) returning id`,
      );
      return row!.id;
    }
  });

  describe('ids in addresses are plain decimal digits', () => {
    // z.coerce.number read '0x8' as 8, so /api/paineis/0x8/dados opened panel 8.
    it.each(['0x1', '1e0', '%201', '+1', '1.0', '1%20', '01', '١'])(
      '%s → 400 naming the id, never the panel',
      async (id) => {
        const [row] = await rows<{ id: number }>(
          database.db,
          sql`insert into paineis (nome_painel, workspace_id, report_id) values ('P', 'w', 'r') returning id`,
        );
        expect(row!.id).toBe(1);
        await database.db.execute(sql`insert into classificacoes (nome) values ('C')`);
        const urls: Array<[string, RegExp]> = [
          [`/api/paineis/${id}/dados`, /^O id /],
          [`/api/paineis/${id}`, /^O id /],
          [`/api/paineis/${id}/rls/roles/Sul/usuarios`, /^O id /],
          [`/api/classificacoes/${id}`, /^O id da classificação /],
          [`/api/paineis/proxima-ordem/${id}`, /^Classificação \(classificacaoId\) /],
        ];
        for (const [url, message] of urls) expectError(await send('GET', url, { token: adminToken }), 400, message);
        expectError(await send('DELETE', `/api/paineis/${id}`, { token: adminToken }), 400, /^O id /);
        expect((await send('GET', '/api/paineis/1/dados', { token: adminToken })).statusCode).toBe(200);
      },
    );

    it('leading zeros are refused, with a message that says so', async () => {
      expectError(
        await send('GET', '/api/paineis/08/dados', { token: adminToken }),
        400,
        'O id não pode começar com zero (escreva 8, não 08).',
      );
    });

    it('an id in a body is a JSON number: "1" is refused', async () => {
      const res = await send('POST', '/api/paineis/reorder', {
        token: adminToken,
        headers: json,
        payload: '[{"painelId":"1","novaOrdem":1}]',
      });
      expectError(res, 400, /painelId deve ser um número/);
    });
  });

  describe('requests Node cannot read (a real server)', () => {
    let server: App;
    let port: number;

    beforeAll(async () => {
      server = await buildApp({ config, database, ownsDatabase: false, logger: false });
      await server.listen({ port: 0, host: '127.0.0.1' });
      port = (server.server.address() as AddressInfo).port;
    });

    afterAll(async () => {
      await server?.close();
    });

    /** Sends raw bytes and reads the whole answer: status line, headers and body. */
    function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const [head = '', body = ''] = text.split('\r\n\r\n');
          resolve({ status: Number(head.split(' ')[1]), headers: head, body });
        });
        socket.write(request);
      });
    }

    /** Node's own 431 had no body; Fastify's default said 'Exceeded maximum allowed HTTP header size'. */
    it.each([
      ['a query string over 16 KB', 414, `/api/paineis?papel=${'a'.repeat(17 * 1024)}`, ''],
      ['a path over 16 KB', 414, `/api/paineis/${'1'.repeat(17 * 1024)}`, ''],
      ['a header over 16 KB', 431, '/api/paineis', `X-Grande: ${'a'.repeat(17 * 1024)}\r\n`],
    ])("%s → %i, in the API's shape and in Portuguese", async (_label, status, url, header) => {
      const res = await raw(`GET ${url} HTTP/1.1\r\nHost: localhost\r\n${header}\r\n`);
      expect(res.status).toBe(status);
      expect(res.headers).toMatch(/content-type: application\/json; charset=utf-8/i);
      const body = JSON.parse(res.body) as { message: string };
      expect(Object.keys(body)).toEqual(['message']);
      expect(body.message).toMatch(status === 414 ? /^O endereço da requisição é longo demais/ : /grandes demais/);
      // Answered before any hook runs, and still with the security headers.
      expect(res.headers).toMatch(/content-security-policy: default-src 'none'; frame-ancestors 'none'/i);
      expect(res.headers).toMatch(/referrer-policy: no-referrer/i);
      expect(res.headers).toMatch(/x-frame-options: DENY/i);
    });

    it('fetch with a long address gets the same Portuguese answer', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/paineis?x=${'a'.repeat(20_000)}`);
      expect(res.status).toBe(414);
      expect(await res.json()).toEqual({
        message: 'O endereço da requisição é longo demais (limite de 16 KB, parâmetros da consulta incluídos).',
      });
    });

    it('an address just under the limit reaches the API', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/paineis?x=${'a'.repeat(15_000)}`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(res.status).toBe(200);
    });

    it('a request too slow to arrive → 408; an overflow seen past the first packet → 431', () => {
      const error = (code: string, rawPacket?: Buffer) => Object.assign(new Error(code), { code, rawPacket });
      expect(clientErrorAnswer(error('ERR_HTTP_REQUEST_TIMEOUT'))).toEqual([
        408,
        'A requisição demorou demais para chegar. Tente novamente.',
      ]);
      expect(clientErrorAnswer(error('HPE_HEADER_OVERFLOW', Buffer.from('aaaa'.repeat(5000))))[0]).toBe(431);
      expect(clientErrorAnswer(error('HPE_HEADER_OVERFLOW', Buffer.from(`GET /${'a'.repeat(20_000)}`)))[0]).toBe(414);
      expect(clientErrorAnswer(error('HPE_INVALID_METHOD'))).toEqual([400, 'Requisição HTTP malformada.']);
    });

    it('malformed HTTP → 400 in Portuguese', async () => {
      const res = await raw('OLÁ MUNDO\r\n\r\n');
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ message: 'Requisição HTTP malformada.' });
    });
  });

  describe('unexpected failures', () => {
    it.each(['/api/teste/explode', '/api/teste/explode-sincrono', '/api/teste/erro-com-status-502'])(
      '%s → 500 with the generic message; the detail goes to the log only',
      async (url) => {
        const res = await send('GET', url);
        expectError(res, 500, INTERNAL_ERROR);
        expect(res.body).not.toContain('hunter2');
        expect(res.body).not.toContain('stack');
        expect(log.join('')).toContain('hunter2');
      },
    );

    it('a response that does not match its schema → 500, nothing leaked', async () => {
      const res = await send('GET', '/api/teste/resposta-invalida');
      expectError(res, 500, INTERNAL_ERROR);
      expect(res.body).not.toContain('sim');
    });

    it('a unique violation nobody handled → 409, not 500', async () => {
      expectError(await send('GET', '/api/teste/duplicado'), 409, 'Registro duplicado.');
      expectError(await send('GET', '/api/teste/duplicado-em-transacao'), 409, 'Registro duplicado.');
      expect(log.join('')).not.toContain('erro não tratado');
    });

    it('a foreign-key violation nobody handled → 409, not 500', async () => {
      expectError(await send('GET', '/api/teste/chave-estrangeira'), 409, 'O registro referenciado não existe mais.');
    });

    it('an HttpError that says when to come back sends Retry-After with any status; others send none', async () => {
      const busy = await send('GET', '/api/teste/ocupado');
      expectError(busy, 503, 'Ocupado agora.');
      expect(busy.headers['retry-after']).toBe('12');
      const conflict = await send('GET', '/api/teste/conflito');
      expectError(conflict, 409, 'Em conflito.');
      expect(conflict.headers['retry-after']).toBeUndefined();
    });

    it('a refusal of a module is answered with its kind’s status, its message and nothing logged as an error', async () => {
      expectError(await send('GET', '/api/teste/falha/nao-encontrado'), 404, 'Nada aqui.');
      expectError(await send('GET', '/api/teste/falha/invalido'), 400, 'Campo errado.');
      expectError(await send('GET', '/api/teste/falha/em-conflito'), 409, 'Já existe.');
      expectError(await send('GET', '/api/teste/falha/proibido'), 403, 'Não é seu.');
      const waiting = await send('GET', '/api/teste/falha/aguarde');
      expectError(waiting, 503, 'Aguarde 3 segundos.');
      expect(waiting.headers['retry-after']).toBe('3');
      expect((await send('GET', '/api/teste/falha/em-conflito')).headers['retry-after']).toBeUndefined();
      const unknown = await send('GET', '/api/teste/falha/sem-credencial');
      expectError(unknown, 401, 'Quem é você?');
      expect(unknown.headers['retry-after']).toBeUndefined();
      // A 429 always says when to come back: what whoever raised it knew, else a minute.
      const slow = await send('GET', '/api/teste/falha/devagar');
      expectError(slow, 429, 'Devagar.');
      expect(slow.headers['retry-after']).toBe('8');
      expect((await send('GET', '/api/teste/falha/devagar-sem-prazo')).headers['retry-after']).toBe('60');
      const lacking = await send('GET', '/api/teste/falha/indisponivel');
      expectError(lacking, 503, 'Falta o transporte.');
      expect(lacking.headers['retry-after']).toBeUndefined();
      expect(log.join('')).not.toContain('erro não tratado');
    });

    it('a route registered without any config is protected by default', async () => {
      expectError(await send('GET', '/api/teste/sem-configuracao'), 401, SESSION_INVALID);
      expect((await send('GET', '/api/teste/sem-configuracao', { token: userToken })).statusCode).toBe(200);
    });
  });
});
