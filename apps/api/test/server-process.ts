import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { beforeEach } from 'vitest';
import { REPO_ROOT } from '../src/config/env.ts';

/** A real API process (`node --import tsx apps/api/src/server.ts`), as `npm start` runs it, listening on loopback. */
export interface ServerProcess {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Its process id (e.g. to find the rows it claimed, named after its host and pid). */
  pid: number;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its stdout's JSON log lines so far (anything else it printed is left out). */
  logLines(): Record<string, unknown>[];
  /** SIGTERM, then SIGKILL if it has not exited within the grace time; resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGKILL: no graceful stop, no flush, no close (durability tests). Resolves once it has exited. */
  kill(): Promise<void>;
  /** Resolves once it has exited, whichever way. */
  exited: Promise<void>;
  /** How long it took from spawn to the first /readyz 200. */
  readyAfterMs: number;
}

/** Ports that were free a moment ago, all different (each is held until all are found). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', resolve);
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** A port that was free a moment ago (the process is started right after). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/**
 * Starts the server with exactly this environment (plus PATH and HOME; nothing else of the test process leaks
 * in, so a DATABASE_URL or a .env-style variable of the caller cannot change what is tested) and resolves once
 * `/readyz` answers 200. Rejects, with everything the process printed, when it exits first or is not ready by
 * the deadline; the process is stopped then.
 */
export async function startServer(
  env: Record<string, string>,
  {
    readyWithinMs = 30_000,
    onSpawn,
  }: {
    readyWithinMs?: number;
    /** Sees the process before it is ready, so a caller can print or kill it whatever happens. */
    onSpawn?: (server: ServerProcess) => void;
  } = {},
): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      HOST: '127.0.0.1',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let combined = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    combined += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    combined += chunk;
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  const server: ServerProcess = {
    url,
    pid: child.pid!,
    output: () => combined,
    logLines: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    stop: () => stopProcess(child, exited),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    exited,
    readyAfterMs: 0,
  };
  onSpawn?.(server);

  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `o servidor saiu (${child.exitCode ?? child.signalCode}) antes de ficar pronto em ${url}:\n${combined}`,
      );
    }
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.status === 200) {
        server.readyAfterMs = Date.now() - started;
        return server;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`o servidor não ficou pronto em ${readyWithinMs} ms em ${url}:\n${combined}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopProcess(child: ChildProcess, exited: Promise<void>, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Prints what the given servers wrote when a test of this file fails, and nothing otherwise. */
export function printServerOutputOnFailure(servers: () => (ServerProcess | undefined)[]) {
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(() => {
      for (const server of servers()) {
        if (!server) continue;
        process.stderr.write(`\n--- ${server.url} (falhou: ${task.name}) ---\n${server.output()}\n`);
      }
    });
  });
}

/** A JSON request to a server, with a bearer token when given. */
export async function call(
  server: ServerProcess,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<{ status: number; json: <T = any>() => T; text: string }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}
