import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConnectionError, postgresProjectWanted, postgresReachable, withoutPassword } from './postgres.mjs';
import { freePort } from './server-process.mjs';

const CI_MESSAGE_START = 'CI=true e nenhum servidor PostgreSQL aceitou conexão em ';
const CI_MESSAGE_END =
  'Em CI os testes no PostgreSQL não podem ser pulados: inicie o servidor, aponte TEST_DATABASE_URL para ele ' +
  'ou, para rodar só no PGlite, defina TEST_SKIP_POSTGRES=true.';

describe('postgresReachable', () => {
  let closedUrl = '';
  /** Accepts TCP connections and says nothing: a port that answers is not yet a PostgreSQL server. */
  const sockets = new Set();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  let silentUrl = '';

  beforeAll(async () => {
    closedUrl = `postgres://postgres@127.0.0.1:${await freePort()}/test`;
    await new Promise((resolve) => silent.listen(0, '127.0.0.1', () => resolve(undefined)));
    silentUrl = `postgres://postgres@127.0.0.1:${silent.address().port}/test`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(() => resolve(undefined)));
  });

  it('is false, with the reason, where nothing listens', async () => {
    expect(await postgresReachable(closedUrl)).toBe(false);
    expect(await postgresConnectionError(closedUrl)).toMatch(/ECONNREFUSED/);
  });

  it('is false within its timeout where a port answers but no PostgreSQL speaks', async () => {
    const started = Date.now();
    expect(await postgresReachable(silentUrl, 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('postgresProjectWanted', () => {
  const url = 'postgres://postgres:segredo@127.0.0.1:1/test';
  const down = async () => 'connect ECONNREFUSED 127.0.0.1:1';
  const up = async () => null;

  it('runs the project whenever a server answers, in CI or not', async () => {
    expect(await postgresProjectWanted({ env: {}, url, probe: up })).toBe(true);
    expect(await postgresProjectWanted({ env: { CI: 'true' }, url, probe: up })).toBe(true);
  });

  it('skips the project outside CI when no server answers', async () => {
    expect(await postgresProjectWanted({ env: {}, url, probe: down })).toBe(false);
    expect(await postgresProjectWanted({ env: { CI: 'false' }, url, probe: down })).toBe(false);
  });

  it('fails in CI when no server answers, naming the URL tried (password masked) and the reason', async () => {
    await expect(postgresProjectWanted({ env: { CI: 'true' }, url, probe: down })).rejects.toThrow(
      `${CI_MESSAGE_START}postgres://postgres:***@127.0.0.1:1/test (connect ECONNREFUSED 127.0.0.1:1). ${CI_MESSAGE_END}`,
    );
  });

  it('fails in CI with the real probe against a port where nothing listens', async () => {
    const closed = `postgres://postgres@127.0.0.1:${await freePort()}/test`;
    await expect(postgresProjectWanted({ env: { CI: 'true' }, url: closed })).rejects.toThrow(
      `${CI_MESSAGE_START}${closed} (connect ECONNREFUSED`,
    );
  });

  it('skips the project with TEST_SKIP_POSTGRES=true, even in CI, without trying to connect', async () => {
    let probed = false;
    const probe = async () => {
      probed = true;
      return 'não deveria ser chamado';
    };
    expect(await postgresProjectWanted({ env: { CI: 'true', TEST_SKIP_POSTGRES: 'true' }, url, probe })).toBe(false);
    expect(probed).toBe(false);
  });
});

describe('withoutPassword', () => {
  it('masks only the password', () => {
    expect(withoutPassword('postgres://app:segredo@db:5432/paineis')).toBe('postgres://app:***@db:5432/paineis');
    expect(withoutPassword('postgres://postgres@127.0.0.1:5432/test')).toBe('postgres://postgres@127.0.0.1:5432/test');
  });
});
