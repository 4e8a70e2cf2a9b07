import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/env.ts';
import { testConfig, useTestApp, type TestContext } from '../../test/context.ts';
import { createUser } from '../../test/fixtures.ts';

const LISTED = 'https://bi.empresa.com.br';
const ALSO_LISTED = 'http://localhost:5173';
const UNLISTED = 'https://outro.exemplo.com';

const preflight = (ctx: TestContext, origin: string, url = '/api/paineis') =>
  ctx.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

describe('CORS with no CORS_ORIGINS (the default): closed', () => {
  const ctx = useTestApp({ config: testConfig() });

  it('has no origins configured', () => {
    expect(ctx.config.corsOrigins).toEqual([]);
  });

  it('answers a preflight from any origin without a single Access-Control-* header', async () => {
    for (const origin of [UNLISTED, LISTED]) {
      const res = await preflight(ctx, origin);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(corsHeaders(res.headers)).toEqual([]);
    }
  });

  it('answers a cross-origin call (the token is valid) without allowing the origin to read it', async () => {
    const token = await ctx.tokenFor(await createUser(ctx.db));
    const res = await ctx.request('GET', '/api/paineis', { token, headers: { origin: UNLISTED } });
    expect(res.statusCode).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
  });
});

describe('CORS with CORS_ORIGINS set: exactly those origins', () => {
  const ctx = useTestApp({ config: testConfig({ CORS_ORIGINS: `${LISTED}, ${ALSO_LISTED}/` }) });

  it('keeps the origins as browsers send them', () => {
    expect(ctx.config.corsOrigins).toEqual([LISTED, ALSO_LISTED]);
  });

  it.each([LISTED, ALSO_LISTED])(
    'answers the preflight of a listed origin (%s), without credentials',
    async (origin) => {
      const res = await preflight(ctx, origin);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(res.headers['access-control-allow-methods'])).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
      expect(String(res.headers['access-control-allow-headers'])).toBe('authorization, content-type');
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(String(res.headers.vary)).toMatch(/origin/i);
    },
  );

  it.each([UNLISTED, `${LISTED}.exemplo.com`, 'http://bi.empresa.com.br', 'https://bi.empresa.com.br:8443', 'null'])(
    'gives an unlisted origin (%s) no Access-Control-Allow-Origin, on the preflight or the call',
    async (origin) => {
      const res = await preflight(ctx, origin);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(corsHeaders(res.headers)).toEqual([]);
      const token = await ctx.tokenFor(await createUser(ctx.db));
      const call = await ctx.request('GET', '/api/paineis', { token, headers: { origin } });
      expect(call.statusCode).toBe(200);
      expect(call.headers['access-control-allow-origin']).toBeUndefined();
    },
  );

  it('lets a listed origin read the answers of real calls, errors included', async () => {
    const token = await ctx.tokenFor(await createUser(ctx.db));
    const ok = await ctx.request('GET', '/api/paineis', { token, headers: { origin: LISTED } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(LISTED);
    expect(ok.headers['access-control-expose-headers']).toBe('retry-after');
    const denied = await ctx.request('GET', '/api/paineis', { headers: { origin: LISTED } });
    expect(denied.statusCode).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe(LISTED);
  });

  it('sends no CORS header to a request without Origin (same origin, curl)', async () => {
    const res = await ctx.request('GET', '/healthz');
    expect(corsHeaders(res.headers)).toEqual([]);
  });
});

describe('CORS_ORIGINS at start-up', () => {
  it.each([
    ['*', "'*' não é aceito"],
    ['https://bi.empresa.com.br/portal', 'https://bi.empresa.com.br/portal'],
    ['bi.empresa.com.br', "'bi.empresa.com.br' não é uma origem http(s)"],
    ['ftp://bi.empresa.com.br', "'ftp://bi.empresa.com.br' não é uma origem http(s)"],
    ['https://bi.empresa.com.br?x=1', 'https://bi.empresa.com.br?x=1'],
    ['https://usuario:senha@bi.empresa.com.br', 'não é uma origem http(s)'],
    [`${LISTED},https://`, "'https://' não é uma origem http(s)"],
  ])('refuses %s with a message naming it', (value, message) => {
    let error: unknown;
    try {
      testConfig({ CORS_ORIGINS: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('CORS_ORIGINS: ');
    expect((error as ConfigError).message).toContain(message);
  });

  it('accepts upper case, default ports, a trailing slash and repeats, and keeps each origin once', () => {
    expect(
      testConfig({ CORS_ORIGINS: ' HTTPS://BI.Empresa.com.br:443/ ,https://bi.empresa.com.br,http://127.0.0.1:8080,' })
        .corsOrigins,
    ).toEqual([LISTED, 'http://127.0.0.1:8080']);
  });
});
