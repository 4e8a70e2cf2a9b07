import { eq, isNull, sql } from 'drizzle-orm';
import { SEM_CLASSIFICACAO_ID } from '@paineis/contract/classifications';
import { PANEL_NOT_FOUND, type Painel, type ReorderItem } from '@paineis/contract/panels';
import type { RlsConfiguration } from '@paineis/contract/rls';
import { rows, type Db } from '../../db/client.ts';
import { classificacoes, paineis } from '../../db/schema.ts';
import { invalid, notFound } from '../../lib/domain-failure.ts';
import { lockPanel, requirePanel } from './panel-lookup.repository.ts';
import { publicGroupsGrantOf, type PublicGroupsGrant } from './public-groups.ts';
import { replaceRls, rlsForAudit } from './rls.repository.ts';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.ts';

/** Panels written: created, changed, deleted and reordered, each with its audit record in its transaction. */

/** The ordem a new panel would take: after the last one overall, or in one classification (0: none). */
export async function nextOrder(db: Db, classificacaoId?: number): Promise<number> {
  const where =
    classificacaoId === undefined
      ? undefined
      : classificacaoId === SEM_CLASSIFICACAO_ID
        ? isNull(paineis.classificacaoId)
        : eq(paineis.classificacaoId, classificacaoId);
  const [row] = await db
    .select({ next: sql<number>`(coalesce(max(${paineis.ordem}), 0) + 1)::int` })
    .from(paineis)
    .where(where);
  return row?.next ?? 1;
}

export interface PanelInput {
  nomePainel: string;
  workspaceId: string;
  reportId: string;
  usaRls: boolean;
  /** Omitted: true on a new panel, unchanged on an update. */
  permiteExportacao?: boolean | undefined;
  /** Omitted: true on a new panel, unchanged on an update. */
  permiteExportarDados?: boolean | undefined;
  /** null: the portal's language. Omitted: none on a new panel, unchanged on an update. */
  idioma?: string | null | undefined;
  classificacaoId?: number | null | undefined;
  ordem?: number | undefined;
  rlsConfigurations?: RlsConfiguration[] | undefined;
}

/** The classification a panel goes into: null for none (0 or null), refused when it does not exist. */
export async function resolveClassificacao(db: Db, id: number | null | undefined): Promise<number | null> {
  if (!id) return null;
  const [row] = await db.select({ id: classificacoes.id }).from(classificacoes).where(eq(classificacoes.id, id));
  if (!row) throw invalid(`Classificação (classificacaoId) ${id} não existe.`);
  return id;
}

/** A panel as the audit trail keeps it (docs/requirements.md#audit): its fields, classification and RLS roles. */
export async function panelForAudit(db: Db, id: number) {
  const [row] = await db
    .select({
      nomePainel: paineis.nomePainel,
      workspaceId: paineis.workspaceId,
      reportId: paineis.reportId,
      usaRls: paineis.usaRls,
      permiteExportacao: paineis.permiteExportacao,
      permiteExportarDados: paineis.permiteExportarDados,
      idioma: paineis.idioma,
      classificacao: classificacoes.nome,
      ordem: paineis.ordem,
    })
    .from(paineis)
    .leftJoin(classificacoes, eq(classificacoes.id, paineis.classificacaoId))
    .where(eq(paineis.id, id));
  return row ? { ...row, ...(await rlsForAudit(db, id)) } : null;
}

/**
 * A new panel's row and RLS roles, with the rules of every panel (a known classification, the ordem after the last,
 * Power BI's limits on roles), and no audit record: createPanel's part, the import's, and the demo's seeding. Call
 * inside a transaction. Answers its id.
 */
export async function insertPanel(db: Db, input: PanelInput, setting?: PublicGroupsGrant): Promise<number> {
  const classificacaoId = await resolveClassificacao(db, input.classificacaoId);
  const ordem = input.ordem ?? (await nextOrder(db, classificacaoId ?? SEM_CLASSIFICACAO_ID));
  const [row] = await db
    .insert(paineis)
    .values({
      nomePainel: input.nomePainel,
      workspaceId: input.workspaceId,
      reportId: input.reportId,
      usaRls: input.usaRls,
      permiteExportacao: input.permiteExportacao ?? true,
      permiteExportarDados: input.permiteExportarDados ?? true,
      idioma: input.idioma ?? null,
      classificacaoId,
      ordem,
    })
    .returning({ id: paineis.id });
  if (input.rlsConfigurations) await replaceRls(db, row!.id, input.rlsConfigurations, setting);
  return row!.id;
}

export async function createPanel(db: Db, input: PanelInput, actor: AuditActor = SYSTEM_ACTOR): Promise<Painel> {
  const setting = publicGroupsGrantOf(db);
  const id = await db.transaction(async (tx) => {
    const created = await insertPanel(tx, input, setting);
    const depois = await panelForAudit(tx, created);
    await recordAudit(tx, actor, {
      objeto: 'painel',
      acao: 'criacao',
      objetoId: created,
      objetoNome: input.nomePainel,
      depois,
    });
    return created;
  });
  return requirePanel(db, id);
}

export async function updatePanel(
  db: Db,
  id: number,
  input: PanelInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<Painel> {
  const setting = publicGroupsGrantOf(db);
  await db.transaction(async (tx) => {
    const classificacaoId = await resolveClassificacao(tx, input.classificacaoId);
    const current = await lockPanel(tx, id);
    const antes = await panelForAudit(tx, id);
    // Moved to another classification with no ordem given: it goes last there.
    const ordem =
      input.ordem ??
      (current.classificacaoId === classificacaoId
        ? undefined
        : await nextOrder(tx, classificacaoId ?? SEM_CLASSIFICACAO_ID));
    await tx
      .update(paineis)
      .set({
        nomePainel: input.nomePainel,
        workspaceId: input.workspaceId,
        reportId: input.reportId,
        usaRls: input.usaRls,
        ...(input.permiteExportacao === undefined ? {} : { permiteExportacao: input.permiteExportacao }),
        ...(input.permiteExportarDados === undefined ? {} : { permiteExportarDados: input.permiteExportarDados }),
        ...(input.idioma === undefined ? {} : { idioma: input.idioma }),
        classificacaoId,
        ...(ordem === undefined ? {} : { ordem }),
        dataAtualizacao: sql`now()`,
      })
      .where(eq(paineis.id, id));
    if (input.rlsConfigurations) await replaceRls(tx, id, input.rlsConfigurations, setting);
    const depois = await panelForAudit(tx, id);
    await recordAudit(tx, actor, {
      objeto: 'painel',
      acao: 'alteracao',
      objetoId: id,
      objetoNome: input.nomePainel,
      antes,
      depois,
    });
  });
  return requirePanel(db, id);
}

/** Links and RLS roles go with it (foreign keys cascade). */
export async function deletePanel(db: Db, id: number, actor: AuditActor = SYSTEM_ACTOR): Promise<void> {
  await db.transaction(async (tx) => {
    const antes = await panelForAudit(tx, id);
    const deleted = await tx.delete(paineis).where(eq(paineis.id, id)).returning({ id: paineis.id });
    if (!antes || deleted.length === 0) throw notFound(PANEL_NOT_FOUND);
    await recordAudit(tx, actor, {
      objeto: 'painel',
      acao: 'exclusao',
      objetoId: id,
      objetoNome: antes.nomePainel,
      antes,
    });
  });
}

/** Applies every new ordem or none: one statement in one transaction, checked before it commits. */
export async function reorderPanels(db: Db, items: ReorderItem[], actor: AuditActor = SYSTEM_ACTOR): Promise<void> {
  const seen = new Set<number>();
  for (const { painelId } of items) {
    if (seen.has(painelId)) throw invalid(`O painel ${painelId} aparece mais de uma vez na reordenação.`);
    seen.add(painelId);
  }
  const ids = items.map((i) => i.painelId);
  const ordens = items.map((i) => i.novaOrdem);
  await db.transaction(async (tx) => {
    // The rows locked first, in id order: the update below locks them in the order the items came (a nested
    // loop over the list), so two reorders listing the same panels differently deadlocked on PostgreSQL.
    const locked = await rows<{ id: number; nome: string; ordem: number }>(
      tx,
      sql`
      select id, nome_painel as nome, ordem from paineis where id = any(${sql.param(ids)}::int[])
      order by id for no key update`,
    );
    const updated = await rows<{ id: number }>(
      tx,
      sql`
      update paineis p set ordem = v.nova_ordem
      from unnest(${sql.param(ids)}::int[], ${sql.param(ordens)}::int[]) as v(id, nova_ordem)
      where p.id = v.id
      returning p.id`,
    );
    if (updated.length !== ids.length) {
      const found = new Set(updated.map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      throw notFound(`Painéis não encontrados: ${missing.join(', ')}. Nenhuma ordem foi alterada.`);
    }
    // Each panel by name and id, with its ordem before and after.
    const label = (p: { id: number; nome: string }) => `${p.nome} (#${p.id})`;
    const nova = new Map(items.map((i) => [i.painelId, i.novaOrdem]));
    await recordAudit(tx, actor, {
      objeto: 'ordem',
      acao: 'alteracao',
      antes: Object.fromEntries(locked.map((p) => [label(p), p.ordem])),
      depois: Object.fromEntries(locked.map((p) => [label(p), nova.get(p.id)])),
    });
  });
}
