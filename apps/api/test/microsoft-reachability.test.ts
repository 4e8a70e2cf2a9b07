import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { MicrosoftSettings } from '../src/config/env.ts';
import {
  ALL_REACHABLE_MESSAGE,
  checkMicrosoftReachability,
  logMicrosoftReachability,
} from '../src/integrations/microsoft-reachability.ts';
import { useStandIns } from './microsoft.ts';
import { freePort } from './server-process.ts';

/** The start-up check of the Microsoft services on its own (server.ts runs it after listen). No database. */
describe.skipIf(inject('database') !== 'pglite')('the Microsoft reachability check', () => {
  const standIns = useStandIns({ people: [] });
  let silent: Server;
  let silentUrl: string;
  beforeAll(async () => {
    // Accepts connections and never answers.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  const settings = (overrides: Partial<MicrosoftSettings> = {}): MicrosoftSettings => ({
    tenantId: standIns.current.tenantId,
    clientId: standIns.current.clientId,
    clientSecret: standIns.current.clientSecret,
    authorityHost: standIns.current.authorityHost,
    graphUrl: standIns.current.graphUrl,
    powerBiApiUrl: standIns.current.powerBiApiUrl,
    ...overrides,
  });
  const recorder = () => {
    const lines: { level: 'info' | 'error'; details: object; message: string }[] = [];
    return {
      lines,
      info: (details: object, message: string) => void lines.push({ level: 'info', details, message }),
      error: (details: object, message: string) => void lines.push({ level: 'error', details, message }),
    };
  };

  it('counts any HTTP answer as reachable, and logs one info line when all three answer', async () => {
    const log = recorder();
    const results = await logMicrosoftReachability(log, settings());
    expect(results.map((r) => [r.service, r.reachable])).toEqual([
      ['entra', true],
      ['graph', true],
      ['power-bi', true],
    ]);
    // The discovery document exists; the API roots are 404 on the stand-in, which still is an answer.
    expect(results[0]!.status).toBe(200);
    expect(log.lines).toEqual([{ level: 'info', details: expect.any(Object), message: ALL_REACHABLE_MESSAGE }]);
  });

  it('logs one error line per service down, naming it, its address and why, without credentials', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const log = recorder();
    const started = Date.now();
    await logMicrosoftReachability(
      log,
      settings({ graphUrl: closed, powerBiApiUrl: silentUrl.replace('http://', 'http://usuario:senha@') }),
      { timeoutMs: 300 },
    );
    expect(Date.now() - started).toBeLessThan(3000);
    expect(log.lines).toEqual([
      {
        level: 'error',
        details: { service: 'graph', url: `${closed}/v1.0/`, reason: `connect ECONNREFUSED ${closed.slice(7)}` },
        message: `Microsoft Graph inacessível em ${closed}/v1.0/: connect ECONNREFUSED ${closed.slice(7)}; a sincronização do diretório de usuários não funcionará até ele responder. O login local continua disponível.`,
      },
      {
        level: 'error',
        details: { service: 'power-bi', url: `${silentUrl}/v1.0/myorg/`, reason: 'sem resposta em 0.3 s' },
        message: `Power BI inacessível em ${silentUrl}/v1.0/myorg/: sem resposta em 0.3 s; os painéis não abrirão até ele responder. O login local continua disponível.`,
      },
    ]);
    expect(JSON.stringify(log.lines)).not.toContain('senha');
  });

  it('names an unknown host', async () => {
    const [entra] = await checkMicrosoftReachability(settings({ authorityHost: 'http://login.invalid' }), {
      timeoutMs: 3000,
    });
    expect(entra).toMatchObject({
      service: 'entra',
      reachable: false,
      reason: expect.stringMatching(/ENOTFOUND|EAI_AGAIN|sem resposta/),
    });
  });
});
