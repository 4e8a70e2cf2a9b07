import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { postgresProjectWanted } from './scripts/lib/postgres.mjs';

/**
 * One project per database for the API: PGlite always, PostgreSQL too whenever a server answers
 * (TEST_DATABASE_URL, else DATABASE_URL, else the local default). The same suite runs on both. In CI
 * (CI=true) a missing server fails the run instead (unless TEST_SKIP_POSTGRES=true): see postgresProjectWanted.
 */
const postgresUrl =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const withPostgres = await postgresProjectWanted({ env: process.env, url: postgresUrl });

const apiProject = (name: string, provide: Record<string, string>) => ({
  extends: true as const,
  test: {
    name,
    root: 'apps/api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    provide,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    environment: 'node',
    // Vitest's default is one worker fewer than the cores: one worker on these 2-core machines. The suites mostly
    // wait (servers, databases, stand-ins, timers) and each test file has its own database copy, so two files at a
    // time take about two thirds of the time (decision 023).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'scripts', root: 'scripts', include: ['lib/**/*.test.mjs'] } },
      {
        extends: true,
        test: { name: 'microsoft-api', root: 'packages/microsoft-api', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'stand-ins', root: 'packages/microsoft-stand-ins', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'jsdom',
          environmentOptions: { jsdom: { url: 'http://localhost:3000/' } },
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
        },
      },
      apiProject('api:pglite', { database: 'pglite' }),
      ...(withPostgres ? [apiProject('api:postgres', { database: 'postgres', postgresUrl })] : []),
    ],
  },
});
