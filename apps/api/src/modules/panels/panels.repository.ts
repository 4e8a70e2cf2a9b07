import { eq, isNull, sql } from 'drizzle-orm';
import { SEM_CLASSIFICACAO_ID, SEM_CLASSIFICACAO_NOME } from '@paineis/contract/classifications';
import type { GrupoPaineis, Painel, PainelConfiguracoes, ReorderItem } from '@paineis/contract/panels';
import type { RlsConfiguration } from '@paineis/contract/rls';
import { rows, type Db } from '../../db/client.ts';
import { classificacoes, paineis, painelUsuarios } from '../../db/schema.ts';
import { VersionedCache, VersionedKeyedCache } from '../../db/versioned-cache.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { invalid, notFound } from '../../lib/domain-failure.ts';
import { byNome } from '../../lib/collation.ts';
import { PAINEL_NAO_ENCONTRADO, requirePanel, selectPanels, toPainel } from './panel-lookup.repository.ts';
import { linkedUsers } from './panel-users.repository.ts';
import type { Requester } from './requester.ts';
import { getRls, replaceRls, rlsForAudit } from './rls.repository.ts';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.ts';

/** What decides which panels a person sees: who they are and whether they administer the portal. */
type Viewer = Pick<Requester, 'id' | 'isAdmin'>;

/**
 * Every panel and classification, in screen order (classifications by name, panels by ordem, unclassified
 * last), loaded once per change of either table, with each panel by id. Callers must not modify what it returns.
 */
const catalog = new VersionedCache(['paineis'], async (db) => {
  const [rows, classes] = await Promise.all([
    selectPanels(db, undefined),
    db
      .select({
        id: classificacoes.id,
        nome: classificacoes.nome,
        descricao: classificacoes.descricao,
        ativo: classificacoes.ativo,
      })
      .from(classificacoes),
  ]);
  classes.sort((a, b) => byNome(a, b) || a.id - b.id);
  const rank = new Map(classes.map((c, i) => [c.id, i]));
  const rankOf = (p: Painel) => rank.get(p.classificacaoId) ?? classes.length;
  // Array.prototype.sort is stable, so each group keeps the ordem the query gave it.
  const panels = rows.map(toPainel).sort((a, b) => rankOf(a) - rankOf(b));
  return { panels, classes, byId: new Map(panels.map((p) => [p.id, p])) };
});

/** The ids of the panels linked to each person, loaded on first use and kept until any link changes. */
const linkedIds = new VersionedKeyedCache(
  ['vinculos'],
  async (db, userId: string) => {
    const linked = await db
      .select({ id: painelUsuarios.painelId })
      .from(painelUsuarios)
      .where(eq(painelUsuarios.usuarioId, userId));
    return new Set(linked.map((r) => r.id));
  },
  50_000,
);

/** The ids of the panels linked to a non-admin; null for an admin, who sees everything. */
async function visibleIds(db: Db, requester: Viewer): Promise<Set<number> | null> {
  return requester.isAdmin ? null : linkedIds.get(db, requester.id);
}

async function visibleCatalog(db: Db, requester: Viewer) {
  const [value, ids] = await Promise.all([catalog.get(db), visibleIds(db, requester)]);
  return { classes: value.classes, panels: ids ? value.panels.filter((p) => ids.has(p.id)) : value.panels };
}

/** The panel if this person may see it: any panel for an admin, a linked one for everyone else. From memory. */
export async function findVisiblePanel(db: Db, id: number, requester: Viewer): Promise<Painel | null> {
  // Every opening of a panel asks this: with both in memory already, it answers without waiting on either.
  const loaded = catalog.peek(db);
  const linked = requester.isAdmin ? null : linkedIds.peek(db, requester.id);
  const [{ byId }, ids] =
    loaded && linked !== undefined ? [loaded, linked] : await Promise.all([catalog.get(db), visibleIds(db, requester)]);
  const panel = byId.get(id);
  return panel && (!ids || ids.has(id)) ? panel : null;
}

/** The ids of every panel this person may see, in screen order. From memory. */
export async function visiblePanelIds(db: Db, requester: Viewer): Promise<number[]> {
  return (await visibleCatalog(db, requester)).panels.map((p) => p.id);
}

/** Every visible panel, grouped as the list screen shows them: classifications by name, then by ordem. */
async function listPanels(db: Db, requester: Viewer): Promise<Painel[]> {
  return (await visibleCatalog(db, requester)).panels;
}

/**
 * Groups for the list screen. Admins get every classification, empty ones included, so they can manage
 * them there; other users get only the groups holding panels they may see. 'Sem Classificação' comes last
 * and only when it holds panels.
 */
async function groupedPanels(db: Db, requester: Viewer): Promise<GrupoPaineis[]> {
  const { panels, classes } = await visibleCatalog(db, requester);
  const byClass = new Map<number, Painel[]>();
  for (const p of panels) {
    const list = byClass.get(p.classificacaoId) ?? [];
    list.push(p);
    byClass.set(p.classificacaoId, list);
  }
  const groups: GrupoPaineis[] = classes
    .filter((c) => requester.isAdmin || byClass.has(c.id))
    .map((c) => {
      const list = byClass.get(c.id) ?? [];
      return { ...c, quantidadePaineis: list.length, paineis: list };
    });
  const orphans = byClass.get(SEM_CLASSIFICACAO_ID);
  if (orphans) {
    groups.push({
      id: SEM_CLASSIFICACAO_ID,
      nome: SEM_CLASSIFICACAO_NOME,
      descricao: null,
      ativo: true,
      quantidadePaineis: orphans.length,
      paineis: orphans,
    });
  }
  return groups;
}

/**
 * A list answer as bytes, made once per change: one for admins (they all see everything), one per person for
 * the others (up to `capacity` people, the oldest dropped first).
 */
function preparedList(compute: (db: Db, requester: Viewer) => Promise<unknown>) {
  const forAdmins = new VersionedCache(
    ['paineis'],
    async (db) => new PreparedJson(await compute(db, { id: '', isAdmin: true })),
  );
  const perPerson = new VersionedKeyedCache(
    ['paineis', 'vinculos'],
    async (db, id: string) => new PreparedJson(await compute(db, { id, isAdmin: false })),
    2_000,
  );
  return (db: Db, requester: Viewer): Promise<PreparedJson> =>
    requester.isAdmin ? forAdmins.get(db) : perPerson.get(db, requester.id);
}

export const listPanelsJson = preparedList(listPanels);
export const groupedPanelsJson = preparedList(groupedPanels);

const dadosJson = new VersionedKeyedCache(['paineis', 'rls'], async (db, id: number) => {
  const panel = (await catalog.get(db)).byId.get(id);
  return panel ? new PreparedJson({ ...panel, rlsConfigurations: await getRls(db, id) }) : null;
});

/** A panel with its RLS roles, for editing, as bytes made once per change of either. */
export async function findPanelDadosJson(db: Db, id: number): Promise<PreparedJson> {
  const prepared = await dadosJson.get(db, id);
  if (!prepared) throw notFound(PAINEL_NAO_ENCONTRADO);
  return prepared;
}

/** Everything configured on a panel: its report, its RLS roles and its linked users. */
export async function findPanelConfiguracoes(db: Db, id: number): Promise<PainelConfiguracoes> {
  const panel = await requirePanel(db, id);
  const [rlsConfigurations, usuariosVinculados] = await Promise.all([getRls(db, id), linkedUsers(db, id)]);
  return {
    painelId: id,
    nomePainel: panel.nomePainel,
    workspaceId: panel.workspaceId,
    reportId: panel.reportId,
    usaRls: panel.usaRls,
    rlsConfigurations,
    usuariosVinculados,
  };
}

/** The ordem a new panel would take: after the last one overall, or in one classification (0: none). */
export async function nextOrdem(db: Db, classificacaoId?: number): Promise<number> {
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
  classificacaoId?: number | null | undefined;
  ordem?: number | undefined;
  rlsConfigurations?: RlsConfiguration[] | undefined;
}

async function resolveClassificacao(db: Db, id: number | null | undefined): Promise<number | null> {
  if (!id) return null;
  const [row] = await db.select({ id: classificacoes.id }).from(classificacoes).where(eq(classificacoes.id, id));
  if (!row) throw invalid(`Classificação (classificacaoId) ${id} não existe.`);
  return id;
}

/** A panel as the audit trail keeps it (docs/requirements.md#audit): its fields, classification and RLS roles. */
async function panelForAudit(db: Db, id: number) {
  const [row] = await db
    .select({
      nomePainel: paineis.nomePainel,
      workspaceId: paineis.workspaceId,
      reportId: paineis.reportId,
      usaRls: paineis.usaRls,
      permiteExportacao: paineis.permiteExportacao,
      classificacao: classificacoes.nome,
      ordem: paineis.ordem,
    })
    .from(paineis)
    .leftJoin(classificacoes, eq(classificacoes.id, paineis.classificacaoId))
    .where(eq(paineis.id, id));
  return row ? { ...row, ...(await rlsForAudit(db, id)) } : null;
}

export async function createPanel(db: Db, input: PanelInput, actor: AuditActor = SYSTEM_ACTOR): Promise<Painel> {
  const id = await db.transaction(async (tx) => {
    const classificacaoId = await resolveClassificacao(tx, input.classificacaoId);
    const ordem = input.ordem ?? (await nextOrdem(tx, classificacaoId ?? SEM_CLASSIFICACAO_ID));
    const [row] = await tx
      .insert(paineis)
      .values({
        nomePainel: input.nomePainel,
        workspaceId: input.workspaceId,
        reportId: input.reportId,
        usaRls: input.usaRls,
        permiteExportacao: input.permiteExportacao ?? true,
        classificacaoId,
        ordem,
      })
      .returning({ id: paineis.id });
    if (input.rlsConfigurations) await replaceRls(tx, row!.id, input.rlsConfigurations);
    const depois = await panelForAudit(tx, row!.id);
    await recordAudit(tx, actor, {
      objeto: 'painel',
      acao: 'criacao',
      objetoId: row!.id,
      objetoNome: input.nomePainel,
      depois,
    });
    return row!.id;
  });
  return requirePanel(db, id);
}

export async function updatePanel(
  db: Db,
  id: number,
  input: PanelInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<Painel> {
  await db.transaction(async (tx) => {
    const classificacaoId = await resolveClassificacao(tx, input.classificacaoId);
    const [current] = await tx
      .select({ classificacaoId: paineis.classificacaoId })
      .from(paineis)
      .where(eq(paineis.id, id))
      .for('update');
    if (!current) throw notFound(PAINEL_NAO_ENCONTRADO);
    const antes = await panelForAudit(tx, id);
    // Moved to another classification with no ordem given: it goes last there.
    const ordem =
      input.ordem ??
      (current.classificacaoId === classificacaoId
        ? undefined
        : await nextOrdem(tx, classificacaoId ?? SEM_CLASSIFICACAO_ID));
    await tx
      .update(paineis)
      .set({
        nomePainel: input.nomePainel,
        workspaceId: input.workspaceId,
        reportId: input.reportId,
        usaRls: input.usaRls,
        ...(input.permiteExportacao === undefined ? {} : { permiteExportacao: input.permiteExportacao }),
        classificacaoId,
        ...(ordem === undefined ? {} : { ordem }),
        dataAtualizacao: sql`now()`,
      })
      .where(eq(paineis.id, id));
    if (input.rlsConfigurations) await replaceRls(tx, id, input.rlsConfigurations);
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
    if (!antes || deleted.length === 0) throw notFound(PAINEL_NAO_ENCONTRADO);
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
