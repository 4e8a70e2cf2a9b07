import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildApp, type App, type AppDependencies } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config/env.ts';
import type { Database, Db } from '../src/db/client.ts';
import { signSessionToken, type TokenSubject } from '../src/modules/auth/tokens.ts';
import { openTestDatabase, resetDatabase } from './database.ts';

export const TEST_SECRET = 'segredo-de-teste-com-mais-de-32-caracteres!!';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: TEST_SECRET,
    DEMO_MODE: 'false',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    ...overrides,
  });
}

export interface TestContext {
  app: App;
  database: Database;
  db: Db;
  config: Config;
  /** Sends a request as `as` (a token, or nobody), with a JSON body when given. */
  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ statusCode: number; body: string; json: <T = any>() => T; headers: Record<string, unknown> }>;
  tokenFor(user: TokenSubject, ttlSeconds?: number): Promise<string>;
}

/**
 * The real app over a database of this file's own, emptied before each test. Extra dependencies (a fake
 * Power BI, say) can be passed for the whole file.
 */
export function useTestApp(
  dependencies: Partial<AppDependencies> | (() => Partial<AppDependencies> | Promise<Partial<AppDependencies>>) = {},
): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    // A function is read only now, so it can use what earlier beforeAll hooks started (the stand-ins).
    const deps = typeof dependencies === 'function' ? await dependencies() : dependencies;
    ctx.config = deps.config ?? testConfig();
    ctx.database = await openTestDatabase();
    ctx.db = ctx.database.db;
    ctx.app = await buildApp({
      logger: false,
      ...deps,
      config: ctx.config,
      database: ctx.database,
      ownsDatabase: false,
    });
    await ctx.app.ready();
  });
  beforeEach(async () => {
    // Checks a test's writes asked for (a panel created or saved) end before the next test's data and stand-in logs:
    // a few seconds at most, as a test may leave a task hanging on a stand-in on purpose.
    await Promise.race([ctx.app.tasks.idle(), sleep(5_000)]);
    await resetDatabase(ctx.database);
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });
  ctx.request = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await ctx.app.inject({
      method,
      url,
      headers,
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
    return {
      statusCode: response.statusCode,
      body: response.body,
      json: () => response.json(),
      headers: response.headers,
    };
  };
  ctx.tokenFor = async (user, ttlSeconds) => (await signSessionToken(ctx.config.jwt, user, ttlSeconds)).token;
  return ctx;
}
