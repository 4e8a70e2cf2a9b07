import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../test/context.ts';
import { classificacao, createAdmin, createUser, link, panel, panelOver } from '../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../test/microsoft.ts';
import { eventually } from '../../test/eventually.ts';
import { spyOnStatements } from '../../test/statements.ts';
import type { Db } from './client.ts';
import { versionFeedLive } from './versioned-cache.ts';

/**
 * docs/decisions/009-in-memory-reads.md: a cached read costs no database round trip while the versions'
 * notification channel is up; what a request writes, the next one reads; while the channel is down, every
 * request asks the database.
 */

const WORKSPACE = '0a0a0a0a-0000-4000-8000-0000000000f1';
const report: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-0000000000f1',
  name: 'Metas',
  datasetId: '0c0c0c0c-0000-4000-8000-0000000000f1',
  rls: true,
};

describe('reads served from memory, kept fresh by the database', () => {
  const standIns = useStandIns({ people: [], reports: [report] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    versionFeed: { reconnectDelayMs: 1_500 },
  }));
  let spy: ReturnType<typeof spyOnStatements> | undefined;
  afterEach(() => spy?.restore());

  async function organisation() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const vendas = await classificacao(ctx.db, 'Vendas');
    const metas = await panelOver(ctx.db, report, {
      nomePainel: 'Metas',
      classificacaoId: vendas.id,
      usaRls: true,
      rlsConfigurations: [{ roleName: 'Sul', userEmails: ['ana@empresa.com.br'] }],
    });
    await panel(ctx.db, { nomePainel: 'Outro', classificacaoId: vendas.id });
    await link(ctx.db, metas.id, [ana.id]);
    return {
      metas,
      adminToken: await ctx.tokenFor(admin),
      anaToken: await ctx.tokenFor(ana),
    };
  }

  it('answers every hot read without a statement to the database, the embed token included', async () => {
    const { metas, adminToken, anaToken } = await organisation();
    const reads: [string, string][] = [
      ['/api/paineis', adminToken],
      ['/api/paineis', anaToken],
      ['/api/paineis/agrupados', adminToken],
      ['/api/paineis/agrupados', anaToken],
      ['/api/classificacoes', anaToken],
      ['/api/classificacoes/admin', adminToken],
      [`/api/paineis/${metas.id}/dados`, adminToken],
      [`/api/paineis/${metas.id}`, anaToken],
      [`/api/paineis/${metas.id}/token`, anaToken],
      ['/api/usuarios365/ativos', adminToken],
    ];
    // The first round fills the caches (and, on PostgreSQL, confirms what the fixtures wrote).
    for (const [url, token] of reads) expect((await ctx.request('GET', url, { token })).statusCode, url).toBe(200);
    await eventually(() => expect(versionFeedLive(ctx.db)).toBe(true));

    spy = spyOnStatements(ctx.db);
    for (let round = 0; round < 3; round++) {
      for (const [url, token] of reads) expect((await ctx.request('GET', url, { token })).statusCode, url).toBe(200);
    }
    expect(spy.count()).toBe(0);
  });

  it('reads what the previous request wrote on the same instance, and what was written elsewhere within a second', async () => {
    const { metas, adminToken, anaToken } = await organisation();
    expect((await ctx.request('GET', '/api/paineis', { token: anaToken })).json()).toHaveLength(1);

    // Through this instance: the next request sees it, whatever the notification's timing.
    const renamed = await ctx.request('PUT', `/api/paineis/${metas.id}`, {
      token: adminToken,
      body: {
        nomePainel: 'Metas 2027',
        workspaceId: WORKSPACE,
        reportId: report.reportId,
        usaRls: true,
        classificacaoId: metas.classificacaoId,
      },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/paineis', { token: anaToken })).json()).toMatchObject([
      { nomePainel: 'Metas 2027' },
    ]);

    // Through another connection (another instance, psql): pushed by the database.
    await ctx.db.execute(sql`delete from painel_usuarios`);
    const deadline = Date.now() + 1_000;
    let seen: unknown[] = [{}];
    while (seen.length > 0 && Date.now() < deadline) {
      seen = (await ctx.request('GET', '/api/paineis', { token: anaToken })).json();
    }
    expect(seen).toEqual([]);
  });

  it('revokes a session and demotes an admin at their next request', async () => {
    const { adminToken } = await organisation();
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token: adminToken })).statusCode).toBe(200);
    await ctx.db.execute(sql`update usuarios set role = 'User' where email = 'admin@empresa.com.br'`);
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token: adminToken })).statusCode).toBe(403);

    expect((await ctx.request('POST', '/api/auth/logout-complete', { token: adminToken })).statusCode).toBe(204);
    expect((await ctx.request('GET', '/api/paineis', { token: adminToken })).statusCode).toBe(401);
  });

  it('serves lists as prepared bytes: brotli or gzip as accepted, an ETag, and 304 while unchanged', async () => {
    const { adminToken } = await organisation();
    // Enough to be worth compressing (over 1 KB).
    for (let i = 0; i < 10; i++) await panel(ctx.db, { nomePainel: `Painel de indicadores ${i}` });
    const plain = await ctx.request('GET', '/api/paineis/agrupados', { token: adminToken });
    const expected = plain.json<unknown>();
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(plain.headers['cache-control']).toBe('private, no-cache');

    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await ctx.app.inject({
        url: '/api/paineis/agrupados',
        headers: { authorization: `Bearer ${adminToken}`, 'accept-encoding': `${encoding}, identity;q=0.5` },
      });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.etag).toBe(etag);
      expect(JSON.parse(decode(res.rawPayload).toString())).toEqual(expected);
    }

    for (const header of [etag, `W/${etag}`, `"outro", ${etag}`, '*']) {
      const res = await ctx.request('GET', '/api/paineis/agrupados', {
        token: adminToken,
        headers: { 'if-none-match': header },
      });
      expect(res.statusCode, header).toBe(304);
      expect(res.body).toBe('');
    }
    await ctx.request('POST', '/api/classificacoes', { token: adminToken, body: { nome: 'Compras' } });
    const changed = await ctx.request('GET', '/api/paineis/agrupados', {
      token: adminToken,
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  describe.skipIf(inject('database') !== 'postgres')('while the notification channel is down', () => {
    it('asks the database on every request, then serves from memory again once it listens again', async () => {
      const { anaToken } = await organisation();
      expect((await ctx.request('GET', '/api/paineis', { token: anaToken })).json()).toHaveLength(1);
      await eventually(() => expect(versionFeedLive(ctx.db)).toBe(true));

      // Another session's connection, as another instance would write: nothing of this process sees it.
      const other = new pg.Client({ connectionString: await databaseUrl(ctx.db) });
      await other.connect();
      try {
        await other.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where application_name = 'paineis-versoes_dados' and datname = current_database()`,
        );
        await eventually(() => expect(versionFeedLive(ctx.db)).toBe(false));
        await other.query('delete from painel_usuarios');
        spy = spyOnStatements(ctx.db);
        expect((await ctx.request('GET', '/api/paineis', { token: anaToken })).json()).toEqual([]);
        expect(spy.count()).toBeGreaterThan(0);
        spy.restore();

        // Reconnected (after 1.5 s): versions read again, then memory.
        await eventually(() => expect(versionFeedLive(ctx.db)).toBe(true), 10_000);
        await other.query(`update paineis set nome_painel = 'Renomeado' where nome_painel = 'Outro'`);
        await eventually(() => expect(versionFeedLive(ctx.db)).toBe(true));
        const names = async () =>
          (await ctx.request('GET', '/api/paineis', { token: anaToken })).json<{ nomePainel: string }[]>();
        const admin = await ctx.tokenFor({
          id: 'x',
          email: 'x@empresa.com.br',
          displayName: 'X',
          role: 'Admin',
        });
        expect((await ctx.request('GET', '/api/paineis', { token: admin })).statusCode).toBe(401); // no such user
        expect(await names()).toEqual([]);
        spy = spyOnStatements(ctx.db);
        expect(await names()).toEqual([]);
        expect(spy.count()).toBe(0);
      } finally {
        await other.end();
      }
    });
  });
});

async function databaseUrl(db: Db): Promise<string> {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const options = pool.options as { connectionString?: string };
  return options.connectionString!;
}
