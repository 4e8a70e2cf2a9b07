// The organisation every benchmark measures: SIZES (bench/budgets.ts) of panels, classifications, users and links.
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.ts';
import { demoUsers } from '../apps/api/src/demo/demo-data.ts';
import { seedUsers } from '../apps/api/src/modules/users/users.service.ts';
import { SIZES } from './budgets.ts';

/** Replaces the database's data: users[0] is an admin, users[1] an ordinary user linked to every tenth panel. */
export async function seed(db: Db) {
  const started = Date.now();
  await db.execute(sql`truncate classificacoes, paineis, usuarios restart identity cascade`);
  const users = demoUsers(SIZES.users, 99).map((u, i) => ({ ...u, id: `bench-${i}`, email: `u${i}.${u.email}` }));
  users[0]!.role = 'Admin';
  await seedUsers(db, users, 'bench');
  await db.execute(sql`
    insert into classificacoes (nome, descricao)
    select 'Classificação ' || g, 'Descrição da classificação ' || g from generate_series(1, ${SIZES.classifications}) g`);
  await db.execute(sql`
    insert into paineis (nome_painel, workspace_id, report_id, usa_rls, classificacao_id, ordem)
    select 'Painel ' || g, '11111111-1111-4111-8111-111111111111', gen_random_uuid()::text, g <= ${SIZES.rlsPanels},
           case when g % 50 = 0 then null else (g % ${SIZES.classifications}) + 1 end, g
    from generate_series(1, ${SIZES.panels}) g`);
  // Each panel gets a window of users; user 1 (ordinary) is linked to every tenth panel.
  await db.execute(sql`
    insert into painel_usuarios (painel_id, usuario_id)
    select p.id, 'bench-' || ((p.id * 37 + k) % ${SIZES.users - 2} + 2)
    from paineis p, generate_series(0, ${SIZES.linksPerPanel - 1}) k
    on conflict do nothing`);
  await db.execute(
    sql`insert into painel_usuarios (painel_id, usuario_id) select id, 'bench-1' from paineis where id % 10 = 0`,
  );
  await db.execute(sql`
    insert into painel_rls_roles (painel_id, role_name, posicao)
    select p.id, 'Papel ' || r, r from paineis p, generate_series(1, 3) r where p.usa_rls`);
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select r.id, 'pessoa' || k || '@empresa.com.br' from painel_rls_roles r, generate_series(1, 50) k`);
  // The ordinary user is in a role of panel 10 (RLS), so they can open it.
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select id, ${users[1]!.email.toLowerCase()} from painel_rls_roles where painel_id = 10 and posicao = 1`);
  // As the server does at start on PGlite (no autovacuum there); a server would analyze by itself.
  await db.execute(sql`analyze`);
  return { users, seconds: (Date.now() - started) / 1000 };
}
