import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REQUEST_LINE } from '../src/lib/request-log.ts';
import { call, printServerOutputOnFailure, startServer, type ServerProcess } from './server-process.ts';

/**
 * The server writes its log asynchronously, in blocks (lib/log-destination.ts): a real server process answers N
 * requests, gets SIGTERM at once (its last lines still in memory, well before the periodic flush), and its stdout
 * must hold exactly one line per request, none lost and none twice, then the stop's own line.
 */

const REQUESTS = 400;
const IN_FLIGHT = 8;
const ADMIN = { username: 'admin.registros', password: 'senha-do-admin-dos-registros-123' };

describe.skipIf(inject('database') !== 'pglite')('request lines of a real server stopped with SIGTERM', () => {
  let dataDir: string | undefined;
  let server: ServerProcess | undefined;
  printServerOutputOnFailure(() => [server]);

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'paineis-request-log-'));
    server = await startServer({
      DATA_DIR: dataDir,
      JWT_SECRET: 'segredo-de-sessao-dos-registros-0123456789',
      DEMO_MODE: 'false',
      PORTAL_ADMIN_USERNAME: ADMIN.username,
      PORTAL_ADMIN_PASSWORD: ADMIN.password,
      GRAPH_SYNC_INTERVAL_MINUTES: '0',
      LOG_LEVEL: 'info',
    });
  });

  afterAll(async () => {
    await server?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes one line per request, every one of them, before it exits', { timeout: 60_000 }, async () => {
    const s = server!;
    const login = await call(s, 'POST', '/api/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    const token = login.json<{ token: string }>().token;

    // A few routes, with and without a person, answered 200 and 404.
    const paths = ['/api/paineis', '/api/classificacoes', '/api/paineis/999999', '/api/paineis?busca=x'];
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < REQUESTS) {
          const i = next++;
          statuses.push((await call(s, 'GET', paths[i % paths.length]!, { token })).status);
        }
      }),
    );
    expect(statuses).toHaveLength(REQUESTS);

    await s.stop();
    const lines = s.logLines();
    const requestLines = lines.filter((l) => l.msg === REQUEST_LINE && l.route !== '/readyz');
    // The sign-in, then the N requests.
    expect(requestLines).toHaveLength(REQUESTS + 1);
    expect(new Set(requestLines.map((l) => l.reqId)).size).toBe(REQUESTS + 1);
    const [signIn, ...rest] = requestLines;
    expect(signIn).toMatchObject({ method: 'POST', route: '/api/auth/login', status: 200 });
    const userId = rest[0]!.userId;
    expect(userId).toEqual(expect.any(String));
    for (const line of rest) {
      expect(line).toMatchObject({
        level: 30,
        method: 'GET',
        route: expect.stringMatching(/^\/api\/(paineis|classificacoes|paineis\/:id)$/),
        status: expect.any(Number),
        responseTime: expect.any(Number),
        userId,
      });
    }
    expect(rest.filter((l) => l.route === '/api/paineis/:id').map((l) => l.status)).toEqual(
      Array(REQUESTS / paths.length).fill(404),
    );
    expect(lines.at(-1)).toMatchObject({ msg: 'encerrando', signal: 'SIGTERM' });
  });
});
