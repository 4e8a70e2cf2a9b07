import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, resetDatabase } from '../../test/database.ts';
import { rows, type Database, type Db } from '../db/client.ts';
import { DEMO_ADMIN, DEMO_USER } from './demo-data.ts';
import { loadDemoData } from './load-demo-data.ts';
import { migrateDatabase } from '../db/migrate.ts';

/** Counts of every table, to show what a call did or did not change. */
async function counts(db: Db) {
  const [row] = await rows<Record<string, number | string>>(
    db,
    sql`
    select (select count(*) from classificacoes) as classificacoes,
           (select count(*) from paineis) as paineis,
           (select count(*) from usuarios) as usuarios,
           (select count(*) from painel_usuarios) as links,
           (select count(*) from painel_rls_roles) as roles,
           (select count(*) from painel_rls_role_emails) as emails,
           (select count(*) from grupos) as grupos,
           (select count(*) from grupo_membros) as membros,
           (select count(*) from painel_grupos) as grupos_vinculados,
           (select count(*) from painel_rls_role_grupos) as grupos_em_papeis,
           (select count(*) from tokens_revogados) as revogados,
           (select count(*) from visualizacoes) as visualizacoes,
           (select count(*) from auditoria) as auditoria,
           (select count(*) from ultimos_logins) as logins,
           (select count(*) from assinaturas) as assinaturas`,
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

describe('demo data', () => {
  let database: Database;
  let db: Db;

  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
  });
  beforeEach(async () => {
    await resetDatabase(database);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('loads a whole demo organisation into an empty database', async () => {
    expect(await loadDemoData(db)).toBe(true);

    const classificacoes = await rows<{ id: number; nome: string; ativo: boolean }>(
      db,
      sql`select id, nome, ativo from classificacoes`,
    );
    expect(classificacoes.length).toBeGreaterThanOrEqual(5);
    expect(classificacoes.some((c) => !c.ativo)).toBe(true);
    expect(classificacoes.filter((c) => c.ativo).length).toBeGreaterThanOrEqual(4);

    const paineis = await rows<{
      id: number;
      usa_rls: boolean;
      classificacao_id: number | null;
      ordem: number;
      report_id: string;
      workspace_id: string;
    }>(db, sql`select id, usa_rls, classificacao_id, ordem, report_id, workspace_id from paineis`);
    expect(paineis.length).toBeGreaterThanOrEqual(25);
    expect(paineis.length).toBeLessThanOrEqual(60);
    expect(paineis.some((p) => p.usa_rls)).toBe(true);
    expect(paineis.some((p) => p.classificacao_id === null)).toBe(true);
    // Panels spread across the classifications, every classification has some, each numbered from 1.
    for (const c of classificacoes) {
      const own = paineis
        .filter((p) => p.classificacao_id === c.id)
        .map((p) => p.ordem)
        .sort((a, b) => a - b);
      expect(own.length, c.nome).toBeGreaterThan(0);
      expect(own, c.nome).toEqual(own.map((_, i) => i + 1));
    }
    // Report and workspace ids are GUIDs the web app accepts, and reports are distinct.
    const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const p of paineis) {
      expect(p.report_id).toMatch(guid);
      expect(p.workspace_id).toMatch(guid);
    }
    expect(new Set(paineis.map((p) => p.report_id)).size).toBe(paineis.length);

    const usuarios = await rows<{ id: string; email: string; role: string; active: boolean }>(
      db,
      sql`select id, email, role, active from usuarios`,
    );
    expect(usuarios.length).toBeGreaterThanOrEqual(290);
    expect(usuarios.length).toBeLessThanOrEqual(310);
    expect(usuarios.find((u) => u.id === 'demo-admin')).toMatchObject({
      role: 'Admin',
      active: true,
      email: DEMO_ADMIN.email,
    });
    expect(usuarios.find((u) => u.id === 'demo-usuario')).toMatchObject({
      role: 'User',
      active: true,
      email: DEMO_USER.email,
    });
    expect(usuarios.filter((u) => u.role === 'Admin').map((u) => u.id)).toEqual(['demo-admin']);
    expect(new Set(usuarios.map((u) => u.email.toLowerCase())).size).toBe(usuarios.length);
  });

  it('links the demo user to several panels, and to an RLS role of a panel that uses RLS', async () => {
    await loadDemoData(db);
    const [links] = await rows<{ linked: number; total: number }>(
      db,
      sql`
      select (select count(*) from painel_usuarios where usuario_id = 'demo-usuario')::int as linked,
             (select count(*) from paineis)::int as total`,
    );
    expect(links!.linked).toBeGreaterThanOrEqual(3);
    // Not all of them, so an admin and a user see different lists.
    expect(links!.linked).toBeLessThan(links!.total);

    const inRoles = await rows<{ painel_id: number; usa_rls: boolean; linked: boolean }>(
      db,
      sql`
      select distinct r.painel_id, p.usa_rls,
             exists (select 1 from painel_usuarios pu where pu.painel_id = r.painel_id and pu.usuario_id = 'demo-usuario') as linked
      from painel_rls_role_emails e
      join painel_rls_roles r on r.id = e.role_id
      join paineis p on p.id = r.painel_id
      where e.email = ${DEMO_USER.email.toLowerCase()}`,
    );
    expect(inRoles.filter((r) => r.usa_rls).length).toBeGreaterThanOrEqual(1);
    // Where the demo user is in a role, they are also linked, so the panel opens for them.
    for (const r of inRoles) expect(r.linked, `painel ${r.painel_id}`).toBe(true);
  });

  it('gives every RLS panel its roles, and stores RLS e-mails lower-case', async () => {
    await loadDemoData(db);
    const rlsPanels = await rows<{ id: number; roles: number }>(
      db,
      sql`
      select p.id, (select count(*) from painel_rls_roles r where r.painel_id = p.id)::int as roles
      from paineis p where p.usa_rls`,
    );
    expect(rlsPanels.length).toBeGreaterThanOrEqual(1);
    for (const p of rlsPanels) expect(p.roles, `painel ${p.id}`).toBeGreaterThan(0);

    const [stray] = await rows<{ n: number }>(
      db,
      sql`
      select count(*)::int as n from painel_rls_roles r join paineis p on p.id = r.painel_id where not p.usa_rls`,
    );
    expect(stray!.n).toBe(0);

    const [upper] = await rows<{ n: number }>(
      db,
      sql`
      select count(*)::int as n from painel_rls_role_emails where email <> lower(email)`,
    );
    expect(upper!.n).toBe(0);
  });

  it('subscribes the demo user weekly and after each refresh, and the group Comercial monthly, each due next at its own time', async () => {
    const now = new Date('2026-11-27T12:00:00Z');
    await loadDemoData(db, 30, now);
    const subscriptions = await rows<{
      usuario_id: string;
      frequencia: string;
      proximo_envio: Date | null;
      grupos: number;
    }>(
      db,
      sql`select a.usuario_id, a.frequencia, a.proximo_envio,
                 (select count(*)::int from assinatura_grupos g where g.assinatura_id = a.id) as grupos
          from assinaturas a order by a.frequencia`,
    );
    expect(
      subscriptions.map((s) => [
        s.usuario_id,
        s.frequencia,
        s.proximo_envio && new Date(s.proximo_envio).toISOString(),
        s.grupos,
      ]),
    ).toEqual([
      // After each refresh: no time, it waits for the stand-in's next refresh.
      [DEMO_USER.id, 'apos-atualizacao', null, 0],
      // The 1st of December at 08:00 and Monday the 30th of November at 07:00, in São Paulo (UTC-3).
      [DEMO_ADMIN.id, 'mensal', '2026-12-01T11:00:00.000Z', 1],
      [DEMO_USER.id, 'semanal', '2026-11-30T10:00:00.000Z', 0],
    ]);
  });

  it('running it again returns false and changes nothing', async () => {
    expect(await loadDemoData(db)).toBe(true);
    const before = await counts(db);
    expect(await loadDemoData(db)).toBe(false);
    expect(await counts(db)).toEqual(before);
  });

  it('never loads into a database that already holds a classification', async () => {
    await db.execute(sql`insert into classificacoes (nome) values ('Real')`);
    expect(await loadDemoData(db)).toBe(false);
    expect(await counts(db)).toEqual({
      classificacoes: 1,
      paineis: 0,
      usuarios: 0,
      links: 0,
      roles: 0,
      emails: 0,
      grupos: 0,
      membros: 0,
      grupos_vinculados: 0,
      grupos_em_papeis: 0,
      revogados: 0,
      visualizacoes: 0,
      auditoria: 0,
      logins: 0,
      assinaturas: 0,
    });
  });

  it('never loads into a database that already holds a user or a panel', async () => {
    await db.execute(
      sql`insert into usuarios (id, email, display_name, source) values ('u1', 'real@empresa.com.br', 'Real', 'entra')`,
    );
    expect(await loadDemoData(db)).toBe(false);
    expect((await counts(db)).usuarios).toBe(1);
    expect((await counts(db)).paineis).toBe(0);

    await resetDatabase(database);
    await db.execute(sql`insert into paineis (nome_painel, workspace_id, report_id) values ('Real', 'w', 'r')`);
    expect(await loadDemoData(db)).toBe(false);
    expect(await counts(db)).toMatchObject({
      paineis: 1,
      usuarios: 0,
      classificacoes: 0,
      visualizacoes: 0,
      auditoria: 0,
    });
  });

  it('two loads started together load once', async () => {
    const results = await Promise.all([loadDemoData(db), loadDemoData(db)]);
    expect(results.sort()).toEqual([false, true]);
    expect((await counts(db)).paineis).toBeLessThanOrEqual(60);
    const [dups] = await rows<{ n: number }>(
      db,
      sql`
      select count(*)::int as n from (select nome from classificacoes group by nome having count(*) > 1) d`,
    );
    expect(dups!.n).toBe(0);
  });
});

describe('migrateDatabase', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('is a no-op on a migrated database: tables stay, data is kept', async () => {
    await resetDatabase(database);
    expect(await loadDemoData(database.db)).toBe(true);
    const before = await counts(database.db);
    const [applied] = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect(applied!.n).toBeGreaterThan(0);

    await migrateDatabase(database);
    await migrateDatabase(database);

    expect(await counts(database.db)).toEqual(before);
    const [after] = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect(after!.n).toBe(applied!.n);
    const tables = await rows<{ table_name: string }>(
      database.db,
      sql`
      select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'classificacoes',
        'paineis',
        'painel_rls_role_emails',
        'painel_rls_roles',
        'painel_usuarios',
        'tokens_revogados',
        'usuarios',
      ]),
    );
  });

  it('two migrations started together both succeed', async () => {
    await expect(Promise.all([migrateDatabase(database), migrateDatabase(database)])).resolves.toBeDefined();
    const [row] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from paineis`);
    expect(row!.n).toBeGreaterThan(0);
  });
});
