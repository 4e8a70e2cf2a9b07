import { describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from '../../test/context.ts';

const csp = (headers: Record<string, unknown>) => String(headers['content-security-policy']);

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
