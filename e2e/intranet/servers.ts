// What the intranet journeys start for themselves: a demo-mode portal trusting its proxy, nginx in front of it with
// a self-signed certificate, each in a temporary folder of its own, and each stopped (and its folder removed) after.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
export const NGINX = '/usr/sbin/nginx';
const OPENSSL = '/usr/bin/openssl';
/** The nginx site this folder proves, the one the README's Deploying section quotes. */
export const NGINX_TEMPLATE = path.join(here, 'paineis.conf.template');

// Whatever happens to the worker, nothing it started outlives it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A port nobody listens on at this moment, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('porta'))));
    });
  });
}

/**
 * Debian's nginx (and openssl, for the certificate), installed with apt-get when missing, as the test command does
 * for Chromium. Bounded: each apt-get step gets 150 s at most. The package's own service is never used here (where
 * no policy-rc.d forbids it, Debian's postinst starts it on port 80 if that is free; if that start fails, apt-get
 * reports an error although the program is installed, which is all these tests need).
 */
export function ensureNginxAndOpenssl() {
  const installed = () => existsSync(NGINX) && existsSync(OPENSSL);
  const missing = [...(existsSync(NGINX) ? [] : ['nginx']), ...(existsSync(OPENSSL) ? [] : ['openssl'])];
  if (missing.length === 0) return;
  if (!existsSync('/usr/bin/apt-get')) throw new Error(`${missing.join(' e ')} não instalado(s), e não há apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) => {
    const result = spawnSync('apt-get', args, { env, encoding: 'utf8', timeout: 150_000 });
    return result.status === 0 ? '' : `apt-get ${args.join(' ')}: ${result.status ?? result.signal}\n${result.stderr}`;
  };
  const failures = [run(['update', '-qq']), run(['install', '-y', '-qq', '--no-install-recommends', ...missing])];
  if (!installed()) throw new Error(`não foi possível instalar ${missing.join(' e ')}:\n${failures.join('\n')}`);
}

/** A folder of its own, removed by the returned function. */
export function tempFolder(prefix: string) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A self-signed certificate for `name`, valid for a day, in `dir`. */
export function selfSignedCertificate(dir: string, name: string) {
  const certificate = path.join(dir, `${name}.pem`);
  const key = path.join(dir, `${name}.key`);
  const result = spawnSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      certificate,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=DNS:${name}`,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (result.status !== 0) throw new Error(`openssl req falhou: ${result.stderr}`);
  return { certificate, key };
}

/** Fills the ${NAME} values of an nginx template, leaving nginx's own $variables alone. */
export function fillTemplate(template: string, values: Record<string, string>) {
  const filled = template.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`o modelo pede ${whole}, que não foi dado`);
    return value;
  });
  return filled;
}

interface Started {
  child: ChildProcess;
  /** What the process wrote to stderr so far (its last 8 KB), for failure messages. */
  stderr: () => string;
}

function start(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string }): Started {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-8192);
  });
  return { child, stderr: () => stderr };
}

/** Ends a process this file started: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
async function stop({ child }: Started, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Waits until `ready()` holds, failing early if the process ends and at `timeoutMs` at the latest. */
async function waitFor(what: string, started: Started, ready: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { exitCode, signalCode } = started.child;
    if (exitCode !== null || signalCode !== null) {
      throw new Error(`${what} terminou (${exitCode ?? signalCode}) antes de ficar pronto:\n${started.stderr()}`);
    }
    if (await ready()) return;
    if (Date.now() > deadline)
      throw new Error(`${what} não ficou pronto em ${timeoutMs / 1000} s:\n${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });

/** The real server, in demo mode, on 127.0.0.1:`port`, with a fresh data folder of its own. */
export async function startPortal(port: number, env: Record<string, string>) {
  const data = tempFolder('paineis-e2e-intranet-data-');
  const portal = start(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      // Nothing from the runner's environment (or a .env file, which never overrides) configures Microsoft here.
      AZURE_TENANT_ID: '',
      AZURE_CLIENT_ID: '',
      AZURE_CLIENT_SECRET: '',
      PUBLIC_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: data.dir,
      DEMO_MODE: 'true',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  try {
    await waitFor('o portal', portal, () => answers(`http://127.0.0.1:${port}/readyz`), 90_000);
  } catch (error) {
    await stop(portal);
    data.remove();
    throw error;
  }
  return {
    async stop() {
      await stop(portal);
      data.remove();
    },
  };
}

/**
 * nginx as a process of this test (not the system service): the site from the template, inside a main
 * configuration that keeps everything (pid, logs, temporary files) in a folder of its own. One process, no daemon,
 * so stopping it stops all of nginx.
 */
export async function startNginx(values: Record<string, string> & { httpsPort: string }) {
  const { httpsPort, ...site } = values;
  const folder = tempFolder('paineis-e2e-nginx-');
  const dir = folder.dir;
  writeFileSync(path.join(dir, 'paineis.conf'), fillTemplate(readFileSync(NGINX_TEMPLATE, 'utf8'), site));
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'master_process off;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 128; }',
      'http {',
      `  access_log ${dir}/access.log;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind};`),
      `  include ${dir}/paineis.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  // -e: the error log before the configuration is read, which would otherwise be the system's.
  const nginx = start(NGINX, ['-p', `${dir}/`, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`], {});
  const errorLog = () => {
    const file = path.join(dir, 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  try {
    await waitFor('o nginx', nginx, () => accepts(Number(httpsPort)), 15_000);
  } catch (error) {
    await stop(nginx);
    const log = errorLog();
    folder.remove();
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  return {
    dir,
    errorLog,
    async stop() {
      await stop(nginx);
      folder.remove();
    },
  };
}
