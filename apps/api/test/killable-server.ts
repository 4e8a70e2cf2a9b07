import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../src/config/env.ts';
import { freePort, type ServerProcess } from './server-process.ts';

/** A real API process, as server-process.ts starts one, that a test may also kill outright (SIGKILL). */
export interface KillableServer extends ServerProcess {
  pid: number;
  /** How long it took from spawn to the first /readyz 200. */
  readyAfterMs: number;
  /** SIGKILL: no graceful stop, no flush, no close. Resolves once it has exited. */
  kill(): Promise<void>;
  /** Resolves once it has exited, whichever way. */
  exited: Promise<void>;
}

/**
 * Starts `node --import tsx apps/api/src/server.ts` with exactly `env` (plus PATH and HOME) on a free loopback
 * port and resolves once `/readyz` answers 200. Rejects when the process exits first or is not ready by the
 * deadline (it is killed then); `onSpawn` sees it before that, so a caller can print or kill it whatever happens.
 */
export async function startKillableServer(
  env: Record<string, string>,
  { readyWithinMs = 20_000, onSpawn }: { readyWithinMs?: number; onSpawn?: (server: KillableServer) => void } = {},
): Promise<KillableServer> {
  const port = String(await freePort());
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
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const exited = new Promise<void>((resolve) => {
    if (gone()) resolve();
    else child.once('exit', () => resolve());
  });
  const kill = async () => {
    if (!gone()) child.kill('SIGKILL');
    await exited;
  };

  const server: KillableServer = {
    url,
    pid: child.pid!,
    readyAfterMs: 0,
    exited,
    kill,
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
    stop: async () => {
      if (gone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  onSpawn?.(server);

  const deadline = started + readyWithinMs;
  for (;;) {
    if (gone()) {
      throw new Error(`o servidor saiu (${child.exitCode ?? child.signalCode}) antes de ficar pronto em ${url}`);
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
      await kill();
      throw new Error(`o servidor não ficou pronto em ${readyWithinMs} ms em ${url}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
