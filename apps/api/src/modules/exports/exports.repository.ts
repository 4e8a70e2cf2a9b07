import { and, eq, lt } from 'drizzle-orm';
import type { FormatoExportacao } from '@paineis/contract/personal';
import type { Db } from '../../db/client.ts';
import { exportacoes } from '../../db/schema.ts';

/** Export jobs, each bound to the person who started it (docs/decisions/012-export-jobs-bound-to-their-person.md). */

export interface ExportRecord {
  id: string;
  painelId: number;
  formato: FormatoExportacao;
  powerBiExportId: string;
  workspaceId: string;
  reportId: string;
}

export async function insertExport(db: Db, usuarioId: string, job: Omit<ExportRecord, 'id'>): Promise<ExportRecord> {
  const [row] = await db
    .insert(exportacoes)
    .values({ usuarioId, ...job })
    .returning({
      id: exportacoes.id,
      painelId: exportacoes.painelId,
      formato: exportacoes.formato,
      powerBiExportId: exportacoes.powerBiExportId,
      workspaceId: exportacoes.workspaceId,
      reportId: exportacoes.reportId,
    });
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
    .select({
      id: exportacoes.id,
      painelId: exportacoes.painelId,
      formato: exportacoes.formato,
      powerBiExportId: exportacoes.powerBiExportId,
      workspaceId: exportacoes.workspaceId,
      reportId: exportacoes.reportId,
    })
    .from(exportacoes)
    .where(and(eq(exportacoes.id, id), eq(exportacoes.usuarioId, usuarioId), eq(exportacoes.painelId, painelId)));
  return row ?? null;
}

export async function purgeExportsBefore(db: Db, before: Date): Promise<void> {
  await db.delete(exportacoes).where(lt(exportacoes.criadaEm, before));
}
