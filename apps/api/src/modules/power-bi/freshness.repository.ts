import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { datasetsAtualizacao, painelDatasets } from '../../db/schema.ts';
import { writeSkippingDeletedPanels } from './deleted-panels.repository.ts';

/** Each panel's dataset and that dataset's last refresh, as the freshness rounds stored them. */

export type FreshnessStatus = (typeof datasetsAtualizacao.$inferSelect)['status'];

/** What a panel's dataset link says: for which report it was read, and the dataset (null: report not found). */
export interface PanelDatasetLink {
  painelId: number;
  workspaceId: string;
  reportId: string;
  datasetId: string | null;
  datasetWorkspaceId: string | null;
}

/** A dataset's last refresh, as stored. */
export interface DatasetFreshness {
  datasetId: string;
  status: FreshnessStatus;
  ultimaAtualizacao: Date | null;
  ultimaTentativa: Date | null;
  mensagem: string | null;
}

/** Every panel's link, with its dataset's freshness when known. */
export async function storedFreshness(db: Db): Promise<(PanelDatasetLink & { dataset: DatasetFreshness | null })[]> {
  const found = await db
    .select({
      painelId: painelDatasets.painelId,
      workspaceId: painelDatasets.workspaceId,
      reportId: painelDatasets.reportId,
      datasetId: painelDatasets.datasetId,
      datasetWorkspaceId: painelDatasets.datasetWorkspaceId,
      status: datasetsAtualizacao.status,
      ultimaAtualizacao: datasetsAtualizacao.ultimaAtualizacao,
      ultimaTentativa: datasetsAtualizacao.ultimaTentativa,
      mensagem: datasetsAtualizacao.mensagem,
    })
    .from(painelDatasets)
    .leftJoin(datasetsAtualizacao, eq(datasetsAtualizacao.datasetId, painelDatasets.datasetId));
  return found.map(({ status, ultimaAtualizacao, ultimaTentativa, mensagem, ...link }) => ({
    ...link,
    dataset:
      status && link.datasetId
        ? { datasetId: link.datasetId, status, ultimaAtualizacao, ultimaTentativa, mensagem }
        : null,
  }));
}

/** Every dataset's stored freshness, by id: what a round keeps when Power BI does not answer for one. */
export async function storedDatasets(db: Db): Promise<Map<string, DatasetFreshness>> {
  const found = await db
    .select({
      datasetId: datasetsAtualizacao.datasetId,
      status: datasetsAtualizacao.status,
      ultimaAtualizacao: datasetsAtualizacao.ultimaAtualizacao,
      ultimaTentativa: datasetsAtualizacao.ultimaTentativa,
      mensagem: datasetsAtualizacao.mensagem,
    })
    .from(datasetsAtualizacao);
  return new Map(found.map((d) => [d.datasetId, d]));
}

/**
 * A round's findings, in one transaction: the links of the panels whose workspace answered, the datasets Power BI
 * answered for (the others keep what they had), and no dataset that no panel reads any more. A panel deleted while the
 * round ran (its link refused by the foreign key) is left out, and the rest saved.
 */
export async function saveRound(db: Db, links: PanelDatasetLink[], datasets: DatasetFreshness[]): Promise<void> {
  await db.transaction(async (tx) => {
    await writeSkippingDeletedPanels(tx, links, upsertLinks);
    if (datasets.length > 0) {
      await tx
        .insert(datasetsAtualizacao)
        .values(datasets.map((d) => ({ ...d, lidoEm: new Date() })))
        .onConflictDoUpdate({
          target: datasetsAtualizacao.datasetId,
          set: {
            status: sql`excluded.status`,
            ultimaAtualizacao: sql`excluded.ultima_atualizacao`,
            ultimaTentativa: sql`excluded.ultima_tentativa`,
            mensagem: sql`excluded.mensagem`,
            lidoEm: sql`excluded.lido_em`,
          },
        });
    }
    await tx.execute(sql`
      delete from datasets_atualizacao d
       where not exists (select 1 from painel_datasets l where l.dataset_id = d.dataset_id)`);
  });
}

async function upsertLinks(db: Db, links: PanelDatasetLink[]): Promise<void> {
  await db
    .insert(painelDatasets)
    .values(links)
    .onConflictDoUpdate({
      target: painelDatasets.painelId,
      set: {
        workspaceId: sql`excluded.workspace_id`,
        reportId: sql`excluded.report_id`,
        datasetId: sql`excluded.dataset_id`,
        datasetWorkspaceId: sql`excluded.dataset_workspace_id`,
      },
    });
}
