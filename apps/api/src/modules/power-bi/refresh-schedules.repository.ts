import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { datasetsAgendamento, datasetsAtualizacao, painelDatasets } from '../../db/schema.ts';

/** Each panel dataset's scheduled refresh, as the schedules' rounds stored it. */

export interface DatasetSchedule {
  datasetId: string;
  dias: string[];
  horarios: string[];
  /** A Windows time zone id. */
  fuso: string | null;
  habilitado: boolean;
}

/**
 * The datasets whose schedule is read: each one a panel reads, where the freshness round found it, except those it
 * found to be DirectQuery or live ('tempo-real': no scheduled refresh of their own).
 */
export async function datasetsToRead(db: Db): Promise<{ datasetId: string; workspaceId: string }[]> {
  const rows = await db
    .selectDistinct({ datasetId: painelDatasets.datasetId, workspaceId: painelDatasets.datasetWorkspaceId })
    .from(painelDatasets)
    .leftJoin(datasetsAtualizacao, eq(datasetsAtualizacao.datasetId, painelDatasets.datasetId))
    .where(
      and(
        isNotNull(painelDatasets.datasetId),
        isNotNull(painelDatasets.datasetWorkspaceId),
        sql`${datasetsAtualizacao.status} is distinct from 'tempo-real'`,
      ),
    );
  return rows.flatMap((r) =>
    r.datasetId && r.workspaceId ? [{ datasetId: r.datasetId, workspaceId: r.workspaceId }] : [],
  );
}

/**
 * A round's findings, in one transaction: the schedules read, no row for the datasets Power BI said have none, and
 * none for a dataset no panel reads any more. A dataset whose call failed keeps what it had.
 */
export async function saveSchedules(db: Db, read: DatasetSchedule[], without: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    if (read.length > 0) {
      await tx
        .insert(datasetsAgendamento)
        .values(read.map((s) => ({ ...s, lidoEm: new Date() })))
        .onConflictDoUpdate({
          target: datasetsAgendamento.datasetId,
          set: {
            dias: sql`excluded.dias`,
            horarios: sql`excluded.horarios`,
            fuso: sql`excluded.fuso`,
            habilitado: sql`excluded.habilitado`,
            lidoEm: sql`excluded.lido_em`,
          },
        });
    }
    for (const datasetId of without) {
      await tx.delete(datasetsAgendamento).where(eq(datasetsAgendamento.datasetId, datasetId));
    }
    await tx.execute(sql`
      delete from datasets_agendamento a
       where not exists (select 1 from painel_datasets l where l.dataset_id = a.dataset_id)`);
  });
}

/** The enabled schedules, each with the panels that read its dataset now. */
export async function enabledSchedules(db: Db): Promise<(DatasetSchedule & { painelIds: number[] })[]> {
  const rows = await db
    .select({
      datasetId: datasetsAgendamento.datasetId,
      dias: datasetsAgendamento.dias,
      horarios: datasetsAgendamento.horarios,
      fuso: datasetsAgendamento.fuso,
      habilitado: datasetsAgendamento.habilitado,
      painelId: painelDatasets.painelId,
    })
    .from(datasetsAgendamento)
    .innerJoin(painelDatasets, eq(painelDatasets.datasetId, datasetsAgendamento.datasetId))
    .where(eq(datasetsAgendamento.habilitado, true));
  const byDataset = new Map<string, DatasetSchedule & { painelIds: number[] }>();
  for (const { painelId, ...schedule } of rows) {
    const found = byDataset.get(schedule.datasetId);
    if (found) found.painelIds.push(painelId);
    else byDataset.set(schedule.datasetId, { ...schedule, painelIds: [painelId] });
  }
  return [...byDataset.values()];
}
