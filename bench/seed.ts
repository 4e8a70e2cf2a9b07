// The organisation every benchmark measures: SIZES (bench/budgets.ts) of panels, classifications, users and links.
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../apps/api/src/db/client.ts';
import { demoUsers } from '../apps/api/src/demo/demo-data.ts';
import { seedUsers } from '../apps/api/src/modules/users/users.service.ts';
import type { StandInReport } from '../packages/microsoft-stand-ins/src/types.ts';
import { SIZES } from './budgets.ts';

/**
 * The classification the web benchmark drags a panel across: 'Classificação 1', first on screen (classifications
 * go by name), with one panel in ten (200 of 2,000: Painel 1, Painel 11, …, Painel 1991, in that order).
 */
export const LARGE_GROUP = {
  name: 'Classificação 1',
  panels: Array.from({ length: SIZES.panels / 10 }, (_, i) => ({ id: i * 10 + 1, name: `Painel ${i * 10 + 1}` })),
};

/**
 * Replaces the database's data: users[0] is an admin, users[1] an ordinary user linked to every tenth panel.
 * The first SIZES.rlsPanels panels use RLS. Every 50th panel is unclassified; LARGE_GROUP holds the panels whose id
 * ends in 1, the other classifications share the rest (about 45 each).
 */
export async function seed(db: Db) {
  const started = Date.now();
  await db.execute(sql`truncate classificacoes, paineis, usuarios restart identity cascade`);
  const users = demoUsers(SIZES.users, 99).map((u, i) => ({ ...u, id: `bench-${i}`, email: `u${i}.${u.email}` }));
  users[0]!.role = 'Admin';
  await seedUsers(db, users, 'bench');
  await seedCatalog(db);
  // Each panel gets a window of users; user 1 (ordinary) is linked to every tenth panel. Every id is valid by
  // construction, so where the database lets it (a superuser: PGlite, or the benchmark's own PostgreSQL) the
  // 600,000 rows skip the foreign-key checks, which are most of the seeding's time. (Replica mode skips the
  // trigger that bumps the links' data version too: the next statement, a normal insert, bumps it.)
  const [{ superuser } = { superuser: false }] = await rows<{ superuser: boolean }>(
    db,
    sql`select current_setting('is_superuser') = 'on' as superuser`,
  );
  await db.transaction(async (tx) => {
    if (superuser) await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into painel_usuarios (painel_id, usuario_id)
      select p.id, 'bench-' || ((p.id * 37 + k) % ${SIZES.users - 2} + 2)
      from paineis p, generate_series(0, ${SIZES.linksPerPanel - 1}) k
      on conflict do nothing`);
  });
  await db.execute(
    sql`insert into painel_usuarios (painel_id, usuario_id) select id, 'bench-1' from paineis where id % 10 = 0`,
  );
  // The ordinary user is in a role of panel 10 (RLS), so they can open it.
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select id, ${users[1]!.email.toLowerCase()} from painel_rls_roles where painel_id = 10 and posicao = 1`);
  // As the server does at start on PGlite (no autovacuum there); a server would analyze by itself.
  await db.execute(sql`analyze`);
  return { users, seconds: (Date.now() - started) / 1000 };
}

/**
 * The classifications and panels (and the RLS panels' roles, each listing 50 addresses) of SIZES, on a database
 * whose tables are empty: the catalogue every benchmark shares, with or without the people seed() adds.
 */
export async function seedCatalog(db: Db): Promise<void> {
  await db.execute(sql`
    insert into classificacoes (nome, descricao)
    select 'Classificação ' || g, 'Descrição da classificação ' || g from generate_series(1, ${SIZES.classifications}) g`);
  await db.execute(sql`
    insert into paineis (nome_painel, workspace_id, report_id, usa_rls, classificacao_id, ordem)
    select 'Painel ' || g, '11111111-1111-4111-8111-111111111111', gen_random_uuid()::text, g <= ${SIZES.rlsPanels},
           case when g % 50 = 0 then null
                when g % 10 = 1 then 1
                else (g % ${SIZES.classifications - 1}) + 2 end, g
    from generate_series(1, ${SIZES.panels}) g`);
  await db.execute(sql`
    insert into painel_rls_roles (painel_id, role_name, posicao)
    select p.id, 'Papel ' || r, r from paineis p, generate_series(1, 3) r where p.usa_rls`);
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select r.id, 'pessoa' || k || '@empresa.com.br' from painel_rls_roles r, generate_series(1, 50) k`);
}

/** The Power BI stand-in's reports for the seeded panels (one each; RLS where the panel uses it). */
export async function seededReports(db: Db): Promise<StandInReport[]> {
  const found = await rows<{ report_id: string; usa_rls: boolean }>(db, sql`select report_id, usa_rls from paineis`);
  return found.map((row, i) => ({
    workspaceId: '11111111-1111-4111-8111-111111111111',
    reportId: row.report_id,
    name: `Relatório ${i + 1}`,
    datasetId: row.report_id.replace(/^.{8}/, 'dddddddd'),
    rls: row.usa_rls,
  }));
}
