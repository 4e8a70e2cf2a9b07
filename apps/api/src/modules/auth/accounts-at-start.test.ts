import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { testConfig, useTestApp, type TestContext } from '../../../test/context.ts';
import { microsoftConfig, person, useStandIns } from '../../../test/microsoft.ts';
import { rows } from '../../db/client.ts';
import { DEMO_GUEST } from '../../demo/demo-data.ts';
import { demoRefusal, loadDemoData } from '../../demo/load-demo-data.ts';
import { SESSION_INVALID } from '../../plugins/auth.ts';
import { ensureLocalAccounts } from './bootstrap-accounts.ts';
import { LOGIN_INVALID } from './local-sign-in.ts';

/**
 * docs/SECURITY.md, accounts that outlive their mode: each start takes away the accounts its configuration no longer
 * asks for (the demo's, outside demo mode; a bootstrap admin taken out or renamed), and a database that has run
 * outside demo mode never gets the demo again. A session is good only while its person is active, so a start ends
 * those accounts' sessions too.
 */

interface Logged {
  level: 'info' | 'warn';
  fields: Record<string, unknown>;
  message: string;
}

function memoryLog(lines: Logged[]): FastifyBaseLogger {
  const at = (level: Logged['level']) => (fields: Record<string, unknown>, message: string) => {
    lines.push({ level, fields, message });
  };
  return { info: at('info'), warn: at('warn') } as unknown as FastifyBaseLogger;
}

const login = (ctx: TestContext, username: string, password: string) =>
  ctx.request('POST', '/api/auth/login', { body: { username, password } });

async function tokenOf(ctx: TestContext, username: string, password: string): Promise<string> {
  const res = await login(ctx, username, password);
  expect(res.statusCode).toBe(200);
  return res.json<{ token: string }>().token;
}

/** The start's own audit records (nobody, from nowhere) about accounts. */
const startRecords = (ctx: TestContext) =>
  rows<{ objeto_id: string | null; objeto_nome: string | null; mudancas: unknown }>(
    ctx.db,
    sql`select objeto_id, objeto_nome, mudancas from auditoria
        where usuario_id is null and endereco is null and objeto = 'sessao' and acao = 'alteracao' order by id`,
  );

const DEMO = testConfig({ DEMO_MODE: 'true' });
const DEMO_PEOPLE = 30;

describe('a database started in demo mode, then with its Microsoft configuration', () => {
  const standIns = useStandIns({ people: [person('a1b2c3d4-0000-4000-8000-0000000000a1', 'Ana Real')] });
  const ctx = useTestApp();
  const configured = () => microsoftConfig(standIns.current);

  it('disables every demo account and person, refuses their sessions, audits and logs it', async () => {
    expect(await loadDemoData(ctx.db, DEMO_PEOPLE)).toBe(true);
    expect(await ensureLocalAccounts(ctx.db, DEMO)).toEqual(['demo.admin', 'demo.usuario']);
    const adminToken = await tokenOf(ctx, 'demo.admin', 'demo');
    const userToken = await tokenOf(ctx, 'demo.usuario', 'demo');
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token: adminToken })).statusCode).toBe(200);
    // The demo's directory sync records the demo's people as the directory's: found by id all the same.
    await ctx.db.execute(sql`update usuarios set source = 'entra' where id in ('demo-usuario', ${DEMO_GUEST.id})`);

    const lines: Logged[] = [];
    expect(await ensureLocalAccounts(ctx.db, configured(), memoryLog(lines))).toEqual([]);

    for (const username of ['demo.admin', 'demo.usuario']) {
      const refused = await login(ctx, username, 'demo');
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ message: LOGIN_INVALID });
    }
    for (const token of [adminToken, userToken]) {
      const res = await ctx.request('GET', '/api/paineis', { token });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: SESSION_INVALID });
    }
    expect(
      await rows(
        ctx.db,
        sql`select count(*)::int as n from usuarios where active and (source = 'demo' or id like 'demo-%')`,
      ),
    ).toEqual([{ n: 0 }]);
    expect(await rows(ctx.db, sql`select username from contas_locais`)).toEqual([]);

    // The people of the demo data: DEMO_PEOPLE and the guest.
    const people = DEMO_PEOPLE + 1;
    expect(await startRecords(ctx)).toEqual([
      {
        objeto_id: 'demo-admin',
        objeto_nome: 'demo.admin',
        mudancas: [
          { campo: 'ativo', antes: true, depois: false },
          { campo: 'contaLocal', antes: 'demo.admin' },
          { campo: 'motivo', depois: 'conta de demonstração, fora do modo demonstração' },
        ],
      },
      {
        objeto_id: 'demo-usuario',
        objeto_nome: 'demo.usuario',
        mudancas: [
          { campo: 'ativo', antes: true, depois: false },
          { campo: 'contaLocal', antes: 'demo.usuario' },
          { campo: 'motivo', depois: 'conta de demonstração, fora do modo demonstração' },
        ],
      },
      {
        objeto_id: null,
        objeto_nome: 'pessoas de demonstração',
        mudancas: [
          { campo: 'ativo', antes: true, depois: false },
          { campo: 'pessoas', depois: people },
          { campo: 'motivo', depois: 'pessoas dos dados de demonstração, fora do modo demonstração' },
        ],
      },
    ]);
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: { accounts: ['demo.admin', 'demo.usuario'], demoPeople: people },
        message: `fora do modo demonstração: 2 contas de demonstração desativadas e sem senha (demo.admin, demo.usuario), com as sessões encerradas; ${people} pessoas dos dados de demonstração desativadas`,
      },
    ]);

    // The next start finds nothing left to take away.
    const again: Logged[] = [];
    await ensureLocalAccounts(ctx.db, configured(), memoryLog(again));
    expect(again).toEqual([]);
    expect(await startRecords(ctx)).toHaveLength(3);

    // Back in demo mode: no demo account comes back, with or without demo data to load.
    const demoAgain: Logged[] = [];
    expect(await ensureLocalAccounts(ctx.db, DEMO, memoryLog(demoAgain))).toEqual([]);
    expect((await login(ctx, 'demo.admin', 'demo')).statusCode).toBe(401);
    expect(demoAgain).toEqual([
      {
        level: 'warn',
        fields: { accounts: ['demo.admin', 'demo.usuario'] },
        message: 'contas de demonstração não criadas: este banco de dados já foi usado fora do modo demonstração',
      },
    ]);
  });

  it('an emptied database that has run outside demo mode gets no demo data, and the start says why', async () => {
    expect(await demoRefusal(ctx.db)).toBeNull();
    await ensureLocalAccounts(ctx.db, configured());
    const [marked] = await rows<{ chave: string; valor: string; data_atualizacao: Date }>(
      ctx.db,
      sql`select chave, valor, data_atualizacao from instalacao`,
    );
    expect(marked!.chave).toBe('execucao-configurada');
    expect(new Date(marked!.valor).getTime()).toBeLessThanOrEqual(Date.now());
    const since = new Date(marked!.data_atualizacao).toISOString();

    // Nothing else in it: without the mark, the demo would load.
    expect(await loadDemoData(ctx.db, DEMO_PEOPLE)).toBe(false);
    expect(await rows(ctx.db, sql`select count(*)::int as n from paineis`)).toEqual([{ n: 0 }]);
    expect(await rows(ctx.db, sql`select count(*)::int as n from usuarios`)).toEqual([{ n: 0 }]);
    expect(await demoRefusal(ctx.db)).toBe(
      `Modo demonstração recusado: este banco de dados já foi usado fora do modo demonstração (desde ${since}), e a demonstração traria dados fictícios, contas com senha pública e o login simulado da Microsoft, em que qualquer pessoa pode entrar como administrador. Para a demonstração, use outro banco de dados (outro DATA_DIR, ou outro DATABASE_URL); para este, configure o Microsoft (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET) ou defina DEMO_MODE=false.`,
    );

    // A later start outside demo mode keeps the first one's date.
    await ensureLocalAccounts(ctx.db, testConfig());
    expect(await rows(ctx.db, sql`select valor from instalacao`)).toEqual([{ valor: marked!.valor }]);
  });
});

describe('a bootstrap admin taken out of the configuration', () => {
  const ctx = useTestApp();
  const ADMIN = { username: 'admin.ti', password: 'senha-do-admin-ti-1' };
  const withAdmin = (username = ADMIN.username) =>
    testConfig({ PORTAL_ADMIN_USERNAME: username, PORTAL_ADMIN_PASSWORD: ADMIN.password });

  it('is disabled at the next start, its sessions refused, audited and logged; named again, it comes back', async () => {
    await ensureLocalAccounts(ctx.db, withAdmin());
    const token = await tokenOf(ctx, ADMIN.username, ADMIN.password);
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token })).statusCode).toBe(200);

    const lines: Logged[] = [];
    expect(await ensureLocalAccounts(ctx.db, testConfig(), memoryLog(lines))).toEqual([]);
    expect((await login(ctx, ADMIN.username, ADMIN.password)).statusCode).toBe(401);
    const refused = await ctx.request('GET', '/api/classificacoes/admin', { token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: SESSION_INVALID });
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: { accounts: ['admin.ti'] },
        message:
          '1 administrador local desativado por não estar mais na configuração (PORTAL_ADMIN_USERNAME): admin.ti; suas sessões deixam de valer',
      },
    ]);

    const back: Logged[] = [];
    expect(await ensureLocalAccounts(ctx.db, withAdmin(), memoryLog(back))).toEqual(['admin.ti']);
    expect(back).toEqual([
      {
        level: 'info',
        fields: { accounts: ['admin.ti'] },
        message: 'administrador local reativado pela configuração: admin.ti',
      },
    ]);
    await tokenOf(ctx, ADMIN.username, ADMIN.password);
    expect(await startRecords(ctx)).toEqual([
      {
        objeto_id: 'local:admin.ti',
        objeto_nome: 'admin.ti',
        mudancas: [
          { campo: 'ativo', antes: true, depois: false },
          { campo: 'motivo', depois: 'administrador local fora da configuração (PORTAL_ADMIN_USERNAME)' },
        ],
      },
      {
        objeto_id: 'local:admin.ti',
        objeto_nome: 'admin.ti',
        mudancas: [
          { campo: 'ativo', antes: false, depois: true },
          { campo: 'motivo', depois: 'administrador local configurado de novo (PORTAL_ADMIN_USERNAME)' },
        ],
      },
    ]);
  });

  it('renamed, the old name is disabled and the new one signs in; an unchanged start changes nothing', async () => {
    await ensureLocalAccounts(ctx.db, withAdmin());
    const token = await tokenOf(ctx, ADMIN.username, ADMIN.password);

    await ensureLocalAccounts(ctx.db, withAdmin('Admin.Novo'));
    expect((await login(ctx, ADMIN.username, ADMIN.password)).statusCode).toBe(401);
    expect((await ctx.request('GET', '/api/paineis', { token })).statusCode).toBe(401);
    const renamed = await tokenOf(ctx, 'admin.novo', ADMIN.password);

    // Named again as it is (its case changed), it stays.
    const lines: Logged[] = [];
    await ensureLocalAccounts(ctx.db, withAdmin('admin.NOVO'), memoryLog(lines));
    expect(lines).toEqual([]);
    expect((await ctx.request('GET', '/api/paineis', { token: renamed })).statusCode).toBe(200);
    expect((await startRecords(ctx)).map((r) => r.objeto_nome)).toEqual(['admin.ti']);
  });
});
