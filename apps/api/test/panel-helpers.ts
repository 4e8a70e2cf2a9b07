/**
 * What the panel route tests share (panels.test.ts, panel-list.test.ts, panel-embed.test.ts): valid ids and
 * bodies, signing in, a seeded organisation and a row count. Not a test file itself.
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext } from './context.ts';
import { classificacao, createAdmin, createUser, panel } from './fixtures.ts';
import { rows } from '../src/db/client.ts';

export const NOT_FOUND = { message: 'Painel não encontrado.' };
export const WORKSPACE = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
export const REPORT = '12345678-90ab-4cde-8f01-234567890abc';
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A valid POST/PUT body; each test overrides what it is about. */
export const body = (overrides: Record<string, unknown> = {}) => ({
  nomePainel: 'Painel de Vendas',
  workspaceId: WORKSPACE,
  reportId: REPORT,
  usaRls: false,
  ...overrides,
});

/**
 * A panel over WORKSPACE and REPORT as the API answers it once created and never updated: the contract's fields that
 * such a panel always has, and the ones given.
 */
export const newPanelAnswer = (fields: Record<string, unknown>) => ({
  workspaceId: WORKSPACE,
  reportId: REPORT,
  permiteExportacao: true,
  idioma: null,
  permiteExportarDados: true,
  dataCadastro: expect.stringMatching(ISO),
  dataAtualizacao: null,
  ...fields,
});

export async function count(
  ctx: TestContext,
  table: 'paineis' | 'painel_rls_roles' | 'painel_rls_role_emails' | 'painel_usuarios',
) {
  const [row] = await rows<{ n: number }>(ctx.db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return row!.n;
}

export async function signIn(ctx: TestContext, role: 'Admin' | 'User') {
  const user = role === 'Admin' ? await createAdmin(ctx.db) : await createUser(ctx.db);
  return { user, token: await ctx.tokenFor(user) };
}

/**
 * A small organisation: classifications whose id order differs from their name order, panels whose id
 * order differs from their ordem, two panels without classification, RLS roles and links.
 */
export async function seed(ctx: TestContext) {
  const vendas = await classificacao(ctx.db, 'Vendas', { descricao: 'Relatórios comerciais' }); // id 1
  const compras = await classificacao(ctx.db, 'compras'); // id 2, lower-case on purpose
  const auditoria = await classificacao(ctx.db, 'Auditoria', { descricao: 'Ainda sem painéis', ativo: false }); // id 3
  const metas = await panel(ctx.db, { nomePainel: 'Metas', classificacaoId: vendas.id, ordem: 2 });
  const faturamento = await panel(ctx.db, { nomePainel: 'Faturamento', classificacaoId: vendas.id, ordem: 1 });
  const fornecedores = await panel(ctx.db, { nomePainel: 'Fornecedores', classificacaoId: compras.id, ordem: 1 });
  const avulsoB = await panel(ctx.db, { nomePainel: 'Avulso B', ordem: 2 });
  const avulsoA = await panel(ctx.db, { nomePainel: 'Avulso A', ordem: 1 });
  const regional = await panel(ctx.db, {
    nomePainel: 'Regional',
    classificacaoId: vendas.id,
    ordem: 3,
    usaRls: true,
    rlsConfigurations: [
      { roleName: 'Sul', userEmails: ['b@empresa.com.br', 'a@empresa.com.br'] },
      { roleName: 'Norte', userEmails: ['c@empresa.com.br'] },
    ],
  });
  return { vendas, compras, auditoria, metas, faturamento, fornecedores, avulsoA, avulsoB, regional };
}

export const ids = (list: { id: number }[]) => list.map((p) => p.id);

/**
 * Stores RLS roles as they were before Power BI's limits were enforced (more than 50, long names, commas): straight
 * into the tables, past the API and the repository that would now refuse them. Appends after any existing roles.
 */
export async function storeLegacyRoles(
  ctx: TestContext,
  painelId: number,
  roles: { roleName: string; userEmails?: string[] }[],
) {
  for (const { roleName, userEmails = [] } of roles) {
    const [role] = await rows<{ id: number }>(
      ctx.db,
      sql`insert into painel_rls_roles (painel_id, role_name, posicao)
          values (${painelId}, ${roleName}, (select coalesce(max(posicao) + 1, 0) from painel_rls_roles where painel_id = ${painelId}))
          returning id`,
    );
    for (const email of userEmails) {
      await ctx.db.execute(sql`insert into painel_rls_role_emails (role_id, email) values (${role!.id}, ${email})`);
    }
  }
}
