import { sql } from 'drizzle-orm';
import { SEM_CLASSIFICACAO_ID } from '@paineis/contract/classifications';
import { rows, type Db } from '../../db/client.ts';
import { guidKey } from '../../lib/guid.ts';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.ts';
import { insertPanel, nextOrder, panelForAudit, resolveClassificacao } from './panels.repository.ts';

/** Panels registered from reports of Power BI (POST /paineis/importar): its statements and its transaction. */

/** One report, whoever spelled its ids: the key by which an import and the catalogue tell panels apart. */
export const reportKey = (workspaceId: string, reportId: string) => `${guidKey(workspaceId)}/${guidKey(reportId)}`;

/** A report to register as a panel by an import, with the name it gets. */
export interface ImportedReport {
  workspaceId: string;
  reportId: string;
  nomePainel: string;
}

/**
 * What an import did with one report: the panel it created, or the panel that already showed the report (`repeated`:
 * an earlier item of the same import registered it).
 */
export type ImportOutcome =
  | { painelId: number; nomePainel: string; created: true }
  | { painelId: number; nomePainel: string; created: false; repeated: boolean };

/**
 * Registers reports as panels, in list order after the last panel of the classification (0 or null: none), each
 * audited as a creation, all or none in one transaction. A report that already is a panel (ids compared
 * case-insensitively) is not registered again; imports take turns, so two at once cannot both register one. Answers
 * one outcome per item, in order.
 */
export async function insertImportedPanels(
  db: Db,
  classificacaoId: number | null,
  reports: ImportedReport[],
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<ImportOutcome[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('paineis/importar', 0))`);
    const classificacao = await resolveClassificacao(tx, classificacaoId);
    const existing = await rows<{ id: number; nome: string; workspace_id: string; report_id: string }>(
      tx,
      sql`
      select p.id, p.nome_painel as nome, p.workspace_id, p.report_id from paineis p
      join unnest(${sql.param(reports.map((r) => guidKey(r.workspaceId)))}::text[],
                  ${sql.param(reports.map((r) => guidKey(r.reportId)))}::text[]) as v(workspace_id, report_id)
        on lower(p.workspace_id) = v.workspace_id and lower(p.report_id) = v.report_id
      order by p.id`,
    );
    const panelOf = new Map<string, { painelId: number; nomePainel: string }>();
    for (const row of existing) {
      const key = reportKey(row.workspace_id, row.report_id);
      if (!panelOf.has(key)) panelOf.set(key, { painelId: row.id, nomePainel: row.nome });
    }
    const createdHere = new Set<string>();
    let ordem = await nextOrder(tx, classificacao ?? SEM_CLASSIFICACAO_ID);
    const outcomes: ImportOutcome[] = [];
    for (const report of reports) {
      const key = reportKey(report.workspaceId, report.reportId);
      const known = panelOf.get(key);
      if (known !== undefined) {
        outcomes.push({ ...known, created: false, repeated: createdHere.has(key) });
        continue;
      }
      const id = await insertPanel(tx, {
        nomePainel: report.nomePainel,
        workspaceId: guidKey(report.workspaceId),
        reportId: guidKey(report.reportId),
        // Whether the dataset needs an identity is not asked of Power BI here: the admin turns RLS on and
        // configures its roles afterwards, as on a panel registered by hand.
        usaRls: false,
        classificacaoId: classificacao,
        ordem: ordem++,
      });
      panelOf.set(key, { painelId: id, nomePainel: report.nomePainel });
      createdHere.add(key);
      await recordAudit(tx, actor, {
        objeto: 'painel',
        acao: 'criacao',
        objetoId: id,
        objetoNome: report.nomePainel,
        depois: await panelForAudit(tx, id),
      });
      outcomes.push({ painelId: id, nomePainel: report.nomePainel, created: true });
    }
    return outcomes;
  });
}
