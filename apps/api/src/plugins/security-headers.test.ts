import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from '../../test/context.ts';

const csp = (headers: Record<string, unknown>) => String(headers['content-security-policy']);

const dist = mkdtempSync(path.join(tmpdir(), 'paineis-headers-web-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

describe('headers on every answer: nobody frames the portal, no referrer leaves it, no X-Powered-By', () => {
  const ctx = useTestApp({ config: testConfig({ WEB_DIST_DIR: dist }) });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const answers: [string, 'GET' | 'POST' | 'HEAD', string, number, Record<string, string>?][] = [
    ['a page of the web app', 'GET', '/login', 200],
    ['/login?token= (where a Microsoft sign-in lands)', 'GET', '/login?token=abc', 200],
    ['HEAD on a page', 'HEAD', '/visualizar/3', 200],
    ['a built asset', 'GET', '/assets/index-abc123.js', 200],
    ['a static file', 'GET', '/favicon.svg', 200],
    ['a missing file', 'GET', '/nao-existe.png', 404],
    ['an unknown API route', 'GET', '/api/nao-existe', 404],
    ['an API call without a token', 'GET', '/api/paineis', 401],
    ['an API call with a bad body', 'POST', '/api/auth/login', 400, { 'content-type': 'application/json' }],
    ['the health check', 'GET', '/healthz', 200],
    ['the API docs page', 'GET', '/api/docs', 200],
    ['the API docs redirect', 'GET', '/api/docs/static/index.html', 302],
    ['the OpenAPI document', 'GET', '/api/docs/json', 200],
    ['the API docs assets', 'GET', '/api/docs/static/swagger-ui.css', 200],
  ];

  it.each(answers)('%s (%s %s → %i)', async (_name, method, url, status, headers) => {
    const res = await ctx.app.inject({
      method,
      url,
      headers,
      ...(method === 'POST' ? { payload: '{"usuario":' } : {}),
    });
    expect(res.statusCode).toBe(status);
    const policy = csp(res.headers);
    const ancestors = policy
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d.startsWith('frame-ancestors'));
    expect(ancestors).toEqual(["frame-ancestors 'none'"]);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('still lets the portal frame the Power BI reports (frame-src), which frame-ancestors does not touch', async () => {
    const res = await ctx.request('GET', '/visualizar/3');
    expect(csp(res.headers)).toMatch(/frame-src 'self' https:\/\/app\.powerbi\.com https:\/\/\*\.powerbi\.com/);
  });
});

describe('security headers over plain HTTP (an intranet address)', () => {
  const ctx = useTestApp({ config: testConfig({ TRUST_PROXY: 'false' }) });

  it.each(['/healthz', '/api/docs/static/index.html', '/login'])(
    'sends neither HSTS nor upgrade-insecure-requests on %s, keeping the rest of the policy',
    async (url) => {
      const res = await ctx.request('GET', url);
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(csp(res.headers)).not.toContain('upgrade-insecure-requests');
      expect(csp(res.headers)).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('ignores X-Forwarded-Proto from a proxy it was not told to trust', async () => {
    const res = await ctx.request('GET', '/healthz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(csp(res.headers)).not.toContain('upgrade-insecure-requests');
  });

  it('keeps the Power BI hosts in frame-src', async () => {
    expect(csp((await ctx.request('GET', '/healthz')).headers)).toMatch(/frame-src 'self' https:\/\/app\.powerbi\.com/);
  });
});

describe('security headers behind a trusted TLS proxy', () => {
  const ctx = useTestApp({ config: testConfig({ TRUST_PROXY: 'true' }) });

  it('sends HSTS and upgrade-insecure-requests (once) when the proxy says https', async () => {
    const res = await ctx.request('GET', '/healthz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(
      csp(res.headers)
        .split(';')
        .filter((d) => d === 'upgrade-insecure-requests'),
    ).toHaveLength(1);
  });

  it('keeps the API docs on https with HSTS (their own policy never asks to upgrade)', async () => {
    const res = await ctx.request('GET', '/api/docs/static/index.html', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(csp(res.headers)).not.toContain('upgrade-insecure-requests');
  });

  it('sends neither when the proxy says http', async () => {
    const res = await ctx.request('GET', '/healthz', { headers: { 'x-forwarded-proto': 'http' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(csp(res.headers)).not.toContain('upgrade-insecure-requests');
  });
});

describe('security headers with an https PUBLIC_URL', () => {
  const ctx = useTestApp({ config: testConfig({ PUBLIC_URL: 'https://paineis.empresa.com.br' }) });

  it('sends HSTS, COOP and upgrade-insecure-requests on every answer', async () => {
    const res = await ctx.request('GET', '/healthz');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(csp(res.headers)).toContain('upgrade-insecure-requests');
  });
});
