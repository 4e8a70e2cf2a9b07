#!/usr/bin/env node
// Proves the production build the way a deployment makes it, away from this working copy:
//   1. copies the repository's files as they are now (tracked, and new ones git does not ignore) to a temp folder;
//   2. npm ci, then npm run build;
//   3. deletes node_modules and installs production dependencies only (npm ci --omit=dev), and checks that no
//      TypeScript tooling (tsx, typescript, vite) is left;
//   4. starts the compiled server (node apps/api/dist/server.js, no loader) in demo mode with a fresh data
//      folder, waits for /readyz, signs in as demo.admin, lists the panels and gets the web app's index.html;
//   5. stops it with SIGTERM (it must exit within 15 s) and removes the temp folder.
// Ends with one verdict line; exits 1 on any failure. `--keep` keeps the temp folder.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoServerEnv, freePort, startServer, stopServer, waitUntilReady } from './lib/server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];
/** The whole check stays well under five minutes, whatever hangs. */
const OVERALL_LIMIT_MS = 270_000;
const TOOLING = ['tsx', 'typescript', 'vite'];
const TOOLING_BINS = ['tsx', 'tsc', 'tsserver', 'vite'];

const started = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const work = mkdtempSync(path.join(tmpdir(), 'paineis-prod-'));
const copy = path.join(work, 'repo');
const dataDir = path.join(work, 'data');
let server = null;
const running = new Set();

function cleanUp() {
  for (const child of running) killGroup(child);
  if (server) server.child.kill('SIGKILL');
  if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const watchdog = setTimeout(() => {
  console.log(`✗ Build de produção: passou de ${OVERALL_LIMIT_MS / 1000} s; interrompido.`);
  cleanUp();
  process.exit(1);
}, OVERALL_LIMIT_MS);

/** Runs a command in the copy, in its own process group, quietly; shows its output's end when it fails. */
function run(title, command, args, timeoutMs, env = process.env) {
  const since = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: copy, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let output = '';
    const keep = (chunk) => (output = (output + chunk.toString()).slice(-6_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => killGroup(child), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      if (code === 0) {
        console.log(`  ${title} (${seconds(since)})`);
        resolve(output);
      } else {
        const why = signal ? `interrompido após ${timeoutMs / 1000} s` : `saída ${code}`;
        reject(new Error(`${title}: ${why}\n${indent(output)}`));
      }
    });
  });
}

const indent = (text) =>
  text
    .trimEnd()
    .split('\n')
    .slice(-30)
    .map((line) => `    | ${line}`)
    .join('\n');

/** The repository's files as they are in the working tree: tracked ones, and new ones git does not ignore. */
function repositoryFiles() {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`git ls-files falhou: ${listed.stderr || listed.error?.message}`);
  return [...new Set(listed.stdout.split('\0').filter(Boolean))].filter((file) => existsSync(path.join(root, file)));
}

function copyRepository() {
  const since = performance.now();
  const files = repositoryFiles();
  for (const file of files) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(copy, file), { verbatimSymlinks: true });
  }
  console.log(`  cópia de ${files.length} arquivos do repositório (${seconds(since)})`);
}

function removeNodeModules() {
  const folders = [copy, ...['apps', 'packages'].flatMap((dir) => subfolders(path.join(copy, dir)))];
  for (const folder of folders) rmSync(path.join(folder, 'node_modules'), { recursive: true, force: true });
}

const subfolders = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.join(dir, e.name))
    : [];

function assertNoTooling() {
  const bin = path.join(copy, 'node_modules', '.bin');
  const bins = existsSync(bin) ? readdirSync(bin) : [];
  const found = [
    ...TOOLING_BINS.filter((name) => bins.includes(name)).map((name) => `node_modules/.bin/${name}`),
    ...TOOLING.filter((name) => existsSync(path.join(copy, 'node_modules', name))).map((n) => `node_modules/${n}`),
  ];
  if (found.length > 0) throw new Error(`dependências de desenvolvimento instaladas em produção: ${found.join(', ')}`);
  console.log(`  sem ${TOOLING.join(', ')} em node_modules`);
}

async function expectJson(response, what) {
  const body = await response.text();
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${body.slice(0, 300)}`);
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`${what}: resposta não é JSON: ${body.slice(0, 300)}`);
  }
}

async function exerciseServer() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = demoServerEnv(port, dataDir);
  server = startServer(process.execPath, ['--enable-source-maps', 'apps/api/dist/server.js'], { cwd: copy, env });
  try {
    const ready = await waitUntilReady(server, `${base}/readyz`, 60_000);
    console.log(`  servidor compilado pronto em ${(ready / 1000).toFixed(1)} s (modo demonstração, PGlite novo)`);

    const signal = () => AbortSignal.timeout(10_000);
    const login = await expectJson(
      await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo.admin', password: 'demo' }),
        signal: signal(),
      }),
      'POST /api/auth/login',
    );
    if (typeof login.token !== 'string') throw new Error('POST /api/auth/login: sem token na resposta');
    const groups = await expectJson(
      await fetch(`${base}/api/paineis/agrupados`, {
        headers: { authorization: `Bearer ${login.token}` },
        signal: signal(),
      }),
      'GET /api/paineis/agrupados',
    );
    if (!Array.isArray(groups) || groups.length === 0) {
      throw new Error(`GET /api/paineis/agrupados: esperava uma lista não vazia, veio ${JSON.stringify(groups)}`);
    }
    const panels = groups.reduce((sum, g) => sum + (Array.isArray(g.paineis) ? g.paineis.length : 0), 0);
    console.log(`  demo.admin entrou e viu ${groups.length} classificações, ${panels} painéis`);

    const page = await fetch(`${base}/`, { signal: signal() });
    const html = await page.text();
    const built = readFileSync(path.join(copy, 'apps', 'web', 'dist', 'index.html'), 'utf8');
    if (page.status !== 200 || html !== built) {
      throw new Error(`GET /: esperava o index.html do build (HTTP ${page.status}): ${html.slice(0, 200)}`);
    }
    console.log('  GET / serve o index.html do build');
  } catch (error) {
    const output = server.output();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n  saída do servidor:\n${indent(output)}`,
    );
  }
  const since = performance.now();
  const exit = await stopServer(server, 'SIGTERM', 15_000);
  server = null;
  // A graceful stop: every request finished, the database closed, exit 0.
  if (exit !== 0) throw new Error(`após SIGTERM o servidor encerrou com saída ${exit} (${seconds(since)})`);
  console.log(`  SIGTERM: encerrou com saída 0 (${seconds(since)})`);
}

try {
  console.log(`Build de produção numa cópia do repositório (${work})`);
  copyRepository();
  // NODE_ENV as the caller has it would change what npm installs and how Vite builds: each command says what it wants.
  const installEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV'));
  await run('npm ci', 'npm', ['ci', '--include=dev', ...NPM_FLAGS], 150_000, installEnv);
  await run('npm run build', 'npm', ['run', 'build'], 120_000, installEnv);
  removeNodeModules();
  await run('npm ci --omit=dev', 'npm', ['ci', '--omit=dev', ...NPM_FLAGS], 120_000, installEnv);
  assertNoTooling();
  await exerciseServer();
  console.log(`✓ Build de produção: compila, instala só dependências de produção e atende (${seconds(started)})`);
  clearTimeout(watchdog);
  cleanUp();
} catch (error) {
  console.log(`✗ Build de produção falhou (${seconds(started)}): ${error instanceof Error ? error.message : error}`);
  clearTimeout(watchdog);
  cleanUp();
  process.exit(1);
}
