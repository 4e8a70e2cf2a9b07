import Fastify from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from '../../test/context.ts';
import { createAdmin } from '../../test/fixtures.ts';
import { createLogRedaction, logSecrets, REDACT_PATHS, REDACTED, redactingLoggerOptions } from './log-redaction.ts';
import { REQUEST_LINE } from './request-log.ts';

const SECRET = 'segredo-do-cliente-0123456789';
const JWT_SECRET = 'segredo-de-sessao-com-mais-de-32-caracteres-xyz';
// A real-looking session token (three base64url parts, the first one a JSON header).
const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLWFkbWluIiwicm9sZSI6IkFkbWluIn0.c2lnbmF0dXJhLWRlLXRlc3RlLTAxMjM0NTY3ODk';
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./;

const { redactUrl, scrubText, serializeError, serializeRequest } = createLogRedaction([SECRET, JWT_SECRET, 'curta']);

describe('redactUrl', () => {
  it('replaces the session token that /login receives after a Microsoft sign-in', () => {
    expect(redactUrl(`/login?token=${JWT}`)).toBe(`/login?token=${REDACTED}`);
  });

  it('replaces the code, state and every other credential of a query, keeping the rest as sent', () => {
    expect(
      redactUrl(
        `/api/auth/microsoft-callback?code=0.AbCdEf-123&state=xyz_987&session_state=s1&id_token=${JWT}&access_token=at&client_secret=${SECRET}&papel=Gerente%20Regional`,
      ),
    ).toBe(
      `/api/auth/microsoft-callback?code=${REDACTED}&state=${REDACTED}&session_state=${REDACTED}&id_token=${REDACTED}&access_token=${REDACTED}&client_secret=${REDACTED}&papel=Gerente%20Regional`,
    );
  });

  it('matches names whatever their case or encoding, and repeated or empty ones', () => {
    expect(redactUrl('/login?TOKEN=a&%74oken=b&token=&token[]=c&erro=microsoft')).toBe(
      `/login?TOKEN=${REDACTED}&%74oken=${REDACTED}&token=${REDACTED}&token[]=${REDACTED}&erro=microsoft`,
    );
  });

  it('leaves addresses without secrets alone', () => {
    for (const url of ['/api/paineis/12?papel=Gerente', '/healthz', '/api/docs/static/index.html', '/x?', '/x?a&b=1'])
      expect(redactUrl(url)).toBe(url);
  });

  it('replaces a JWT or a known secret anywhere in the address, path included', () => {
    expect(redactUrl(`/api/${JWT}/x?outro=${JWT}`)).toBe(`/api/${REDACTED}/x?outro=${REDACTED}`);
    expect(redactUrl(`/api/${SECRET}`)).toBe(`/api/${REDACTED}`);
  });
});

describe('scrubText', () => {
  it('replaces bearer credentials, JWTs, sensitive query parameters and known secrets', () => {
    const text = `GET http://h/login?token=abc&x=1 Authorization: Bearer ${JWT} bearer abc.def; body client_secret=${encodeURIComponent(SECRET)}&grant_type=client_credentials; chave ${JWT_SECRET}`;
    const scrubbed = scrubText(text);
    expect(scrubbed).not.toMatch(JWT_LIKE);
    expect(scrubbed).not.toMatch(/bearer /i);
    expect(scrubbed).not.toContain(SECRET);
    expect(scrubbed).not.toContain(encodeURIComponent(SECRET));
    expect(scrubbed).not.toContain(JWT_SECRET);
    expect(scrubbed).toContain(`?token=${REDACTED}&x=1`);
    expect(scrubbed).toContain('grant_type=client_credentials');
  });

  it('finds each of them alone, in any case, with nothing else in the text to give it away', () => {
    // Each replacement on its own: the quick test that lets most lines through untouched must not miss one.
    expect(scrubText(`{"msg":"chave ${JWT_SECRET}"}`)).toBe(`{"msg":"chave ${REDACTED}"}`);
    expect(scrubText(`{"msg":"${JSON.stringify(`"${SECRET}`).slice(1, -1)}"}`)).not.toContain(SECRET);
    expect(scrubText(`{"msg":"BEARER abc.def"}`)).toBe(`{"msg":"${REDACTED}"}`);
    expect(scrubText(`{"msg":"Bearer\tabc"}`)).toBe(`{"msg":"${REDACTED}"}`);
    expect(scrubText(`{"path":"/x/${JWT}"}`)).toBe(`{"path":"/x/${REDACTED}"}`);
    expect(scrubText('token=abc')).toBe(`token=${REDACTED}`);
  });

  it('returns a text with nothing to replace as it is', () => {
    const line =
      '{"level":30,"reqId":"req-1","method":"GET","route":"/api/paineis/:id","status":200,"responseTime":1.2,"msg":"requisição"}\n';
    expect(scrubText(line)).toBe(line);
    expect(scrubText('portador de um token qualquer: eyj minúsculo')).toBe(
      'portador de um token qualquer: eyj minúsculo',
    );
  });

  it('ignores configured secrets too short to search for', () => {
    expect(scrubText('uma resposta curta')).toBe('uma resposta curta');
  });
});

describe('serializeRequest', () => {
  it('logs method, redacted address, host and remote address, and never the headers', () => {
    const logged = serializeRequest({
      method: 'GET',
      url: `/login?token=${JWT}`,
      host: 'paineis.empresa.com.br',
      ip: '10.0.0.7',
      headers: { authorization: `Bearer ${JWT}`, cookie: 'paineis_oidc=s%3Aabc', 'accept-version': '1' },
      socket: { remotePort: 51234 },
    });
    expect(logged).toEqual({
      method: 'GET',
      url: `/login?token=${REDACTED}`,
      version: '1',
      host: 'paineis.empresa.com.br',
      remoteAddress: '10.0.0.7',
      remotePort: 51234,
    });
  });
});

describe('serializeError', () => {
  it('keeps what explains the error (type, message, stack, code, status) and drops every credential', () => {
    const cause = new Error(`token endpoint said no to client_secret=${SECRET}`);
    const error = Object.assign(new TypeError(`falhou com Authorization: Bearer ${JWT}`, { cause }), {
      code: 'ERR_TESTE',
      status: 401,
      headers: { authorization: `Bearer ${JWT}`, cookie: 'a=b', 'content-type': 'application/json' },
      body: { access_token: 'at-123', id_token: JWT, token_type: 'Bearer', error: 'invalid_grant' },
      request: { url: `http://h/cb?code=abc&state=def`, clientSecret: SECRET, password: 'senha-secreta' },
      tokenExpiration: '2026-01-01T00:00:00Z',
    });
    const logged = serializeError(error) as Record<string, any>;
    expect(logged).toMatchObject({
      type: 'TypeError',
      code: 'ERR_TESTE',
      status: 401,
      headers: { authorization: REDACTED, cookie: REDACTED, 'content-type': 'application/json' },
      body: { access_token: REDACTED, id_token: REDACTED, token_type: 'Bearer', error: 'invalid_grant' },
      request: { url: `http://h/cb?code=${REDACTED}&state=${REDACTED}`, clientSecret: REDACTED, password: REDACTED },
      tokenExpiration: '2026-01-01T00:00:00Z',
    });
    expect(logged.message).toBe(
      `falhou com Authorization: ${REDACTED}: token endpoint said no to client_secret=${REDACTED}`,
    );
    expect(logged.stack).toContain('caused by: Error: token endpoint said no');
    const text = JSON.stringify(logged);
    expect(text).not.toMatch(JWT_LIKE);
    expect(text).not.toMatch(/bearer [^"]/i);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('at-123');
    expect(text).not.toContain('senha-secreta');
  });

  it('survives cycles, Headers, URLs and values that are not errors', () => {
    const error = new Error('ciclo') as Error & Record<string, unknown>;
    error.self = error;
    error.response = { headers: new Headers({ authorization: `Bearer ${JWT}`, 'x-ms-request-id': 'r-1' }) };
    error.where = new URL(`http://h/login?token=${JWT}`);
    const logged = serializeError(error) as Record<string, any>;
    expect(logged.self).toBe('[Circular]');
    expect(logged.response.headers).toEqual({ authorization: REDACTED, 'x-ms-request-id': 'r-1' });
    expect(logged.where).toBe(`http://h/login?token=${REDACTED}`);
    expect(serializeError(`Bearer ${JWT}`)).toBe(REDACTED);
    // Node's clientError carries the raw request it could not parse: headers, token and all.
    const raw = Object.assign(new Error('Parse Error: Header overflow'), {
      code: 'HPE_HEADER_OVERFLOW',
      rawPacket: Buffer.from(`GET /login?token=${JWT} HTTP/1.1\r\nAuthorization: Bearer ${JWT}\r\n`),
    });
    expect(serializeError(raw)).toMatchObject({
      code: 'HPE_HEADER_OVERFLOW',
      rawPacket: expect.stringMatching(/^\[\d+ bytes\]$/),
    });
    expect(serializeError(undefined)).toBeUndefined();
  });
});

describe('logSecrets', () => {
  it('lists the JWT secret, the Microsoft client secret, the local admin password and the database password', () => {
    const config = testConfig({
      JWT_SECRET,
      AZURE_TENANT_ID: 't',
      AZURE_CLIENT_ID: 'c',
      AZURE_CLIENT_SECRET: SECRET,
      PORTAL_ADMIN_USERNAME: 'admin.ti',
      PORTAL_ADMIN_PASSWORD: 'senha-do-admin',
      DATABASE_URL: 'postgres://paineis:senha%40db@db.interno:5432/paineis',
    });
    expect(logSecrets(config)).toEqual(
      expect.arrayContaining([JWT_SECRET, SECRET, 'senha-do-admin', 'senha%40db', 'senha@db']),
    );
  });

  it('lists the SMTP password of SMTP_URL, as written and decoded', () => {
    const config = testConfig({
      JWT_SECRET,
      SMTP_URL: 'smtps://paineis:segredo%2Fdo%2Fsmtp@smtp.empresa.com.br:465',
      MAIL_FROM: 'paineis@empresa.com.br',
    });
    expect(logSecrets(config)).toEqual(expect.arrayContaining(['segredo%2Fdo%2Fsmtp', 'segredo/do/smtp']));
  });
});

/** Lines a logger wrote, parsed. */
function captured() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, text: () => lines.join('\n'), json: () => lines.map((l) => JSON.parse(l) as Record<string, any>) };
}

describe('fields one level down (the `*.` paths)', () => {
  const objects: Record<string, unknown>[] = [
    {
      config: { clientSecret: 'x', outro: 1 },
      headers: { authorization: 'a', 'set-cookie': 'c', accept: 'j' },
    },
    {
      resposta: {
        headers: { cookie: 'c', 'proxy-authorization': 'p', 'content-type': 't' },
        token: 't',
        embedToken: 'e',
        status: 401,
      },
    },
    { lista: [{ token: 'x' }], fundo: { a: { token: 'y' } }, token: 'z', nulo: { password: null }, vazio: {} },
    { method: 'GET', route: '/api/paineis/:id', status: 200, responseTime: 1.5 },
  ];

  it('are replaced as pino’s own wildcard redaction replaces them', () => {
    const ours = captured();
    const reference = captured();
    const options = { timestamp: false, base: null };
    const log = pino(redactingLoggerOptions('info', [], options) as pino.LoggerOptions, ours.stream);
    const pinos = pino({ ...options, redact: { paths: REDACT_PATHS, censor: REDACTED } }, reference.stream);
    const copies = objects.map((o) => structuredClone(o));
    for (const logger of [log, pinos]) {
      for (const object of objects) logger.info(object, 'linha');
      // A child's bindings: their own keys only (pino applies the bindings formatter to the root's alone; the
      // portal makes no child loggers but Fastify's, bound to the request id).
      logger.child({ cliente: 'n', token: 't' }).info('filho');
    }
    expect(ours.json()).toEqual(reference.json());
    expect(ours.json()[0]).toMatchObject({
      config: { clientSecret: REDACTED, outro: 1 },
      headers: { authorization: REDACTED, 'set-cookie': REDACTED, accept: 'j' },
    });
    expect(ours.json()[1]).toMatchObject({
      resposta: { headers: { cookie: REDACTED, 'proxy-authorization': REDACTED }, token: REDACTED, status: 401 },
    });
    // The objects logged are left as they were.
    expect(objects).toEqual(copies);
  });
});

describe('a Fastify logger with these options', () => {
  const log = captured();
  const app = Fastify({ logger: redactingLoggerOptions('info', [SECRET, JWT_SECRET], { stream: log.stream }) });

  beforeAll(async () => {
    app.get('/registra', async (request) => {
      // Everything a careless handler could log: headers, the raw request, a message with the address...
      request.log.info({ headers: request.headers }, 'cabeçalhos');
      request.log.info({ req: request.raw }, 'requisição crua');
      request.log.info(`pedido para ${request.url} com ${String(request.headers.authorization)}`);
      request.log.info({ token: JWT, password: 'senha-secreta', config: { clientSecret: SECRET } }, 'objeto');
      request.log.error({ err: new Error(`chave ${JWT_SECRET} e Bearer ${JWT}`) }, 'erro');
      request.log.error(new Error(`só o erro, com client_secret=${SECRET}`));
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('writes the request lines, and no token, bearer credential, cookie or secret anywhere', async () => {
    const res = await app.inject({
      url: `/registra?token=${JWT}&code=abc&papel=x`,
      headers: { authorization: `Bearer ${JWT}`, cookie: `paineis_oidc=${SECRET}` },
    });
    expect(res.statusCode).toBe(200);
    const lines = log.json();
    expect(lines.find((l) => l.msg === 'incoming request')?.req).toMatchObject({
      method: 'GET',
      url: `/registra?token=${REDACTED}&code=${REDACTED}&papel=x`,
    });
    expect(lines.find((l) => l.msg === 'request completed')?.res).toEqual({ statusCode: 200 });
    expect(lines.find((l) => l.msg === 'cabeçalhos')?.headers).toMatchObject({
      authorization: REDACTED,
      cookie: REDACTED,
    });
    expect(lines.find((l) => l.msg === 'requisição crua')?.req.headers).toBeUndefined();
    expect(lines.find((l) => l.msg === 'objeto')).toMatchObject({
      token: REDACTED,
      password: REDACTED,
      config: { clientSecret: REDACTED },
    });
    expect(lines.filter((l) => l.level === 50)).toHaveLength(2);
    const text = log.text();
    expect(text).not.toMatch(JWT_LIKE);
    expect(text).not.toMatch(/bearer /i);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(JWT_SECRET);
    expect(text).not.toContain('senha-secreta');
  });
});

describe('the portal’s own logger', () => {
  const log = captured();
  const ctx = useTestApp({ config: testConfig({ JWT_SECRET }), logger: { level: 'info', stream: log.stream } });

  it('logs /login?token= and the Microsoft callback without their token, code or state', async () => {
    const token = await ctx.tokenFor({ id: 'u1', email: 'u1@empresa.com.br', displayName: 'U1', role: 'User' });
    await ctx.request('GET', `/login?token=${token}`);
    await ctx.request('GET', '/api/auth/microsoft-callback?code=0.AbC&state=xyz&session_state=s');
    await ctx.request('GET', '/api/paineis', { token });
    await ctx.request('POST', '/api/auth/logout-complete', { token });
    // One line per request (request-log.ts): the route's template, or the path of a page, never the query.
    const requests = log
      .json()
      .filter((l) => l.msg === REQUEST_LINE)
      .map((l) => [l.route ?? l.path, l.status] as const);
    expect(requests).toEqual([
      // No web app built in tests, and nobody behind the token in the database: what matters is the lines.
      ['/login', 404],
      ['/api/auth/microsoft-callback', 302],
      ['/api/paineis', 401],
      ['/api/auth/logout-complete', 204],
    ]);
    expect(log.json().some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
    expect(log.text()).not.toContain(token);
    expect(log.text()).not.toMatch(JWT_LIKE);
    expect(log.text()).not.toContain(JWT_SECRET);
  });

  it('writes a routed request’s line, built without pino’s passes, exactly as pino writes the same fields', async () => {
    const admin = await createAdmin(ctx.db);
    const token = await ctx.tokenFor(admin);
    const answer = await ctx.request('GET', '/api/classificacoes', { token });
    expect(answer.statusCode).toBe(200);
    const line = log.json().find((l) => l.msg === REQUEST_LINE && l.route === '/api/classificacoes' && l.userId);
    expect(line).toBeDefined();
    ctx.app.log.child({ reqId: line!.reqId }).info(
      {
        method: 'GET',
        route: '/api/classificacoes',
        status: 200,
        responseTime: line!.responseTime,
        userId: admin.id,
      },
      REQUEST_LINE,
    );
    const byPino = log.json().at(-1)!;
    expect(Object.keys(line!)).toEqual(Object.keys(byPino));
    expect({ ...line, time: 0 }).toEqual({ ...byPino, time: 0 });
    expect(Object.keys(line!)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'method',
      'route',
      'status',
      'responseTime',
      'userId',
      'msg',
    ]);
  });
});
