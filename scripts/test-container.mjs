#!/usr/bin/env node
// The container test (npm run test:container): builds the image from the Dockerfile and runs it as organisations
// deploy it.
//   1. The image alone, on the embedded database in a volume: it starts, /readyz answers, the bootstrap
//      administrator signs in and lists the panels, the web app is served; a classification made before a restart
//      is still there in a new container on the same volume; the user is not root, tini is PID 1 and passes SIGTERM
//      on (the server stops by itself, not killed), and the image's healthcheck turns healthy.
//   2. compose.yaml with PostgreSQL and two replicas: a change on one replica is seen on the other; with one
//      stopped the other still answers with every change, and the stopped one comes back with them all.
// It reports the image's size, then removes its containers, volumes and networks, even when a step fails.
//
// Docker is installed and started when missing (scripts/lib/docker.mjs); the official base images' names are made
// locally when no registry answers (scripts/lib/base-images.mjs). Outside CI, when Docker can't be had, it says why
// and skips; under CI=true that is a failure.
//
//   node scripts/test-container.mjs
//   DOCKER_BUILD_CA=<bundle>   the CA bundle given to the build as the secret 'ca' (default: the system's bundle)
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { ensureBaseImages } from './lib/base-images.mjs';
import { docker, dockerClient, ensureDocker } from './lib/docker.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true';
const runId = randomBytes(3).toString('hex');
const prefix = `paineis-ct-${runId}`;
const image = 'paineis:container-test';
const work = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
const adminUser = 'admin.conteiner';
const adminPassword = randomBytes(12).toString('hex');
const startedAt = Date.now();

/** @type {{ name: string, ok: boolean, detail: string }[]} */
const checks = [];
/** @type {{ phase: string, seconds: number }[]} */
const timings = [];
/** @type {(() => void)[]} */
const cleanups = [];
/** Containers whose log is shown when a check fails. */
const watched = new Set();

const log = (line) => console.log(line);
const seconds = (since) => Math.round((Date.now() - since) / 100) / 10;

/**
 * Records a check; a failed one is printed at once with its detail.
 * @param {string} name
 * @param {boolean} ok
 * @param {string} [detail]
 */
function check(name, ok, detail = '') {
  checks.push({ name, ok, detail });
  log(`  ${ok ? '✓' : '✗'} ${name}${detail ? ` (${detail})` : ''}`);
  return ok;
}

/**
 * A docker command that must succeed; throws with its error output otherwise.
 * @param {string[]} args
 * @param {Parameters<typeof docker>[1]} [options]
 */
function mustDocker(args, options) {
  const result = docker(args, { timeoutMs: 120_000, ...options });
  if (result.status !== 0) throw new Error(`docker ${args.join(' ')}: ${result.stderr.trim() || result.status}`);
  return result.stdout.trim();
}

/** A TCP port free on 127.0.0.1 right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * A request to the portal: its status and JSON (or text) body; never throws (status 0 when nothing answered).
 * @param {string} base
 * @param {string} route
 * @param {{ method?: string, token?: string, body?: unknown }} [options]
 * @returns {Promise<{ status: number, body: any, type: string }>}
 */
async function call(base, route, { method = 'GET', token, body } = {}) {
  // A timer of our own: AbortSignal.timeout's does not keep the process alive, and a request left hanging with
  // nothing else pending would end the script (exit code 13) instead of failing its check.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('sem resposta em 10 s')), 10_000);
  try {
    const response = await fetch(base + route, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: abort.signal,
    });
    const type = response.headers.get('content-type') ?? '';
    const text = await response.text();
    return { status: response.status, body: type.includes('json') && text ? JSON.parse(text) : text, type };
  } catch (error) {
    return { status: 0, body: String(error), type: '' };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits until `probe` answers true, for at most `timeoutMs`; returns whether it did.
 * @param {() => Promise<boolean> | boolean} probe
 * @param {number} timeoutMs
 */
async function until(probe, timeoutMs, everyMs = 500) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Waits for /readyz 200 at `base`; returns the seconds it took, or null. */
async function ready(base, timeoutMs = 90_000) {
  const since = Date.now();
  const ok = await until(async () => (await call(base, '/readyz')).status === 200, timeoutMs);
  return ok ? seconds(since) : null;
}

/** The bootstrap administrator's token from a local sign-in at `base`, or null. */
async function signIn(base) {
  const answer = await call(base, '/api/auth/login', {
    method: 'POST',
    body: { username: adminUser, password: adminPassword },
  });
  return answer.status === 200 && answer.body?.user?.role === 'Admin' ? String(answer.body.token) : null;
}

/** The names of the active classifications at `base`. */
async function classificationNames(base, token) {
  const answer = await call(base, '/api/classificacoes', { token });
  return answer.status === 200 && Array.isArray(answer.body) ? answer.body.map((c) => c.nome) : [];
}

/** Creates a classification at `base`; whether it was created. */
async function createClassification(base, token, nome) {
  return (await call(base, '/api/classificacoes', { method: 'POST', token, body: { nome } })).status === 201;
}

/** The container's published address for its port 3000, as a base URL. */
function publishedBase(container) {
  const binding = mustDocker(['port', container, '3000/tcp']).split('\n')[0];
  return `http://${binding.replace('0.0.0.0', '127.0.0.1')}`;
}

/** A secret as Docker mounts it: readable by the container's user (uid 1000), in a folder only root enters. */
function secretFile(dir, name, content) {
  const file = path.join(dir, name);
  writeFileSync(file, `${content}\n`);
  chmodSync(file, 0o644);
  return file;
}

// --- Docker, base images, the image ---

async function prepare() {
  log('\n== Docker');
  const why = await ensureDocker({ log });
  if (why) {
    if (ci) throw new Error(`CI=true e o Docker não está disponível: ${why}`);
    log(`Teste de contêiner pulado: ${why}. (Em CI=true isto seria uma falha.)`);
    process.exit(0);
  }
  log(`  cliente ${dockerClient()}, servidor ${mustDocker(['version', '--format', '{{.Server.Version}}'])}`);

  log('\n== Imagens de base');
  let since = Date.now();
  const base = ensureBaseImages({ log });
  for (const [name, how] of Object.entries(base.made)) log(`  ${name}: ${how}`);
  timings.push({ phase: 'imagens de base', seconds: seconds(since) });

  log('\n== Build (BuildKit)');
  since = Date.now();
  const ca =
    process.env.DOCKER_BUILD_CA ??
    ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'].find((file) => existsSync(file));
  const buildLog = path.join(os.tmpdir(), 'paineis-container-build.log');
  const args = ['build', '--progress=plain', '-t', image, ...(ca ? ['--secret', `id=ca,src=${ca}`] : []), root];
  log(`  docker ${args.join(' ')} (log em ${buildLog})`);
  const built = spawnSync(dockerClient(), args, {
    env: { ...process.env, DOCKER_BUILDKIT: '1' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 30 * 60_000,
  });
  writeFileSync(buildLog, `${built.stdout ?? ''}${built.stderr ?? ''}`);
  timings.push({ phase: 'build da imagem', seconds: seconds(since) });
  if (!check('a imagem é construída', built.status === 0, built.status === 0 ? '' : `código ${built.status}`)) {
    log(readFileSync(buildLog, 'utf8').split('\n').slice(-40).join('\n'));
    throw new Error('o build falhou');
  }
  const size = Number(mustDocker(['image', 'inspect', '-f', '{{.Size}}', image]));
  const config = JSON.parse(mustDocker(['image', 'inspect', '-f', '{{json .Config}}', image]));
  return { sizeMb: Math.round(size / 1e6), config };
}

// --- 1. The image alone ---

async function imageAlone(config) {
  log('\n== A imagem sozinha, no banco embutido (PGlite num volume)');
  const since = Date.now();
  check(
    'a imagem roda como usuário não root',
    Boolean(config.User) && !['root', '0', '0:0'].includes(config.User),
    `USER ${config.User || '(root)'}`,
  );
  const healthcheck = config.Healthcheck?.Test?.join(' ') ?? '';
  check('a imagem tem HEALTHCHECK em /readyz', healthcheck.includes('/readyz'), healthcheck.slice(0, 60));
  check('NODE_ENV=production na imagem', (config.Env ?? []).includes('NODE_ENV=production'));

  const volume = `${prefix}-data`;
  const secrets = path.join(work, 'alone');
  mkdirSync(secrets, { mode: 0o700 });
  const jwt = secretFile(secrets, 'jwt_secret', randomBytes(36).toString('base64'));
  cleanups.push(() => docker(['volume', 'rm', '-f', volume]));
  const run = (name) => {
    cleanups.push(() => docker(['rm', '-f', '-v', name]));
    watched.add(name);
    // The demo, asked for by name (NODE_ENV=production): its panels exercise the stand-ins' chunk and its packages.
    // The image's own healthcheck, probed every 2 s instead of 30 s so the test need not wait.
    mustDocker([
      'run', '-d', '--name', name, '-p', '127.0.0.1::3000', '-v', `${volume}:/data`,
      '-v', `${jwt}:/run/secrets/jwt_secret:ro`, '-e', 'JWT_SECRET_FILE=/run/secrets/jwt_secret',
      '-e', 'DEMO_MODE=true', '-e', `PORTAL_ADMIN_USERNAME=${adminUser}`, '-e', `PORTAL_ADMIN_PASSWORD=${adminPassword}`,
      '--health-interval', '2s', image,
    ]); // prettier-ignore
    return publishedBase(name);
  };

  const first = `${prefix}-alone-1`;
  let base = run(first);
  const startup = await ready(base);
  check(
    '/readyz responde 200',
    startup !== null,
    startup === null ? 'não ficou pronto em 90 s' : `pronto em ${startup} s`,
  );
  const page = await call(base, '/');
  check(
    'o mesmo processo serve o aplicativo web',
    page.status === 200 && page.type.includes('text/html') && /<script[^>]+src=/.test(String(page.body)),
    `GET / ${page.status} ${page.type}`,
  );
  let token = await signIn(base);
  check('o administrador inicial entra (login local)', token !== null);
  const panels = await call(base, '/api/paineis', { token: token ?? undefined });
  check(
    'o administrador lista os painéis',
    panels.status === 200 && Array.isArray(panels.body) && panels.body.length > 0,
    `GET /api/paineis ${panels.status}, ${Array.isArray(panels.body) ? panels.body.length : 0} painéis`,
  );
  const grouped = await call(base, '/api/paineis/agrupados', { token: token ?? undefined });
  check('e os painéis agrupados', grouped.status === 200 && Array.isArray(grouped.body), `${grouped.status}`);
  const kept = `Contêiner ${runId} antes do reinício`;
  check('uma classificação é criada', token !== null && (await createClassification(base, token, kept)));

  const user = mustDocker(['exec', first, 'id', '-u']);
  check('o processo roda com um usuário não root', user !== '0', `uid ${user}`);
  const init = mustDocker(['exec', first, 'cat', '/proc/1/comm']);
  check('um init (tini) é o PID 1', init === 'tini', `PID 1: ${init}`);
  const owner = mustDocker(['exec', first, 'stat', '-c', '%U', '/data']);
  check('/data pertence ao usuário node', owner === 'node', owner);
  const healthy = await until(
    () => mustDocker(['inspect', '-f', '{{.State.Health.Status}}', first]) === 'healthy',
    30_000,
    1_000,
  );
  check(
    'o healthcheck da imagem fica healthy',
    healthy,
    mustDocker(['inspect', '-f', '{{.State.Health.Status}}', first]),
  );

  const stopping = Date.now();
  mustDocker(['stop', '-t', '30', first], { timeoutMs: 60_000 });
  const exitCode = Number(mustDocker(['inspect', '-f', '{{.State.ExitCode}}', first]));
  check(
    'docker stop: o SIGTERM chega ao node, que termina sozinho',
    exitCode !== 137 && seconds(stopping) < 30,
    `código ${exitCode} em ${seconds(stopping)} s`,
  );

  const second = `${prefix}-alone-2`;
  base = run(second);
  const again = await ready(base);
  check('um novo contêiner no mesmo volume fica pronto', again !== null, again === null ? '' : `${again} s`);
  token = await signIn(base);
  const names = token ? await classificationNames(base, token) : [];
  check('o reinício mantém os dados do volume', names.includes(kept), `${names.length} classificações`);
  timings.push({ phase: 'imagem sozinha', seconds: seconds(since) });
}

// --- 2. compose.yaml: PostgreSQL and two replicas ---

async function composeWithReplicas() {
  log('\n== compose.yaml: PostgreSQL e duas réplicas');
  const since = Date.now();
  const project = path.join(work, 'compose');
  const secrets = path.join(project, 'secrets');
  mkdirSync(secrets, { recursive: true, mode: 0o700 });
  const dbPassword = randomBytes(18).toString('hex');
  secretFile(secrets, 'postgres_password', dbPassword);
  secretFile(secrets, 'database_url', `postgres://paineis:${dbPassword}@db:5432/paineis`);
  secretFile(secrets, 'jwt_secret', randomBytes(36).toString('base64'));
  // A newcomer's .env: .env.docker.example (local accounts only, no demo) with the administrator filled in.
  const example = readFileSync(path.join(root, '.env.docker.example'), 'utf8');
  const dotenv = example
    .replace(/^PORTAL_ADMIN_USERNAME=.*$/m, `PORTAL_ADMIN_USERNAME=${adminUser}`)
    .replace(/^PORTAL_ADMIN_PASSWORD=.*$/m, `PORTAL_ADMIN_PASSWORD=${adminPassword}`);
  check(
    '.env.docker.example tem DEMO_MODE=false e o administrador',
    /^DEMO_MODE=false$/m.test(dotenv) && dotenv.includes(adminPassword),
  );
  writeFileSync(path.join(project, '.env'), dotenv);
  const [port1, port2] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    PAINEIS_IMAGE: image,
    PAINEIS_PORT: `127.0.0.1:${port1}`,
    PAINEIS_REPLICA_PORT: `127.0.0.1:${port2}`,
  };
  // The repository's compose.yaml, with the project's relative paths (.env, secrets/) in the test's own folder.
  const composeArgs = ['-f', path.join(root, 'compose.yaml'), '--project-directory', project, '-p', prefix];
  const compose = (args, timeoutMs = 180_000) => {
    const result = spawnSync('docker-compose', [...composeArgs, '--profile', 'replica', ...args], {
      env,
      encoding: 'utf8',
      timeout: timeoutMs,
    });
    if (result.status !== 0) {
      throw new Error(`docker-compose ${args.join(' ')}: ${(result.stderr || String(result.error)).trim()}`);
    }
    return result.stdout.trim();
  };
  cleanups.push(() => {
    try {
      compose(['down', '-v', '--remove-orphans', '-t', '10']);
    } catch (error) {
      log(`  (limpeza do compose: ${error instanceof Error ? error.message : error})`);
    }
  });
  for (const service of ['db', 'portal', 'portal-replica']) watched.add(`${prefix}_${service}_1`);

  compose(['up', '-d', '--no-build']);
  const one = `http://127.0.0.1:${port1}`;
  const two = `http://127.0.0.1:${port2}`;
  const [ready1, ready2] = await Promise.all([ready(one, 120_000), ready(two, 120_000)]);
  check(
    'as duas réplicas ficam prontas no PostgreSQL',
    ready1 !== null && ready2 !== null,
    `${ready1} s e ${ready2} s`,
  );
  const dbHealth = mustDocker(['inspect', '-f', '{{.State.Health.Status}}', `${prefix}_db_1`]);
  check('o PostgreSQL está healthy (pg_isready)', dbHealth === 'healthy', dbHealth);

  const token1 = await signIn(one);
  const token2 = await signIn(two);
  check('o administrador inicial entra nas duas réplicas', token1 !== null && token2 !== null);
  const made = `Contêiner ${runId} na réplica 1`;
  check('uma classificação é criada na réplica 1', token1 !== null && (await createClassification(one, token1, made)));
  const seen = await until(async () => (await classificationNames(two, token2)).includes(made), 5_000, 250);
  check('a réplica 2 vê a mudança da réplica 1', seen);

  compose(['stop', '-t', '20', 'portal']);
  const alone = await classificationNames(two, token2);
  check(
    'com a réplica 1 parada, a réplica 2 responde com os dados',
    alone.includes(made),
    `${alone.length} classificações`,
  );
  const whileDown = `Contêiner ${runId} com a réplica 1 parada`;
  check(
    'a réplica 2 aceita mudanças com a réplica 1 parada',
    token2 !== null && (await createClassification(two, token2, whileDown)),
  );
  compose(['start', 'portal']);
  const back = await ready(one, 90_000);
  const after = back === null ? [] : await classificationNames(one, token1);
  check(
    'a réplica 1 volta com todos os dados (nada se perdeu)',
    after.includes(made) && after.includes(whileDown),
    `${after.length} classificações`,
  );
  timings.push({ phase: 'compose', seconds: seconds(since) });
}

// --- Run, clean up, summarise ---

function cleanUp() {
  while (cleanups.length > 0) {
    try {
      cleanups.pop()?.();
    } catch {
      // Best effort: the next one still runs.
    }
  }
  rmSync(work, { recursive: true, force: true });
}

// Whatever ends the process (an exception that escapes, process.exit), nothing of the test is left behind.
process.on('exit', cleanUp);
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    log(`\n${signal}: removendo contêineres, volumes e redes do teste...`);
    cleanUp();
    process.exit(130);
  });
}

let sizeMb = 0;
let failure = null;
// Keeps the process alive until the summary, whatever the steps await.
const keepAlive = setInterval(() => {}, 60_000);
try {
  const built = await prepare();
  sizeMb = built.sizeMb;
  await imageAlone(built.config);
  await composeWithReplicas();
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
  check('o teste chega ao fim', false, failure);
}
clearInterval(keepAlive);
const failed = checks.filter((c) => !c.ok);
if (failed.length > 0) {
  for (const name of watched) {
    const logs = docker(['logs', '--tail', '30', name]);
    if (logs.status === 0) log(`\n--- docker logs ${name} (últimas linhas)\n${logs.stdout}${logs.stderr}`);
  }
}
const cleaning = Date.now();
cleanUp();
timings.push({ phase: 'limpeza', seconds: seconds(cleaning) });

log('\n== Resumo do teste de contêiner');
if (sizeMb) log(`  imagem ${image}: ${sizeMb} MB`);
log(`  tempos: ${timings.map((t) => `${t.phase} ${t.seconds} s`).join(', ')}; total ${seconds(startedAt)} s`);
log(`  ${checks.length - failed.length} de ${checks.length} verificações passaram`);
for (const c of failed) log(`  ✗ ${c.name}${c.detail ? ` (${c.detail})` : ''}`);
log(failed.length === 0 ? '  PASSOU' : '  FALHOU');
process.exit(failed.length === 0 ? 0 : 1);
