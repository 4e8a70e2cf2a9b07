import type { ImportarBody, RelatorioPowerBi, ResultadoImportacao, WorkspacePowerBi } from '@paineis/contract/power-bi';
import type { Db } from '../../db/client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { powerBiNotConfigured } from '../../integrations/power-bi/embedding-service.ts';
import type { PowerBiClient, PowerBiReportSummary } from '../../integrations/power-bi/power-bi-client.ts';
import { invalid, notFound } from '../../lib/domain-failure.ts';
import { byNome } from '../../lib/collation.ts';
import { guidKey } from '../../lib/guid.ts';
import type { AuditActor } from '../audit/audit.ts';
import { importReports, panelsByReport } from '../panels/panel-import.ts';

/**
 * The catalogue (docs/requirements.md#power-bi): the workspaces and reports Power BI lets the portal's service
 * principal reach, each report with the panel that already shows it, and their import as panels. Asked of Power BI
 * while the administrator waits.
 */

/** Power BI is not configured on this server: the 503 every Power BI route answers then. */
function required(powerBi: PowerBiClient | null): PowerBiClient {
  if (!powerBi) throw powerBiNotConfigured();
  return powerBi;
}

export const workspaceNotReachable = (workspaceId: string) =>
  `O workspace ${workspaceId} não existe no Power BI ou o portal não tem acesso a ele.`;

/**
 * Power BI answers a workspace the service principal is not a member of (or that does not exist) with 401, 403 or
 * 404; the person reads which workspace, not that Power BI refused.
 */
const isWorkspaceRefusal = (error: unknown): error is MicrosoftError =>
  error instanceof MicrosoftError && error.failure === 'refused' && [401, 403, 404].includes(error.status ?? 0);

async function reportsOf(powerBi: PowerBiClient, workspaceId: string): Promise<PowerBiReportSummary[]> {
  try {
    return await powerBi.listReports(workspaceId, 'person');
  } catch (error) {
    if (isWorkspaceRefusal(error)) throw notFound(workspaceNotReachable(workspaceId));
    throw error;
  }
}

/**
 * Only Power BI reports over a dataset become panels: a paginated report (reportType 'PaginatedReport') has no
 * dataset and is embedded another way, which the viewer does not do. Power BI's list "returns a subset" of a report's
 * properties, so a report without reportType is not taken for a Power BI report: one without a datasetId is refused
 * too (Power BI sends none for a paginated report).
 */
const isPaginated = (report: PowerBiReportSummary) => report.reportType === 'PaginatedReport';
const isPanelReport = (report: PowerBiReportSummary) => !isPaginated(report) && report.datasetId !== null;

export const paginatedReports = (names: readonly string[]) =>
  `Relatórios paginados não podem ser importados como painéis: ${names.join(', ')}. Nenhum painel foi importado.`;
export const reportsWithoutDataset = (names: readonly string[]) =>
  `Relatórios sem modelo semântico (dataset) no Power BI não podem ser importados como painéis: ${names.join(', ')}. ` +
  'Nenhum painel foi importado.';

/** The workspaces the service principal reaches, by name. */
export async function listWorkspaces(powerBi: PowerBiClient | null): Promise<WorkspacePowerBi[]> {
  const workspaces = await required(powerBi).listWorkspaces('person');
  return workspaces.map((w) => ({ id: guidKey(w.id), nome: w.name })).sort((a, b) => byNome(a, b));
}

/** A workspace's reports, by name, each with the panel that already shows it. */
export async function listWorkspaceReports(
  db: Db,
  powerBi: PowerBiClient | null,
  workspaceId: string,
): Promise<RelatorioPowerBi[]> {
  const [reports, panelOf] = await Promise.all([reportsOf(required(powerBi), workspaceId), panelsByReport(db)]);
  return reports
    .filter(isPanelReport)
    .map((r) => ({
      reportId: guidKey(r.id),
      nome: r.name,
      datasetId: r.datasetId ? guidKey(r.datasetId) : null,
      workspaceId,
      painelId: panelOf(workspaceId, r.id),
    }))
    .sort((a, b) => byNome(a, b) || a.reportId.localeCompare(b.reportId));
}

export const reportsNotReachable = (missing: readonly { workspaceId: string; reportId: string }[]) => {
  const shown = missing
    .slice(0, 5)
    .map((r) => `${r.reportId} (workspace ${r.workspaceId})`)
    .join(', ');
  const more = missing.length > 5 ? ` e mais ${missing.length - 5}` : '';
  return (
    `Relatórios não encontrados no Power BI ou sem acesso do portal: ${shown}${more}. ` + 'Nenhum painel foi importado.'
  );
};

/** A panel's name is at most this long (painelBody); a longer report name is cut. */
const MAX_NOME_PAINEL = 200;

/**
 * Registers the reports as panels once Power BI has confirmed that the service principal sees every one of them
 * (one listing per workspace); otherwise nothing is created. Names default to the report's.
 */
export async function importFromPowerBi(
  db: Db,
  powerBi: PowerBiClient | null,
  body: ImportarBody,
  actor: AuditActor,
): Promise<ResultadoImportacao> {
  const client = required(powerBi);
  const items = body.relatorios.map((r) => ({
    ...r,
    workspaceId: guidKey(r.workspaceId),
    reportId: guidKey(r.reportId),
  }));
  const found = new Map<string, PowerBiReportSummary>();
  // One workspace after the other: an import names few, and Power BI's limits are per service principal.
  for (const workspaceId of new Set(items.map((r) => r.workspaceId))) {
    for (const report of await reportsOf(client, workspaceId)) {
      found.set(`${workspaceId}/${guidKey(report.id)}`, report);
    }
  }
  const missing = items.filter((r) => !found.has(`${r.workspaceId}/${r.reportId}`));
  if (missing.length > 0) throw notFound(reportsNotReachable(missing));
  const asked = items.map((r) => found.get(`${r.workspaceId}/${r.reportId}`)!);
  const names = (reports: PowerBiReportSummary[]) => [...new Set(reports.map((r) => `'${r.name}'`))];
  const paginated = asked.filter(isPaginated);
  if (paginated.length > 0) throw invalid(paginatedReports(names(paginated)));
  const withoutDataset = asked.filter((r) => !isPanelReport(r));
  if (withoutDataset.length > 0) throw invalid(reportsWithoutDataset(names(withoutDataset)));

  const reports = items.map((r) => {
    const nome = found.get(`${r.workspaceId}/${r.reportId}`)!.name;
    const nomePainel = r.nomePainel?.trim() || nome.trim().slice(0, MAX_NOME_PAINEL) || r.reportId;
    return { workspaceId: r.workspaceId, reportId: r.reportId, nome, nomePainel };
  });
  return importReports(db, body.classificacaoId, reports, actor);
}
