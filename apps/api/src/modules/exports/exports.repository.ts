import { and, eq, isNull, lt, lte, sql } from 'drizzle-orm';
import type { FormatoExportacao } from '@paineis/contract/personal';
import type { Db } from '../../db/client.ts';
import { exportacoes } from '../../db/schema.ts';

/**
 * Export jobs, each bound to the person who started it (docs/decisions/012-export-jobs-bound-to-their-person.md), and
 * started again in Power BI after a transient failure (docs/decisions/015-export-as-power-bi-documents-it.md). Each
 * step of a new attempt is a conditional update on the Power BI export id it replaces, so instances polling the same
 * job at once agree on one attempt.
 */

export interface ExportRecord {
  id: string;
  painelId: number;
  formato: FormatoExportacao;
  powerBiExportId: string;
  workspaceId: string;
  reportId: string;
  /** What the job was asked for (null: not sent), to start it again as it was. */
  estado: string | null;
  pagina: string | null;
  /** How many times Power BI was asked to export this (1 for the first ExportTo). */
  tentativas: number;
  /** When the next attempt may start; null while none is due. */
  novaTentativaEm: Date | null;
}

const columns = {
  id: exportacoes.id,
  painelId: exportacoes.painelId,
  formato: exportacoes.formato,
  powerBiExportId: exportacoes.powerBiExportId,
  workspaceId: exportacoes.workspaceId,
  reportId: exportacoes.reportId,
  estado: exportacoes.estado,
  pagina: exportacoes.pagina,
  tentativas: exportacoes.tentativas,
  novaTentativaEm: exportacoes.novaTentativaEm,
};

export async function insertExport(
  db: Db,
  usuarioId: string,
  job: Omit<ExportRecord, 'id' | 'tentativas' | 'novaTentativaEm'>,
): Promise<ExportRecord> {
  const [row] = await db
    .insert(exportacoes)
    .values({ usuarioId, ...job })
    .returning(columns);
  return row!;
}

/** The job if it is this person's, of this panel; null for anyone else's, as if it did not exist. */
export async function findOwnExport(
  db: Db,
  id: string,
  usuarioId: string,
  painelId: number,
): Promise<ExportRecord | null> {
  const [row] = await db
    .select(columns)
    .from(exportacoes)
    .where(and(eq(exportacoes.id, id), eq(exportacoes.usuarioId, usuarioId), eq(exportacoes.painelId, painelId)));
  return row ?? null;
}

/**
 * Power BI failed this attempt transiently: the next may start at `at`. False when another poll already scheduled
 * it, the attempt was replaced meanwhile, or no attempt is left.
 */
export async function scheduleRetry(
  db: Db,
  job: Pick<ExportRecord, 'id' | 'powerBiExportId'>,
  at: Date,
  maxAttempts: number,
): Promise<boolean> {
  const rows = await db
    .update(exportacoes)
    .set({ novaTentativaEm: at })
    .where(
      and(
        eq(exportacoes.id, job.id),
        eq(exportacoes.powerBiExportId, job.powerBiExportId),
        isNull(exportacoes.novaTentativaEm),
        lt(exportacoes.tentativas, maxAttempts),
      ),
    )
    .returning({ id: exportacoes.id });
  return rows.length > 0;
}

/**
 * Takes the due attempt for this caller: counts it and holds it until `holdUntil` (the time to start it in Power BI),
 * so a poll meanwhile waits instead of starting one too. Null when another poll took it first, or none is due.
 */
export async function claimRetry(
  db: Db,
  job: Pick<ExportRecord, 'id' | 'powerBiExportId'>,
  now: Date,
  holdUntil: Date,
  maxAttempts: number,
): Promise<ExportRecord | null> {
  const [row] = await db
    .update(exportacoes)
    .set({ novaTentativaEm: holdUntil, tentativas: sql`${exportacoes.tentativas} + 1` })
    .where(
      and(
        eq(exportacoes.id, job.id),
        eq(exportacoes.powerBiExportId, job.powerBiExportId),
        lte(exportacoes.novaTentativaEm, now),
        lt(exportacoes.tentativas, maxAttempts),
      ),
    )
    .returning(columns);
  return row ?? null;
}

/** The attempt started: the job now follows Power BI's new export. */
export async function replaceExport(
  db: Db,
  job: Pick<ExportRecord, 'id' | 'powerBiExportId'>,
  powerBiExportId: string,
): Promise<ExportRecord | null> {
  const [row] = await db
    .update(exportacoes)
    .set({ powerBiExportId, novaTentativaEm: null })
    .where(and(eq(exportacoes.id, job.id), eq(exportacoes.powerBiExportId, job.powerBiExportId)))
    .returning(columns);
  return row ?? null;
}

/** Power BI refused the new attempt: the job stays on its failed export, which the next poll reads again. */
export async function releaseRetry(db: Db, job: Pick<ExportRecord, 'id' | 'powerBiExportId'>): Promise<void> {
  await db
    .update(exportacoes)
    .set({ novaTentativaEm: null })
    .where(and(eq(exportacoes.id, job.id), eq(exportacoes.powerBiExportId, job.powerBiExportId)));
}

export async function purgeExportsBefore(db: Db, before: Date): Promise<void> {
  await db.delete(exportacoes).where(lt(exportacoes.criadaEm, before));
}
