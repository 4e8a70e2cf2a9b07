import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, freePort, printServerOutputOnFailure, startServer, type ServerProcess } from './server-process.ts';

/**
 * Microsoft configured but out of reach when the portal starts (a firewall, a proxy, an outage): the portal
 * must start anyway, local sign-in must work, and the log must say which service is down and where.
 * One real server process; the engine does not matter here, so only on PGlite.
 */

const SECRET = 'segredo-do-cliente-que-nao-pode-aparecer-no-log';
const TENANT = '00000000-0000-4000-8000-0000000000d0';
const ADMIN = { username: 'admin.local', password: 'senha-do-admin-local-123' };

describe.skipIf(inject('database') !== 'pglite')('the portal with Microsoft configured but unreachable', () => {
  let dataDir: string | undefined;
  let server: ServerProcess | undefined;
  let closed: string;
  printServerOutputOnFailure(() => [server]);

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'paineis-microsoft-down-'));
    // Free a moment ago and nobody listens there: every connection is refused at once.
    closed = `http://127.0.0.1:${await freePort()}`;
    server = await startServer({
      DATA_DIR: dataDir,
      JWT_SECRET: 'segredo-de-sessao-com-mais-de-32-caracteres-0123',
      PORTAL_ADMIN_USERNAME: ADMIN.username,
      PORTAL_ADMIN_PASSWORD: ADMIN.password,
      AZURE_TENANT_ID: TENANT,
      AZURE_CLIENT_ID: 'paineis-cliente',
      AZURE_CLIENT_SECRET: SECRET,
      AZURE_AUTHORITY_HOST: closed,
      GRAPH_API_URL: closed,
      POWERBI_API_URL: closed,
      GRAPH_SYNC_INTERVAL_MINUTES: '0',
      LOG_LEVEL: 'info',
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, lets the local admin sign in and list panels, and logs each Microsoft service that is down', async () => {
    expect((await call(server!, 'GET', '/readyz')).status).toBe(200);
    const login = await call(server!, 'POST', '/api/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    const token = login.json<{ token: string }>().token;
    const panels = await call(server!, 'GET', '/api/paineis', { token });
    expect(panels.status).toBe(200);
    expect(panels.json()).toEqual([]);
    // Microsoft sign-in is refused politely, back to the login page.
    const microsoft = await fetch(`${server!.url}/api/auth/microsoft-login`, { redirect: 'manual' });
    expect(microsoft.status).toBe(302);
    expect(microsoft.headers.get('location')).toBe(`${server!.url}/login?erro=microsoft`);

    const expected = {
      entra: {
        url: `${closed}/${TENANT}/v2.0/.well-known/openid-configuration`,
        name: 'Entra ID',
        consequence: 'o login Microsoft não funcionará até ele responder',
      },
      graph: {
        url: `${closed}/v1.0/`,
        name: 'Microsoft Graph',
        consequence: 'a sincronização do diretório de usuários não funcionará até ele responder',
      },
      'power-bi': {
        url: `${closed}/v1.0/myorg/`,
        name: 'Power BI',
        consequence: 'os painéis não abrirão até ele responder',
      },
    };
    // The check runs after listen, in the background: wait for its lines (bounded).
    const reachabilityLines = () => server!.logLines().filter((l) => String(l.msg).includes(' inacessível em '));
    const deadline = Date.now() + 10_000;
    while (reachabilityLines().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const lines = reachabilityLines();
    expect(lines).toHaveLength(3);
    for (const [service, { url, name, consequence }] of Object.entries(expected)) {
      const host = closed.replace('http://', '');
      expect(lines.find((l) => l.service === service)).toMatchObject({
        level: 50,
        service,
        url,
        reason: `connect ECONNREFUSED ${host}`,
        msg: `${name} inacessível em ${url}: connect ECONNREFUSED ${host}; ${consequence}. O login local continua disponível.`,
      });
    }
    expect(server!.logLines().some((l) => String(l.msg).startsWith('Serviços Microsoft acessíveis'))).toBe(false);

    const output = server!.output();
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain(token);
    expect(output).not.toMatch(/bearer\s+ey/i);
  });
});
