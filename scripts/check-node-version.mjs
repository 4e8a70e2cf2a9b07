#!/usr/bin/env node
// The portal on another supported Node.js than the one the suite runs on (decision 023): CI runs the whole suite
// on Node 24 and, with this script, the oldest and newest majors it supports (22 and 26) briefly:
//   1. start-up: the compiled server (apps/api/dist/server.js, from the build step) starts in demo mode on a
//      fresh data folder, answers /readyz, lets demo.admin sign in (argon2, a native module) and list panels,
//      and exits 0 on SIGTERM;
//   2. the API's contract tests (apps/api/test/microsoft-contract.test.ts on PGlite: the portal's real
//      Microsoft clients against the stand-ins, every exchange checked against Microsoft's descriptions), and
//      the Microsoft descriptions' own tests (packages/microsoft-api), run by vitest on that Node.
// Usage: node scripts/check-node-version.mjs <major>. Ends with one verdict line; exits 1 on any failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeRuntime, nodeVersion, runtimeEnv } from './lib/node-runtime.mjs';
import { demoServerEnv, freePort, startServer, stopServer, waitUntilReady } from './lib/server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.argv[2]);
const started = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function startUp(node) {
  const since = performance.now();
  const dataDir = mkdtempSync(path.join(tmpdir(), `paineis-node${major}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = demoServerEnv(port, dataDir);
  const server = startServer(node, ['--enable-source-maps', 'apps/api/dist/server.js'], { cwd: root, env });
  try {
    const ready = await waitUntilReady(server, `${base}/readyz`, 60_000);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo.admin', password: 'demo' }),
      signal: AbortSignal.timeout(10_000),
    });
    const { token } = login.ok ? await login.json() : {};
    if (typeof token !== 'string') throw new Error(`POST /api/auth/login: HTTP ${login.status}, sem token`);
    const panels = await fetch(`${base}/api/paineis/agrupados`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    const groups = panels.ok ? await panels.json() : null;
    if (!Array.isArray(groups) || groups.length === 0) {
      throw new Error(`GET /api/paineis/agrupados: HTTP ${panels.status}, esperava uma lista não vazia`);
    }
    const exit = await stopServer(server, 'SIGTERM', 15_000);
    if (exit !== 0) throw new Error(`após SIGTERM o servidor encerrou com saída ${exit}`);
    console.log(
      `  servidor compilado: /readyz em ${(ready / 1000).toFixed(1)} s, demo.admin entrou e listou os painéis, ` +
        `SIGTERM → saída 0 (${seconds(since)})`,
    );
  } catch (error) {
    server.child.kill('SIGKILL');
    const output = server.output().trimEnd().split('\n').slice(-30).join('\n    | ');
    throw new Error(`${error instanceof Error ? error.message : error}\n  saída do servidor:\n    | ${output}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function contractTests(node) {
  const since = performance.now();
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [
    vitest,
    'run',
    '--project',
    'api:pglite',
    '--project',
    'microsoft-api',
    'apps/api/test/microsoft-contract.test.ts',
    'packages/microsoft-api/',
  ];
  // Node's folder first on PATH: vitest's workers and anything they start run on the same Node.
  const child = spawn(node, args, { cwd: root, env: runtimeEnv(node), stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      if (code === 0) {
        console.log(`  testes de contrato da API no Node.js ${major} (${seconds(since)})`);
        resolve(undefined);
      } else reject(new Error(`testes de contrato: saída ${code ?? signal}`));
    });
  });
}

try {
  if (!Number.isInteger(major)) throw new Error('uso: node scripts/check-node-version.mjs <versão principal>');
  if (!existsSync(path.join(root, 'apps', 'api', 'dist', 'server.js'))) {
    throw new Error('apps/api/dist/server.js não existe: rode npm run build antes');
  }
  const node = nodeRuntime(major);
  const version = nodeVersion(node);
  console.log(`Node.js ${version} (${path.relative(root, node) || node})`);
  await startUp(node);
  await contractTests(node);
  console.log(`✓ Node.js ${version}: início e testes de contrato da API (${seconds(started)})`);
} catch (error) {
  console.log(`✗ Node.js ${major} falhou (${seconds(started)}): ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
