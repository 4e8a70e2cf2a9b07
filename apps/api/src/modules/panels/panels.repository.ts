import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { SEM_CLASSIFICACAO_ID, SEM_CLASSIFICACAO_NOME } from '@paineis/contract/classifications';
import type { GrupoPaineis, Painel, PainelDados, ReorderItem } from '@paineis/contract/panels';
import type { RlsConfiguration } from '@paineis/contract/rls';
import { rows, type Db } from '../../db/client.ts';
import { classificacoes, paineis, painelUsuarios } from '../../db/schema.ts';
import { VersionedCache } from '../../db/versioned-cache.ts';
import { badRequest, notFound } from '../../lib/http-error.ts';
import { byNome } from '../classifications/classifications.repository.ts';
import { getRls, replaceRls } from '../rls/rls.repository.ts';

/** Who is asking: admins see every panel, everyone else only the panels linked to them. */
export interface Viewer {
  id: string;
  isAdmin: boolean;
}

export const PAINEL_NAO_ENCONTRADO = 'Painel não encontrado.';

const columns = {
  id: paineis.id,
  nomePainel: paineis.nomePainel,
  workspaceId: paineis.workspaceId,
  reportId: paineis.reportId,
  usaRls: paineis.usaRls,
  classificacaoId: paineis.classificacaoId,
  classificacaoNome: classificacoes.nome,
  ordem: paineis.ordem,
  dataCadastro: paineis.dataCadastro,
  dataAtualizacao: paineis.dataAtualizacao,
};

type Row = {
  id: number;
  nomePainel: string;
  workspaceId: string;
  reportId: string;
  usaRls: boolean;
  classificacaoId: number | null;
  classificacaoNome: string | null;
  ordem: number;
  dataCadastro: Date;
  dataAtualizacao: Date | null;
};

function toPainel(r: Row): Painel {
  return {
    ...r,
    classificacaoId: r.classificacaoId ?? SEM_CLASSIFICACAO_ID,
    classificacaoNome: r.classificacaoNome ?? SEM_CLASSIFICACAO_NOME,
    dataCadastro: r.dataCadastro.toISOString(),
    dataAtualizacao: r.dataAtualizacao?.toISOString() ?? null,
  };
}

const visibleTo = (viewer: Viewer): SQL | undefined =>
  viewer.isAdmin
    ? undefined
    : sql`exists (select 1 from painel_usuarios pu where pu.painel_id = ${paineis.id} and pu.usuario_id = ${viewer.id})`;

function selectPanels(db: Db, where: SQL | undefined) {
  return db
    .select(columns)
    .from(paineis)
    .leftJoin(classificacoes, eq(classificacoes.id, paineis.classificacaoId))
    .where(where)
    .orderBy(paineis.ordem, paineis.id);
}

/**
 * Every panel and classification, in screen order (classifications by name, panels by ordem, unclassified
 * last), loaded once per change of either table. Callers must not modify what it returns.
 */
const catalog = new VersionedCache('paineis', async (db) => {
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
  return { panels, classes };
});

/** The ids of the panels linked to a non-admin; null for an admin, who sees everything. */
async function visibleIds(db: Db, viewer: Viewer): Promise<Set<number> | null> {
  if (viewer.isAdmin) return null;
  const linked = await db
    .select({ id: painelUsuarios.painelId })
    .from(painelUsuarios)
    .where(eq(painelUsuarios.usuarioId, viewer.id));
  return new Set(linked.map((r) => r.id));
}

async function visibleCatalog(db: Db, viewer: Viewer) {
  const [{ value }, ids] = await Promise.all([catalog.get(db), visibleIds(db, viewer)]);
  return { classes: value.classes, panels: ids ? value.panels.filter((p) => ids.has(p.id)) : value.panels };
}

/** Every visible panel, grouped as the list screen shows them: classifications by name, then by ordem. */
export async function listPanels(db: Db, viewer: Viewer): Promise<Painel[]> {
  return (await visibleCatalog(db, viewer)).panels;
}

export async function findPanel(db: Db, id: number, viewer: Viewer): Promise<Painel | null> {
  const [row] = await selectPanels(db, and(eq(paineis.id, id), visibleTo(viewer)));
  return row ? toPainel(row) : null;
}

export async function findPanelDados(db: Db, id: number): Promise<PainelDados | null> {
  const panel = await findPanel(db, id, { id: '', isAdmin: true });
  return panel ? { ...panel, rlsConfigurations: await getRls(db, id) } : null;
}

export async function panelExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: paineis.id }).from(paineis).where(eq(paineis.id, id));
  return Boolean(row);
}

/**
 * Groups for the list screen. Admins get every classification, empty ones included, so they can manage
 * them there; other users get only the groups holding panels they may see. 'Sem Classificação' comes last
 * and only when it holds panels.
 */
export async function groupedPanels(db: Db, viewer: Viewer): Promise<GrupoPaineis[]> {
  const { panels, classes } = await visibleCatalog(db, viewer);
  const byClass = new Map<number, Painel[]>();
  for (const p of panels) {
    const list = byClass.get(p.classificacaoId) ?? [];
    list.push(p);
    byClass.set(p.classificacaoId, list);
  }
  const groups: GrupoPaineis[] = classes
    .filter((c) => viewer.isAdmin || byClass.has(c.id))
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
  classificacaoId?: number | null | undefined;
  ordem?: number | undefined;
  rlsConfigurations?: RlsConfiguration[] | undefined;
}

async function resolveClassificacao(db: Db, id: number | null | undefined): Promise<number | null> {
  if (!id) return null;
  const [row] = await db.select({ id: classificacoes.id }).from(classificacoes).where(eq(classificacoes.id, id));
  if (!row) throw badRequest(`Classificação (classificacaoId) ${id} não existe.`);
  return id;
}

export async function createPanel(db: Db, input: PanelInput): Promise<Painel> {
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
        classificacaoId,
        ordem,
      })
      .returning({ id: paineis.id });
    if (input.rlsConfigurations) await replaceRls(tx, row!.id, input.rlsConfigurations);
    return row!.id;
  });
  return (await findPanel(db, id, { id: '', isAdmin: true }))!;
}

export async function updatePanel(db: Db, id: number, input: PanelInput): Promise<Painel> {
  await db.transaction(async (tx) => {
    const classificacaoId = await resolveClassificacao(tx, input.classificacaoId);
    const [current] = await tx
      .select({ classificacaoId: paineis.classificacaoId })
      .from(paineis)
      .where(eq(paineis.id, id))
      .for('update');
    if (!current) throw notFound(PAINEL_NAO_ENCONTRADO);
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
        classificacaoId,
        ...(ordem === undefined ? {} : { ordem }),
        dataAtualizacao: sql`now()`,
      })
      .where(eq(paineis.id, id));
    if (input.rlsConfigurations) await replaceRls(tx, id, input.rlsConfigurations);
  });
  return (await findPanel(db, id, { id: '', isAdmin: true }))!;
}

/** Links and RLS roles go with it (foreign keys cascade). */
export async function deletePanel(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(paineis).where(eq(paineis.id, id)).returning({ id: paineis.id });
  return rows.length > 0;
}

/** Applies every new ordem or none: one statement in one transaction, checked before it commits. */
export async function reorderPanels(db: Db, items: ReorderItem[]): Promise<void> {
  const seen = new Set<number>();
  for (const { painelId } of items) {
    if (seen.has(painelId)) throw badRequest(`O painel ${painelId} aparece mais de uma vez na reordenação.`);
    seen.add(painelId);
  }
  const ids = items.map((i) => i.painelId);
  const ordens = items.map((i) => i.novaOrdem);
  await db.transaction(async (tx) => {
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
  });
}
