#!/usr/bin/env node
// Runs every check and every test, then prints one closing line: "tests: N passed, N failed".
// The same command runs locally and in CI (.ci/run).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { namedFailures } from './lib/test-failures.mjs';
import { majorOf, nodeRuntime, nodeVersion, otherNodeMajors, runtimeEnv, suiteNodeMajor } from './lib/node-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Which Node.js runs the suite (docs/decisions/023-node-24.md, suiteNodeMajor): TEST_NODE=<major> when set; else
// Node 24 in CI and wherever this Node is older than the minimum (22.13); else this one. When it is not this one,
// this script runs again on that Node, its folder first on PATH, so that node, npm, npx and every tool a step
// starts (vitest's workers, Playwright's web server, the production build's npm ci, the benchmark) run on it too.
const runningMajor = majorOf(process.versions.node);
let suiteMajor;
let otherMajors;
try {
  suiteMajor = suiteNodeMajor(process.env, process.versions.node);
  otherMajors = otherNodeMajors(process.env, suiteMajor);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
if (suiteMajor !== runningMajor) {
  let node;
  try {
    node = nodeRuntime(suiteMajor);
  } catch (error) {
    console.error(`Node.js ${suiteMajor} indisponível: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  console.log(`Node.js ${process.versions.node} aqui; a suíte roda no Node.js ${nodeVersion(node)} (${node}).`);
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: runtimeEnv(node),
  });
  // Ctrl-C reaches the whole process group, the run included: this process only waits for it to end. A SIGTERM
  // sent to this process alone (a CI timeout) is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.exit(await new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1))));
}
console.log(`Node.js ${process.versions.node} roda a suíte (${process.execPath}).`);
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const failures = [];

function step(title, command, args, options = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failures.push(title);
    console.log(`✗ ${title} falhou (${seconds} s)`);
  } else {
    console.log(`✓ ${title} (${seconds} s)`);
  }
  return result.status === 0;
}

function reachable(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok) => (socket.destroy(), resolve(ok));
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

// The database suites also run on PostgreSQL whenever a server answers. Where one is installed on this
// machine but stopped, start it (best effort; without it the suites still run on the embedded database).
if (!process.env.TEST_DATABASE_URL && !process.env.DATABASE_URL && !(await reachable(5432))) {
  const ctl = '/usr/bin/pg_ctlcluster';
  if (existsSync(ctl) && existsSync('/etc/postgresql')) {
    const { readdirSync } = await import('node:fs');
    for (const version of readdirSync('/etc/postgresql')) {
      spawnSync(ctl, ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'ignore' });
    }
  }
  console.log(
    (await reachable(5432))
      ? 'PostgreSQL iniciado em 127.0.0.1:5432.'
      : 'PostgreSQL indisponível: os testes de banco rodam só no PGlite.',
  );
}

step('Tipos (tsc)', process.execPath, [path.join(root, 'scripts', 'typecheck.mjs')]);
step('Lint (eslint)', bin('eslint'), ['.', '--max-warnings', '0']);
step('Formatação (prettier)', bin('prettier'), ['--check', '.', '--log-level', 'warn']);
// npm audit --omit=dev: no high or critical advisory in what production installs (needs the registry's audit
// service; where the registry has none, the step says the audit was not done and passes).
step('Auditoria de dependências (npm audit)', process.execPath, [path.join(root, 'scripts', 'audit-dependencies.mjs')]);

// Debian's Chromium, before the unit tests: the stand-ins' embed host is tested with the real powerbi-client in it.
step('Navegador do Debian (chromium)', process.execPath, [path.join(root, 'scripts', 'ensure-browser.mjs')]);

const report = path.join(mkdtempSync(path.join(tmpdir(), 'paineis-vitest-')), 'report.json');
step('Testes (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);

// The production build, on a copy of the repository: npm ci, build, production dependencies only, and the
// compiled server (no TypeScript loader) answering in demo mode.
step('Build de produção', process.execPath, [path.join(root, 'scripts', 'check-production-build.mjs')]);

// The container image and compose file (npm run test:container): built, run alone, and as two replicas on
// PostgreSQL. Docker is installed and started when missing; under CI a missing Docker is a failure.
step('Contêiner (imagem e compose)', process.execPath, [path.join(root, 'scripts', 'test-container.mjs')]);

// Browser journeys: Debian's Chromium driven by Playwright against the real server (demo mode).
const e2eReport = path.join(path.dirname(report), 'e2e.json');
if (step('Build (aplicação web e API)', 'npm', ['run', 'build', '--silent'])) {
  step('Navegador (playwright + chromium)', bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
    env: { ...process.env, E2E_JSON: e2eReport },
  });
  // Every budget of npm run bench, briefly (bench/run.ts --quick): the benchmark still works; figures reported,
  // budgets not enforced. On the build just made.
  step('Benchmark (modo rápido)', process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'run.ts'), '--quick']);
  // The oldest and the newest supported majors, briefly (decision 023): the compiled server just built starts
  // and serves, and the API's contract tests pass, on each. In CI, or where TEST_OTHER_NODES=22,26 asks
  // (otherNodeMajors).
  for (const major of otherMajors) {
    step(`Node.js ${major} (início e testes de contrato da API)`, process.execPath, [
      path.join(root, 'scripts', 'check-node-version.mjs'),
      String(major),
    ]);
  }
}

// Each step's JSON report, or null when the step did not write one.
const vitestJson = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : null;
const e2eJson = existsSync(e2eReport) ? JSON.parse(readFileSync(e2eReport, 'utf8')) : null;
let passed = 0;
let failed = 0;
if (vitestJson) {
  passed = vitestJson.numPassedTests;
  failed = vitestJson.numFailedTests;
} else {
  failed += 1;
}
if (e2eJson) {
  const { stats } = e2eJson;
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
} else {
  failed += 1;
}
// A check that failed counts as a failed test, so the closing line never reads green over a red step.
failed += failures.filter((f) => !f.startsWith('Testes') && !f.startsWith('Navegador')).length;

// The tests that failed, and the browser journeys that passed only when retried, named again just above the
// closing line: a log read from its end (CI keeps the tail) says which they were without the whole run's output.
const named = namedFailures(vitestJson, e2eJson, root);
if (named.length) console.log(`\n${named.join('\n')}`);

console.log(failures.length ? `\nFalhou: ${failures.join(', ')}` : '\nTudo certo.');
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);
