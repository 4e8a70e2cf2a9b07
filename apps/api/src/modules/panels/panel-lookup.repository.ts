import { eq, type SQL } from 'drizzle-orm';
import { SEM_CLASSIFICACAO_ID, SEM_CLASSIFICACAO_NOME } from '@paineis/contract/classifications';
import { PANEL_NOT_FOUND, type Painel } from '@paineis/contract/panels';
import type { Db } from '../../db/client.ts';
import { classificacoes, paineis } from '../../db/schema.ts';
import { notFound } from '../../lib/domain-failure.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';

/** Reading one panel: what every route of the panel aggregate starts from. */

const columns = {
  id: paineis.id,
  nomePainel: paineis.nomePainel,
  workspaceId: paineis.workspaceId,
  reportId: paineis.reportId,
  usaRls: paineis.usaRls,
  permiteExportacao: paineis.permiteExportacao,
  permiteExportarDados: paineis.permiteExportarDados,
  idioma: paineis.idioma,
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
  permiteExportacao: boolean;
  permiteExportarDados: boolean;
  idioma: string | null;
  classificacaoId: number | null;
  classificacaoNome: string | null;
  ordem: number;
  dataCadastro: Date;
  dataAtualizacao: Date | null;
};

export function toPanel(r: Row): Painel {
  return {
    ...r,
    classificacaoId: r.classificacaoId ?? SEM_CLASSIFICACAO_ID,
    classificacaoNome: r.classificacaoNome ?? SEM_CLASSIFICACAO_NOME,
    dataCadastro: r.dataCadastro.toISOString(),
    dataAtualizacao: r.dataAtualizacao?.toISOString() ?? null,
  };
}

export function selectPanels(db: Db, where: SQL | undefined) {
  return db
    .select(columns)
    .from(paineis)
    .leftJoin(classificacoes, eq(classificacoes.id, paineis.classificacaoId))
    .where(where)
    .orderBy(paineis.ordem, paineis.id);
}

/** The panel, whoever may see it; 404 when there is none. The one existence check of the panel routes. */
export async function requirePanel(db: Db, id: number): Promise<Painel> {
  const [row] = await selectPanels(db, eq(paineis.id, id));
  if (!row) throw notFound(PANEL_NOT_FOUND);
  return toPanel(row);
}

/**
 * Inside a transaction: the panel's row locked until it ends, or 404 when there is none. Every transaction that
 * replaces something hanging off a panel (its RLS roles, its links) or the panel itself (updatePanel) takes this lock
 * first, so on PostgreSQL two such replacements take turns instead of interleaving their deletes and inserts
 * (a mix of both sets, a duplicate key, a deadlock). NO KEY UPDATE: foreign-key checks elsewhere are not held up.
 */
export async function lockPanel(db: Db, id: number): Promise<{ nomePainel: string; classificacaoId: number | null }> {
  const [row] = await db
    .select({ nomePainel: paineis.nomePainel, classificacaoId: paineis.classificacaoId })
    .from(paineis)
    .where(eq(paineis.id, id))
    .for('no key update');
  if (!row) throw notFound(PANEL_NOT_FOUND);
  return row;
}

/**
 * Runs a change of one aspect of an existing panel (its links, its RLS roles) in one transaction, with the panel
 * locked, and records it in the audit trail as `objeto`, with that aspect as `snapshot` reads it before and after.
 */
export async function auditedPanelChange(
  db: Db,
  painelId: number,
  actor: AuditActor,
  objeto: 'vinculos' | 'rls',
  snapshot: (tx: Db) => Promise<Record<string, unknown>>,
  change: (tx: Db) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { nomePainel } = await lockPanel(tx, painelId);
    const antes = await snapshot(tx);
    await change(tx);
    const depois = await snapshot(tx);
    await recordAudit(tx, actor, {
      objeto,
      acao: 'alteracao',
      objetoId: painelId,
      objetoNome: nomePainel,
      antes,
      depois,
    });
  });
}
