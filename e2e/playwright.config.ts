import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/lib/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Ports of this run's own and fresh data folders, chosen once in the runner and inherited by its workers, which
// load this file again. The ports lie in 21000-23399, clear of the services a machine may run (NATS 4222,
// PostgreSQL 5432, RabbitMQ 5672, Redis 6379: the ranges 4100-6499 used before met them one run in a few hundred)
// and below Linux's ephemeral ports.
// Project `demo`: the real server in demo mode, with demo data.
process.env.E2E_PORT ??= String(21000 + (process.pid % 800));
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'paineis-e2e-'));
// Project `microsoft`: the Microsoft stand-ins as a process of their own, and a second server configured for
// Microsoft (pointed at them), with no demo data: its journeys create what they need.
process.env.E2E_MS_PORT ??= String(21800 + (process.pid % 800));
process.env.E2E_MS_API_PORT ??= String(22600 + (process.pid % 800));
process.env.E2E_MS_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'paineis-e2e-ms-'));
process.env.E2E_EMBED_TOKEN_SECONDS ??= '15';
// The runner (not its workers, which a failure may restart) removes the data folders when it exits.
if (!process.env.TEST_WORKER_INDEX) {
  const folders = [process.env.E2E_DATA_DIR, process.env.E2E_MS_DATA_DIR];
  process.once('exit', () => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
}
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;
const standInsPort = Number(process.env.E2E_MS_PORT);
const standIns = `http://127.0.0.1:${standInsPort}`;
const msPort = Number(process.env.E2E_MS_API_PORT);
const msDataDir = process.env.E2E_MS_DATA_DIR;
const tenantId = '00000000-0000-4000-8000-000000000001';

export default defineConfig({
  testDir: '.',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One server per project, one embedded database each: the journeys run one after another.
  workers: 1,
  fullyParallel: false,
  // In CI a journey that fails is run once more: one that then passes is still named in the closing summary
  // (scripts/lib/test-failures.mjs), as unstable, and counts as passed.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: process.env.E2E_JSON ?? path.join(root, 'test-results', 'e2e.json') }]],
  outputDir: path.join(root, 'test-results', 'e2e'),
  use: {
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions(),
  },
  projects: [
    { name: 'demo', testIgnore: ['microsoft/**', 'intranet/**'], use: { baseURL: `http://127.0.0.1:${port}` } },
    { name: 'microsoft', testDir: './microsoft', use: { baseURL: `http://127.0.0.1:${msPort}` } },
    // Project `intranet`: the portal under an intranet name, paineis.intranet, which Chromium maps to 127.0.0.1. Over
    // plain HTTP it is the demo server; behind nginx terminating TLS (with a self-signed certificate, hence
    // ignoreHTTPSErrors) it is a demo-mode server of the spec's own, started with TRUST_PROXY=true.
    {
      name: 'intranet',
      testDir: './intranet',
      use: {
        baseURL: `http://paineis.intranet:${port}`,
        ignoreHTTPSErrors: true,
        launchOptions: chromiumLaunchOptions(['--host-resolver-rules=MAP paineis.intranet 127.0.0.1']),
      },
    },
  ],
  webServer: [
    {
      command: 'node --import tsx apps/api/src/server.ts',
      cwd: root,
      url: `http://127.0.0.1:${port}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_MODE: 'true', LOG_LEVEL: 'warn' },
    },
    {
      command: 'node --import tsx e2e/microsoft/stand-ins-server.ts',
      cwd: root,
      url: `${standIns}/${tenantId}/v2.0/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node --import tsx apps/api/src/server.ts',
      cwd: root,
      url: `http://127.0.0.1:${msPort}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(msPort),
        HOST: '127.0.0.1',
        DATA_DIR: msDataDir,
        LOG_LEVEL: 'warn',
        AZURE_TENANT_ID: tenantId,
        AZURE_CLIENT_ID: '5d6b9c1e-2f4a-4e8b-9c3d-7a1f0e6b2d48',
        AZURE_CLIENT_SECRET: 'segredo-demo',
        AZURE_AUTHORITY_HOST: standIns,
        GRAPH_API_URL: standIns,
        POWERBI_API_URL: standIns,
        // Outside demo mode the session secret is required.
        JWT_SECRET: 'e2e-segredo-de-sessao-com-mais-de-32-caracteres',
      },
    },
  ],
});
