import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import type { Database } from '../db/client.ts';
import { HttpError, tooManyRequests } from '../lib/http-error.ts';
import { testConfig } from '../../test/context.ts';
import { openTestDatabase } from '../../test/database.ts';

/** Every 429 the API answers says when to come back, whoever raised it. */
describe('429 answers', () => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await openTestDatabase();
    app = await buildApp({ config: testConfig(), database, ownsDatabase: false, logger: false });
    const open = { config: { public: true } };
    app.get('/api/teste/http-error', open, async () => {
      throw tooManyRequests('Devagar.', 7.2);
    });
    app.get('/api/teste/http-error-sem-prazo', open, async () => {
      throw new HttpError(429, 'Devagar.');
    });
    app.get('/api/teste/de-um-plugin', open, async () => {
      throw Object.assign(new Error('rate limit exceeded'), { statusCode: 429 });
    });
    app.get('/api/teste/de-um-plugin-com-prazo', open, async (_request, reply) => {
      void reply.header('retry-after', '12');
      throw Object.assign(new Error('rate limit exceeded'), { statusCode: 429 });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it.each([
    ['http-error', '8', 'Devagar.'],
    ['http-error-sem-prazo', '60', 'Devagar.'],
    ['de-um-plugin', '60', 'Muitas tentativas. Aguarde um minuto e tente novamente.'],
    ['de-um-plugin-com-prazo', '12', 'Muitas tentativas. Aguarde um minuto e tente novamente.'],
  ])('%s: Retry-After %s', async (path, retryAfter, message) => {
    const res = await app.inject({ method: 'GET', url: `/api/teste/${path}` });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe(retryAfter);
    expect(res.json()).toEqual({ message });
  });
});
