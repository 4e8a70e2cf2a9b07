import { sql } from 'drizzle-orm';
import type { EstadoSaude } from '@paineis/contract/power-bi';
import type { Db } from '../../db/client.ts';
import { painelSaude } from '../../db/schema.ts';
import { writeSkippingDeletedPanels } from './deleted-panels.repository.ts';

/** The last check of each panel's report, as stored. */
export interface StoredHealth {
  painelId: number;
  /** The report checked, lower-case. */
  workspaceId: string;
  reportId: string;
  estado: EstadoSaude;
  mensagem: string | null;
  verificadoEm: Date;
}

export async function storedHealth(db: Db): Promise<StoredHealth[]> {
  return db
    .select({
      painelId: painelSaude.painelId,
      workspaceId: painelSaude.workspaceId,
      reportId: painelSaude.reportId,
      estado: painelSaude.estado,
      mensagem: painelSaude.mensagem,
      verificadoEm: painelSaude.verificadoEm,
    })
    .from(painelSaude)
    .orderBy(painelSaude.painelId);
}

/**
 * Records checks, one statement for all of them; when a panel was deleted meanwhile (the foreign key refuses the
 * statement), one at a time, leaving out those of the panels no longer there.
 */
export async function saveHealth(db: Db, checks: StoredHealth[]): Promise<void> {
  if (checks.length === 0) return;
  await db.transaction(async (tx) => writeSkippingDeletedPanels(tx, checks, upsertHealth));
}

async function upsertHealth(db: Db, checks: StoredHealth[]): Promise<void> {
  await db
    .insert(painelSaude)
    .values(checks)
    .onConflictDoUpdate({
      target: painelSaude.painelId,
      set: {
        workspaceId: sql`excluded.workspace_id`,
        reportId: sql`excluded.report_id`,
        estado: sql`excluded.estado`,
        mensagem: sql`excluded.mensagem`,
        verificadoEm: sql`excluded.verificado_em`,
      },
    });
}
