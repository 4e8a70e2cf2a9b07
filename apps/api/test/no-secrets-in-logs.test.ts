import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_ADMIN } from '../src/demo/demo-data.ts';
import { REQUEST_LINE } from '../src/lib/request-log.ts';
import { call, printServerOutputOnFailure, startServer, type ServerProcess } from './server-process.ts';

/**
 * Everything a real server writes during the flows that handle tokens and secrets, read as an attacker with
 * the logs would: a Microsoft sign-in through the stand-in (ending on /login?token=<session JWT>, which the
 * browser then asks the server for), a refused Microsoft callback, a local sign-in, API calls with the bearer
 * token, a sign-out, a failed sign-in and invalid tokens. No JWT, no bearer credential, no secret may appear,
 * and the request lines must be there (a server logging nothing would pass otherwise).
 *
 * The demo prints two ready tokens and a curl example on purpose, as plain lines at start (not log lines):
 * the demo accounts' password is public (`demo`), so they open nothing that is not open already. Exactly
 * those three lines are left out of the search, and checked to be what they should be.
 */

const JWT_SECRET = 'segredo-de-sessao-do-teste-de-logs-0123456789';
/** The stand-ins' client secret in demo mode (packages/microsoft-stand-ins, startStandIns). */
const STAND_IN_CLIENT_SECRET = 'segredo-demo';
const WRONG_PASSWORD = 'senha-errada-que-nao-pode-aparecer';
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./;
const JWT_ONLY = /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const setCookie = (response: Response) => response.headers.getSetCookie().map((c) => c.split(';')[0]!);

describe.skipIf(inject('database') !== 'pglite')('what a real server logs while handling tokens', () => {
  let dataDir: string | undefined;
  let server: ServerProcess | undefined;
  printServerOutputOnFailure(() => [server]);
  /** Every credential handed out or sent during the flows. */
  const seen: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'paineis-logs-'));
    // Demo mode (no Microsoft configuration): the stand-ins play Entra ID, Graph and Power BI.
    server = await startServer({
      DATA_DIR: dataDir,
      JWT_SECRET,
      LOG_LEVEL: 'info',
      GRAPH_SYNC_INTERVAL_MINUTES: '0',
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function microsoftSignIn(): Promise<string> {
    const base = server!.url;
    const start = await fetch(`${base}/api/auth/microsoft-login`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const cookies = setCookie(start);
    const authorize = new URL(start.headers.get('location')!);
    const page = await fetch(authorize, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
    const requestId = /name="request" value="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(`value="${DEMO_ADMIN.id}"`);
    const chosen = await fetch(new URL(action, authorize), {
      method: 'POST',
      body: new URLSearchParams({ request: requestId, person: DEMO_ADMIN.id }),
      redirect: 'manual',
    });
    expect(chosen.status).toBe(302);
    const callback = new URL(chosen.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(`${base}/api/auth/microsoft-callback`);
    seen.push(callback.searchParams.get('code')!, callback.searchParams.get('state')!);
    const back = await fetch(callback, { headers: { cookie: cookies.join('; ') }, redirect: 'manual' });
    expect(back.status).toBe(302);
    const landing = new URL(back.headers.get('location')!);
    expect(landing.origin + landing.pathname).toBe(`${base}/login`);
    const token = landing.searchParams.get('token')!;
    expect(token).toMatch(JWT_ONLY);
    // The browser follows the redirect: the server gets /login?token=... as a request line.
    const login = await fetch(landing, { headers: { accept: 'text/html' } });
    await login.body?.cancel();
    return token;
  }

  it('logs every request, and no JWT, bearer credential or secret', async () => {
    const s = server!;

    // Microsoft sign-in, and the token it gives working.
    const microsoftToken = await microsoftSignIn();
    seen.push(microsoftToken);
    expect((await call(s, 'GET', '/api/paineis/agrupados', { token: microsoftToken })).status).toBe(200);

    // A Microsoft callback that does not match its sign-in (state and code of nobody's): refused, logged as such.
    const start = await fetch(`${s.url}/api/auth/microsoft-login`, { redirect: 'manual' });
    const refused = await fetch(
      `${s.url}/api/auth/microsoft-callback?code=codigo-forjado-123&state=estado-forjado-456`,
      {
        headers: { cookie: setCookie(start).join('; ') },
        redirect: 'manual',
      },
    );
    expect(refused.status).toBe(302);
    expect(refused.headers.get('location')).toBe(`${s.url}/login?erro=microsoft`);
    seen.push('codigo-forjado-123', 'estado-forjado-456');

    // A local sign-in, calls with its token, and a sign-out.
    const login = await call(s, 'POST', '/api/auth/login', { body: { username: 'demo.admin', password: 'demo' } });
    expect(login.status).toBe(200);
    const token = login.json<{ token: string }>().token;
    seen.push(token);
    expect((await call(s, 'GET', '/api/paineis', { token })).status).toBe(200);
    expect((await call(s, 'GET', '/api/classificacoes', { token })).status).toBe(200);
    expect((await call(s, 'GET', '/api/paineis/proxima-ordem', { token })).status).toBe(200);
    expect((await call(s, 'POST', '/api/auth/logout-complete', { token })).status).toBe(204);

    // A failed sign-in, the revoked token, a forged one, garbage, and a token sent in the address.
    expect(
      (await call(s, 'POST', '/api/auth/login', { body: { username: 'demo.admin', password: WRONG_PASSWORD } })).status,
    ).toBe(401);
    expect((await call(s, 'GET', '/api/paineis', { token })).status).toBe(401);
    const forged = `${token.split('.').slice(0, 2).join('.')}.assinaturaforjadaassinaturaforjada`;
    expect((await call(s, 'GET', '/api/paineis', { token: forged })).status).toBe(401);
    expect((await call(s, 'GET', '/api/paineis', { token: 'nao-e-um-jwt' })).status).toBe(401);
    expect((await call(s, 'GET', `/api/paineis?access_token=${microsoftToken}`)).status).toBe(401);

    // Everything written, once the server has stopped (nothing left in its buffers).
    await s.stop();
    const lines = s.output().split('\n');

    // The demo's start-up banner: the two ready tokens and the curl example, left out by position and content.
    const printed = (label: string) => {
      const at = lines.findIndex((line) => line.startsWith(label));
      expect(at, `linha "${label}"`).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1]).toMatch(JWT_ONLY);
      return at + 1;
    };
    const banner = new Set([
      printed('Token de administrador ('),
      printed('Token de usuário ('),
      lines.findIndex((line) => line.startsWith('Exemplo: curl -H "Authorization: Bearer <token>" http://')),
    ]);
    expect(banner.size).toBe(3);
    expect([...banner].every((i) => i >= 0)).toBe(true);
    const searched = lines.filter((_line, i) => !banner.has(i)).join('\n');

    expect(searched).not.toMatch(JWT_LIKE);
    expect(searched).not.toMatch(/Bearer /i);
    expect(searched).not.toContain(JWT_SECRET);
    expect(searched).not.toContain(STAND_IN_CLIENT_SECRET);
    expect(searched).not.toContain(WRONG_PASSWORD);
    for (const value of seen) expect(searched).not.toContain(value);

    // ...and yet the request lines are all there, one per request, each with its route (or a page's path) and
    // never a query string: the addresses' tokens, codes and states are not redacted but never written.
    const logLines = s.logLines();
    const requestLines = logLines.filter((l) => l.msg === REQUEST_LINE);
    const requested = requestLines.map((l) => (l.route ?? l.path) as string);
    expect(requested).toEqual(
      expect.arrayContaining([
        '/api/auth/microsoft-login',
        '/api/auth/microsoft-callback',
        '/login',
        '/api/paineis/agrupados',
        '/api/auth/login',
        '/api/auth/logout-complete',
        '/api/paineis',
      ]),
    );
    expect(requested.filter((r) => r.includes('?'))).toEqual([]);
    for (const line of requestLines)
      expect(line).toMatchObject({ status: expect.any(Number), reqId: expect.any(String) });
    expect(logLines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
    expect(logLines.some((l) => l.msg === 'login Microsoft')).toBe(true);
    expect(logLines.some((l) => l.msg === 'login Microsoft recusado')).toBe(true);
  });
});
