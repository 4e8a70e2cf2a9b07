import type { ResultadoImportacao } from '@paineis/contract/power-bi';
import type { Db } from '../../db/client.ts';
import { guidKey } from '../../lib/guid.ts';
import type { AuditActor } from '../audit/audit.ts';
import { catalogue } from './panel-catalog.repository.ts';
import { insertImportedPanels, reportKey } from './panel-import.repository.ts';

/**
 * Reports of Power BI as panels (docs/requirements.md#power-bi): which panel already shows a report, and the
 * registration of many reports at once. What Power BI says of the reports is the caller's (modules/power-bi).
 */

/** A report the caller found in Power BI, to register as a panel under this name. */
export interface ReportToImport {
  workspaceId: string;
  reportId: string;
  /** The report's name in Power BI. */
  nome: string;
  nomePainel: string;
}

/**
 * Which panel shows each report, by workspace and report id (case ignored); the oldest panel when several show
 * one. From the catalogue in memory.
 */
export async function panelsByReport(db: Db): Promise<(workspaceId: string, reportId: string) => number | null> {
  const byReport = new Map<string, number>();
  for (const p of (await catalogue(db)).panels) {
    const key = reportKey(p.workspaceId, p.reportId);
    const known = byReport.get(key);
    if (known === undefined || p.id < known) byReport.set(key, p.id);
  }
  return (workspaceId, reportId) => byReport.get(reportKey(workspaceId, reportId)) ?? null;
}

/** The reason a report was not imported, as the summary shows it. */
export const alreadyRegistered = (nomePainel: string) => `Já cadastrado como o painel '${nomePainel}'.`;
export const repeatedInImport = (nomePainel: string) =>
  `Repetido nesta importação: já cadastrado acima como o painel '${nomePainel}'.`;

/**
 * Registers the reports as panels of the classification (0 or null: none), in list order after its last panel, in
 * one transaction; reports that already are panels, or come twice, are skipped and told apart.
 */
export async function importReports(
  db: Db,
  classificacaoId: number | null,
  reports: ReportToImport[],
  actor: AuditActor,
): Promise<ResultadoImportacao> {
  const outcomes = await insertImportedPanels(db, classificacaoId, reports, actor);
  const result: ResultadoImportacao = { criados: [], ignorados: [] };
  outcomes.forEach((outcome, i) => {
    const { workspaceId, reportId, nome } = reports[i]!;
    const ids = { workspaceId: guidKey(workspaceId), reportId: guidKey(reportId) };
    if (outcome.created) {
      result.criados.push({ painelId: outcome.painelId, nomePainel: outcome.nomePainel, ...ids });
    } else {
      const motivo = (outcome.repeated ? repeatedInImport : alreadyRegistered)(outcome.nomePainel);
      result.ignorados.push({ ...ids, nome, painelId: outcome.painelId, motivo });
    }
  });
  return result;
}
