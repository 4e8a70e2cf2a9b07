import type { Painel } from '@paineis/contract/panels';
import { EXPORT_MESSAGES, type Exportacao, type FormatoExportacao } from '@paineis/contract/personal';
import type { Db } from '../../db/client.ts';
import type { ExportJob, ReportExporter } from '../../integrations/power-bi/embedding-service.ts';
import type { PowerBiExport } from '../../integrations/power-bi/power-bi-client.ts';
import { conflict, forbidden, notFound } from '../../lib/domain-failure.ts';
import type { Access } from '../panels/access-model.ts';
import { openingOf, requireVisibleAccess } from '../panels/panel-access.ts';
import { requireServingCapacity, type OpeningCapacity } from '../panels/panel-opening.ts';
import type { Requester } from '../panels/requester.ts';
import { fileAnswer, progressAnswer, type ExportAnswer } from './export-answers.ts';
import { exportRefusal } from './export-refusals.ts';
import {
  claimRetry,
  findOwnExport,
  insertExport,
  purgeExportsBefore,
  releaseRetry,
  replaceExport,
  scheduleRetry,
  type ExportRecord,
} from './exports.repository.ts';

/**
 * Export jobs (docs/requirements.md#personal): started in Power BI with the person's own identity, each its starter's
 * alone (docs/decisions/012-export-jobs-bound-to-their-person.md), and started again, as Power BI's export guidance
 * says, after a transient failure (docs/decisions/015-export-as-power-bi-documents-it.md).
 */

/** Power BI keeps an export's file for about a day; a job's record is of no use after that. */
export const EXPORT_RETENTION_MS = 24 * 60 * 60_000;
/** Attempts of one export in Power BI, the first included, as Microsoft's sample makes them. */
export const MAX_EXPORT_ATTEMPTS = 3;
/**
 * How long a poll holds a due attempt while it starts it in Power BI: more than the whole ExportTo call may take, so
 * another poll starts it only if that instance stopped on the way.
 */
const RETRY_HOLD_MS = 30_000;
/** How long the viewer waits before asking again when Power BI named no time. */
const DEFAULT_WAIT_SECONDS = 1;

/** What the export flow needs of the app. */
export interface ExportDeps {
  db: Db;
  reportExports: ReportExporter;
  /** A paused capacity answers an export as it answers an opening: 503, woken when this person may. */
  openingCapacity: OpeningCapacity;
}

export interface ExportRequestBody {
  formato: FormatoExportacao;
  estado?: string | undefined;
  pagina?: string | undefined;
}

/** The access model's answer for the panel, if this person sees it (404) and its export is on (403). */
async function exportablePanel(deps: ExportDeps, painelId: number, requester: Requester): Promise<Access> {
  const access = await requireVisibleAccess(deps.db, painelId, requester);
  if (!access.panel.permiteExportacao) throw forbidden(EXPORT_MESSAGES.desativada);
  return access;
}

async function ownJob(deps: ExportDeps, panel: Painel, exportacaoId: string, requester: Requester) {
  const job = await findOwnExport(deps.db, exportacaoId, requester.id, panel.id);
  if (!job) throw notFound(EXPORT_MESSAGES.naoEncontrada);
  return job;
}

const powerBiJob = (job: ExportRecord): ExportJob => ({
  workspaceId: job.workspaceId,
  reportId: job.reportId,
  exportId: job.powerBiExportId,
});

const fileUrl = (job: ExportRecord) => `/api/paineis/${job.painelId}/exportacoes/${job.id}/arquivo`;

/** The answer for a job's state in Power BI; while it runs, when to ask again. */
function answer(job: ExportRecord, state: Pick<PowerBiExport, 'status' | 'percentComplete' | 'retryAfterSeconds'>) {
  const running = state.status === 'NotStarted' || state.status === 'Running';
  return {
    id: job.id,
    painelId: job.painelId,
    formato: job.formato,
    status: state.status,
    percentComplete: state.percentComplete,
    aguardarSegundos: running ? Math.max(DEFAULT_WAIT_SECONDS, state.retryAfterSeconds ?? 0) : null,
    arquivoUrl: state.status === 'Succeeded' ? fileUrl(job) : null,
  } satisfies Exportacao;
}

/** A job waiting for its next attempt is still under way to its person: ask again no sooner than it may start. */
const waiting = (job: ExportRecord, seconds: number): Exportacao =>
  answer(job, { status: 'Running', percentComplete: 0, retryAfterSeconds: Math.ceil(seconds) });

/** Power BI failed the attempt for a transient reason (it said when to try again), and an attempt is left. */
const retriable = (job: ExportRecord, state: PowerBiExport) =>
  state.status === 'Failed' && state.retryAfterSeconds !== null && job.tentativas < MAX_EXPORT_ATTEMPTS;

/**
 * ExportTo for this panel as the person may open it now (the access model's answer, as for the embed token: 403 with
 * no RLS role), on `report` when given (a job started again stays on the report it was started on). Power BI's
 * refusals are answered in Portuguese (export-refusals.ts).
 */
async function startInPowerBi(
  deps: ExportDeps,
  access: Access,
  requester: Requester,
  request: ExportRequestBody,
  report?: { workspaceId: string; reportId: string },
) {
  const { panel, roles } = openingOf(access, requester, undefined);
  await requireServingCapacity(deps.openingCapacity, requester);
  try {
    return await deps.reportExports.startExport(
      report ? { ...panel, ...report } : panel,
      { ...requester, roles },
      { format: request.formato, state: request.estado, page: request.pagina },
    );
  } catch (error) {
    // Paused since memory last read it: the paused capacity's 503 rather than Power BI's refusal.
    await requireServingCapacity(deps.openingCapacity, requester, true);
    throw exportRefusal(error, {
      identity: panel.usaRls,
      stateOrPage: request.estado !== undefined || request.pagina !== undefined,
    });
  }
}

/** POST /paineis/{id}/exportacoes: starts the job and records it, with what it asked for. */
export async function startPanelExport(
  deps: ExportDeps,
  painelId: number,
  requester: Requester,
  request: ExportRequestBody,
): Promise<ExportAnswer<Exportacao>> {
  const access = await exportablePanel(deps, painelId, requester);
  const started = await startInPowerBi(deps, access, requester, request);
  const job = await insertExport(deps.db, requester.id, {
    painelId,
    formato: request.formato,
    powerBiExportId: started.exportId,
    workspaceId: started.workspaceId,
    reportId: started.reportId,
    estado: request.estado ?? null,
    pagina: request.pagina ?? null,
  });
  return progressAnswer(answer(job, started));
}

/**
 * The due attempt, started by this poll if no other took it first: the same format, state and page, on the same
 * report, with the person's identity as it is now.
 */
async function startAgain(deps: ExportDeps, access: Access, job: ExportRecord, requester: Requester, now: number) {
  const claimed = await claimRetry(deps.db, job, new Date(now), new Date(now + RETRY_HOLD_MS), MAX_EXPORT_ATTEMPTS);
  // Another poll is starting it; or the last attempt's start never finished, and none is left.
  if (!claimed) {
    return job.tentativas < MAX_EXPORT_ATTEMPTS
      ? waiting(job, DEFAULT_WAIT_SECONDS)
      : answer(job, { status: 'Failed', percentComplete: 0, retryAfterSeconds: null });
  }
  let started: Awaited<ReturnType<typeof startInPowerBi>>;
  try {
    started = await startInPowerBi(
      deps,
      access,
      requester,
      { formato: job.formato, estado: job.estado ?? undefined, pagina: job.pagina ?? undefined },
      { workspaceId: job.workspaceId, reportId: job.reportId },
    );
  } catch (error) {
    // The attempt counted; the job stays on its failed export, which the next poll reads again.
    await releaseRetry(deps.db, job);
    throw error;
  }
  const replaced = await replaceExport(deps.db, job, started.exportId);
  return answer(replaced ?? { ...claimed, powerBiExportId: started.exportId }, started);
}

/** GET /paineis/{id}/exportacoes/{exportacaoId}: the job's state, starting it again after a transient failure. */
export async function exportProgress(
  deps: ExportDeps,
  painelId: number,
  exportacaoId: string,
  requester: Requester,
  now = Date.now(),
): Promise<ExportAnswer<Exportacao>> {
  return progressAnswer(await progressOf(deps, painelId, exportacaoId, requester, now));
}

async function progressOf(
  deps: ExportDeps,
  painelId: number,
  exportacaoId: string,
  requester: Requester,
  now: number,
): Promise<Exportacao> {
  const access = await exportablePanel(deps, painelId, requester);
  const { panel } = access;
  const job = await ownJob(deps, panel, exportacaoId, requester);
  if (job.novaTentativaEm !== null) {
    const due = job.novaTentativaEm.getTime();
    return now < due ? waiting(job, (due - now) / 1000) : startAgain(deps, access, job, requester, now);
  }
  const state = await deps.reportExports.exportStatus(powerBiJob(job), panel.id);
  if (!retriable(job, state)) return answer(job, state);
  const seconds = Math.max(DEFAULT_WAIT_SECONDS, state.retryAfterSeconds ?? 0);
  // False when another poll scheduled it first: under way all the same.
  await scheduleRetry(deps.db, job, new Date(now + seconds * 1000), MAX_EXPORT_ATTEMPTS);
  return waiting(job, seconds);
}

/** GET /paineis/{id}/exportacoes/{exportacaoId}/arquivo: the file of a job that succeeded (409 before, or failed). */
export async function exportFile(
  deps: ExportDeps,
  painelId: number,
  exportacaoId: string,
  requester: Requester,
): Promise<ExportAnswer<Buffer>> {
  const { panel } = await exportablePanel(deps, painelId, requester);
  const job = await ownJob(deps, panel, exportacaoId, requester);
  if (job.novaTentativaEm !== null) throw conflict(EXPORT_MESSAGES.naoPronta);
  const state = await deps.reportExports.exportStatus(powerBiJob(job), panel.id);
  if (state.status === 'Failed' && !retriable(job, state)) throw conflict(EXPORT_MESSAGES.falhou);
  if (state.status !== 'Succeeded') throw conflict(EXPORT_MESSAGES.naoPronta);
  const file = await deps.reportExports.exportFile(powerBiJob(job), panel.id);
  return fileAnswer(panel.nomePainel, job.formato, file.bytes);
}

/** The background job's part: export records older than a day go. */
export async function purgeOldExports(db: Db, now = Date.now()): Promise<void> {
  await purgeExportsBefore(db, new Date(now - EXPORT_RETENTION_MS));
}
