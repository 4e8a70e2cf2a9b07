import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, printServerOutputOnFailure, startServer, type ServerProcess } from './server-process.ts';

/**
 * docs/SECURITY.md, accounts that outlive their mode, as `npm start` runs the portal: one data folder started in demo
 * mode, then outside it, then in demo mode again. The second start takes the demo accounts away and says so in its
 * log; the third refuses to start and says why. The engine does not matter here, so only on PGlite.
 */

const ADMIN = { username: 'admin.local', password: 'senha-do-admin-local-123' };
const JWT_SECRET = 'segredo-de-sessao-do-teste-de-modos-0123456789';
/** A demo start loads its 90 days of history: slow on a busy machine. */
const READY = { readyWithinMs: 60_000 };

describe.skipIf(inject('database') !== 'pglite')('one data folder started in demo mode, then configured', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  let refused = '';
  printServerOutputOnFailure(() => [server]);

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'paineis-modos-'));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'the configured start disables the demo accounts and logs it; demo mode then refuses to start',
    { timeout: 240_000 },
    async () => {
      // The same secret throughout, so that the demo's token would still verify after the restart.
      server = await startServer(
        { DATA_DIR: dataDir, JWT_SECRET, GRAPH_SYNC_INTERVAL_MINUTES: '0', LOG_LEVEL: 'warn' },
        READY,
      );
      const demo = await call(server, 'POST', '/api/auth/login', {
        body: { username: 'demo.admin', password: 'demo' },
      });
      expect(demo.status).toBe(200);
      const demoToken = demo.json<{ token: string }>().token;
      await server.stop();

      server = await startServer(
        {
          DATA_DIR: dataDir,
          JWT_SECRET,
          DEMO_MODE: 'false',
          PORTAL_ADMIN_USERNAME: ADMIN.username,
          PORTAL_ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: 'info',
        },
        READY,
      );
      expect(
        (await call(server, 'POST', '/api/auth/login', { body: { username: 'demo.admin', password: 'demo' } })).status,
      ).toBe(401);
      expect((await call(server, 'GET', '/api/paineis', { token: demoToken })).status).toBe(401);
      expect((await call(server, 'POST', '/api/auth/login', { body: ADMIN })).status).toBe(200);
      // Log lines reach stdout in blocks, up to a second late (lib/log-destination.ts): the stop flushes them.
      await server.stop();
      const retired = server.logLines().find((l) => String(l.msg).startsWith('fora do modo demonstração: '));
      expect(retired).toMatchObject({ level: 40, accounts: ['demo.admin', 'demo.usuario'] });
      expect(String(retired!.msg)).toMatch(
        /^fora do modo demonstração: 2 contas de demonstração desativadas e sem senha \(demo\.admin, demo\.usuario\), com as sessões encerradas; \d+ pessoas dos dados de demonstração desativadas$/,
      );
      server = undefined;

      await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, READY).then(
        (started) => {
          server = started;
          throw new Error('o modo demonstração começou num banco já usado fora dele');
        },
        (error: unknown) => {
          refused = String(error);
        },
      );
      expect(refused).toContain(
        'Modo demonstração recusado: este banco de dados já foi usado fora do modo demonstração',
      );
      // It stopped before anything of the demo: no stand-ins, no token printed.
      expect(refused).not.toContain('Token de administrador');
    },
  );
});
