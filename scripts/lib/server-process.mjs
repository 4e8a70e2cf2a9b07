// Starting, waiting for and stopping a server process, for the scripts that prove and measure the production
// build. Every wait is bounded.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A TCP port that is free right now on 127.0.0.1.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * This process's environment without the portal's configuration (nor NODE_OPTIONS, which could bring a
 * TypeScript loader), plus `extra`: the server sees only what the caller chose.
 * @param {Record<string, string>} extra
 * @returns {Record<string, string | undefined>}
 */
export function serverEnv(extra) {
  const portal =
    /^(PORT|HOST|LOG_LEVEL|TRUST_PROXY|WEB_DIST_DIR|DATABASE_|DATA_DIR|JWT_|AZURE_|GRAPH_|POWERBI_|PUBLIC_URL|ADMIN_EMAILS|ADMIN_USERS|RLS_USERNAME|PORTAL_ADMIN_|LOGIN_|DEMO_MODE|NODE_ENV|NODE_OPTIONS)/;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !portal.test(name)));
  return { ...env, ...extra };
}

/**
 * The environment of a compiled server in demo mode and production settings, on 127.0.0.1:`port`, with its data in
 * `dataDir`, logging warnings only: how the checks of the build start one.
 * @param {number} port
 * @param {string} dataDir
 * @returns {Record<string, string | undefined>}
 */
export function demoServerEnv(port, dataDir) {
  return serverEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_MODE: 'true',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  });
}

/**
 * Starts a server. `exited` settles with its exit code (or signal) when it ends; `output()` is what it wrote,
 * for a failure message.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env: Record<string, string | undefined> }} options
 */
export function startServer(command, args, { cwd, env }) {
  const startedAt = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, startedAt, exited, output: () => output };
}

/**
 * Polls `url` until it answers 200. Returns the milliseconds since the server started; throws when it can't.
 * @param {ReturnType<typeof startServer>} server
 * @param {string} url
 * @param {number} timeoutMs
 * @returns {Promise<number>}
 */
export async function waitUntilReady(server, url, timeoutMs) {
  let done = false;
  void server.exited.then(() => (done = true));
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (done) throw new Error(`o servidor terminou antes de ficar pronto (saída ${await server.exited})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return performance.now() - server.startedAt;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} não respondeu 200 em ${timeoutMs / 1000} s`);
}

/**
 * Sends `signal` and waits for the exit; after `timeoutMs`, kills it and throws. Returns the exit code.
 * @param {ReturnType<typeof startServer>} server
 * @param {NodeJS.Signals} [signal]
 * @param {number} [timeoutMs]
 */
export async function stopServer(server, signal = 'SIGTERM', timeoutMs = 15_000) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.exited;
  server.child.kill(signal);
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs, 'late')));
  const result = await Promise.race([server.exited, late]);
  clearTimeout(timer);
  if (result === 'late') {
    server.child.kill('SIGKILL');
    await server.exited;
    throw new Error(`o servidor não terminou em ${timeoutMs / 1000} s após ${signal}`);
  }
  return result;
}

/**
 * The resident memory of a running process in kB (VmRSS of /proc/<pid>/status), or null where there is no
 * /proc or the process has gone.
 * @param {number} pid
 * @returns {number | null}
 */
export function residentMemoryKb(pid) {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
