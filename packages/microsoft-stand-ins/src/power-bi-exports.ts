import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { EXPORT_FILE_TYPES, renderExportFile, type ExportFormat } from './export-files.ts';
import {
  checkIdentities,
  findReport,
  identityList,
  invalid,
  isRecord,
  notFound,
  pagesOf,
  sendError,
  type PowerBiError,
  type ReportPage,
} from './power-bi-common.ts';
import { decodeReportState, REGIAO_PADRAO, type Regiao } from './report-state.ts';
import type { StandInContext } from './stand-in-context.ts';
import type { PowerBiExportLog, StandIns, StandInReport } from './types.ts';

/** How long a job takes from ExportTo to Succeeded unless a test says otherwise: long enough to be polled. */
export const DEFAULT_EXPORT_DURATION_MS = 1500;
/** Power BI keeps an export's file for a day. */
const FILE_LIFETIME_MS = 24 * 60 * 60 * 1000;
const FORMATS: readonly ExportFormat[] = ['PDF', 'PPTX'];

type ExportStatus = 'NotStarted' | 'Running' | 'Succeeded' | 'Failed';

interface ExportJob extends Omit<PowerBiExportLog, 'status' | 'regiao'> {
  regiao: Regiao;
  reportName: string;
  pageList: ReportPage[];
  createdAt: number;
  durationMs: number;
  fails: boolean;
  file?: Promise<Buffer>;
}

/** Power BI writes times with seven fractional digits; whole milliseconds padded read the same. */
const powerBiTime = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '0000Z');

/**
 * Export ids are base64 text, as Power BI's are. Made of upper-case GUIDs and a timestamp, they never hold '/' or
 * '+', so a client that forgets to encode them in a path still works here; it should encode them all the same.
 */
function exportId(reportId: string, createdAt: number): string {
  const text = `2/${reportId.toUpperCase()}/${randomUUID().toUpperCase()}/${new Date(createdAt).toISOString()}`;
  return Buffer.from(text, 'ascii').toString('base64');
}

/** The job, or why Power BI would refuse the ExportTo request. */
function checkExportTo(
  reports: StandInReport[],
  report: StandInReport,
  body: unknown,
): { job: Omit<ExportJob, 'id' | 'reportName' | 'createdAt' | 'durationMs' | 'fails'> } | { error: PowerBiError } {
  const badRequest = (message: string) => ({ error: invalid(message) });
  if (!isRecord(body)) return badRequest('The request body must be an ExportReportRequest JSON object.');
  const format = typeof body.format === 'string' ? body.format.toUpperCase() : undefined;
  if (!format) return badRequest("'format' is required: PDF or PPTX.");
  if (!FORMATS.includes(format as ExportFormat)) {
    return badRequest(`Format ${format} is not supported for this report: this stand-in exports PDF and PPTX.`);
  }
  if (body.paginatedReportConfiguration !== undefined) {
    return badRequest("'paginatedReportConfiguration' applies to paginated reports only; this is a Power BI report.");
  }
  const config = body.powerBIReportConfiguration ?? {};
  if (!isRecord(config)) return badRequest("'powerBIReportConfiguration' must be an object.");

  const settings = config.settings ?? {};
  if (!isRecord(settings)) return badRequest("'settings' must be an object.");
  if (settings.locale !== undefined && typeof settings.locale !== 'string') {
    return badRequest("'settings.locale' must be a string such as 'pt-BR'.");
  }
  if (settings.includeHiddenPages !== undefined && typeof settings.includeHiddenPages !== 'boolean') {
    return badRequest("'settings.includeHiddenPages' must be a boolean.");
  }

  const allPages = pagesOf(report);
  let pageList: ReportPage[];
  if (config.pages === undefined || config.pages === null || (Array.isArray(config.pages) && !config.pages.length)) {
    pageList = settings.includeHiddenPages ? allPages : allPages.filter((page) => page.visibility === 0);
  } else {
    if (!Array.isArray(config.pages)) return badRequest("'pages' must be an array of {pageName}.");
    pageList = [];
    for (const item of config.pages as unknown[]) {
      if (!isRecord(item) || typeof item.pageName !== 'string') {
        return badRequest("'pages' must be an array of {pageName}.");
      }
      const page = allPages.find((candidate) => candidate.name === item.pageName);
      if (!page) return badRequest(`Page ${item.pageName} was not found in report ${report.reportId}.`);
      pageList.push(page);
    }
  }

  let regiao: Regiao = REGIAO_PADRAO;
  if (config.defaultBookmark !== undefined && config.defaultBookmark !== null) {
    const bookmark = config.defaultBookmark;
    if (!isRecord(bookmark)) return badRequest("'defaultBookmark' must be an object with 'state' or 'name'.");
    if (bookmark.name !== undefined)
      return badRequest(`Bookmark ${JSON.stringify(bookmark.name)} was not found in the report.`);
    const state = decodeReportState(
      bookmark.state,
      allPages.map((page) => page.name),
    );
    if (!state) return badRequest("'defaultBookmark.state' is not a bookmark state of this report.");
    regiao = state.regiao;
  }

  const identities = identityList(config.identities);
  if (!identities) return badRequest("'identities' must be an array of {username, roles, datasets}.");
  const checked = checkIdentities(
    reports,
    [report.datasetId],
    identities,
    (id) => `Effective identity refers to dataset ${id}, which report ${report.reportId} does not use.`,
  );
  if ('error' in checked) return checked;
  const identity = checked.identities[0];

  return {
    job: {
      workspaceId: report.workspaceId,
      reportId: report.reportId,
      format: format as ExportFormat,
      pages: pageList.map((page) => page.name),
      pageList,
      regiao,
      identity: identity ? { username: identity.username, roles: identity.roles } : null,
      body,
    },
  };
}

export interface ExportJobs {
  /** Adds the routes to the Power BI REST plugin, so they sit under its auth, faults and request log. */
  register(api: FastifyInstance): void;
  controls: Pick<StandIns['powerBi'], 'setExportDuration' | 'failNextExport' | 'exports'> & { reset(): void };
}

/** The export-to-file job API of Power BI reports. */
export function exportJobs(ctx: StandInContext): ExportJobs {
  const jobs: ExportJob[] = [];
  let durationMs = ctx.exportDurationMs;
  let failures = 0;

  function statusOf(job: ExportJob, now = Date.now()): { status: ExportStatus; percent: number; at: number } {
    const elapsed = now - job.createdAt;
    if (elapsed >= job.durationMs) {
      return { status: job.fails ? 'Failed' : 'Succeeded', percent: 100, at: job.createdAt + job.durationMs };
    }
    // The first tenth queued, then progress as the pages render.
    if (elapsed < job.durationMs / 10) return { status: 'NotStarted', percent: 0, at: job.createdAt };
    return {
      status: 'Running',
      percent: Math.max(1, Math.min(99, Math.floor((elapsed / job.durationMs) * 100))),
      at: now,
    };
  }

  function exportObject(job: ExportJob, current = statusOf(job)) {
    const succeeded = current.status === 'Succeeded';
    return {
      '@odata.context': `${ctx.authorityHost}/v1.0/myorg/groups/${job.workspaceId}/$metadata#exports/$entity`,
      id: job.id,
      createdDateTime: powerBiTime(job.createdAt),
      lastActionDateTime: powerBiTime(current.at),
      reportId: job.reportId,
      reportName: job.reportName,
      status: current.status,
      percentComplete: current.percent,
      ...(succeeded
        ? {
            resourceLocation: `${ctx.authorityHost}/v1.0/myorg/groups/${job.workspaceId}/reports/${job.reportId}/exports/${job.id}/file`,
            resourceFileExtension: EXPORT_FILE_TYPES[job.format].extension,
            expirationTime: powerBiTime(current.at + FILE_LIFETIME_MS),
          }
        : {}),
    };
  }

  type ReportRoute = { Params: { workspaceId: string; reportId: string } };
  type ExportRoute = { Params: { workspaceId: string; reportId: string; exportId: string } };

  /** The job of this report, or the 404 Power BI answers for another report's job or none. */
  function jobOf(params: ExportRoute['Params']): { job: ExportJob } | { error: PowerBiError } {
    const report = findReport(ctx, params.reportId, params.workspaceId);
    if (!report) {
      return { error: notFound(`Report ${params.reportId} was not found in workspace ${params.workspaceId}.`) };
    }
    const job = jobs.find((candidate) => candidate.id === params.exportId && candidate.reportId === report.reportId);
    return job
      ? { job }
      : { error: notFound(`Export ${params.exportId} was not found for report ${report.reportId}.`) };
  }

  function register(api: FastifyInstance): void {
    api.post<ReportRoute>('/groups/:workspaceId/reports/:reportId/ExportTo', async (request, reply) => {
      const { workspaceId, reportId } = request.params;
      const report = findReport(ctx, reportId, workspaceId);
      if (!report) return sendError(reply, notFound(`Report ${reportId} was not found in workspace ${workspaceId}.`));
      const checked = checkExportTo(ctx.reports, report, request.body);
      if ('error' in checked) return sendError(reply, checked.error);
      const createdAt = Date.now();
      const fails = failures > 0;
      if (fails) failures -= 1;
      const job: ExportJob = {
        ...checked.job,
        id: exportId(report.reportId, createdAt),
        reportName: report.name,
        createdAt,
        durationMs,
        fails,
      };
      jobs.push(job);
      reply.code(202).header('Retry-After', '1');
      return exportObject(job, { status: 'NotStarted', percent: 0, at: createdAt });
    });

    api.get<ExportRoute>('/groups/:workspaceId/reports/:reportId/exports/:exportId', async (request, reply) => {
      const found = jobOf(request.params);
      if ('error' in found) return sendError(reply, found.error);
      const current = statusOf(found.job);
      if (current.status === 'NotStarted' || current.status === 'Running') reply.code(202).header('Retry-After', '1');
      return exportObject(found.job, current);
    });

    api.get<ExportRoute>('/groups/:workspaceId/reports/:reportId/exports/:exportId/file', async (request, reply) => {
      const found = jobOf(request.params);
      if ('error' in found) return sendError(reply, found.error);
      const { job } = found;
      const current = statusOf(job);
      if (current.status !== 'Succeeded') {
        return sendError(reply, notFound(`Export ${job.id} has no file: its status is ${current.status}.`));
      }
      // Rendered once, on the first download, as the file Power BI keeps for the export.
      job.file ??= renderExportFile(job.format, {
        report: { name: job.reportName, reportId: job.reportId },
        pages: job.pageList,
        regiao: job.regiao,
        identity: job.identity,
        exportedAt: new Date(current.at),
      });
      const type = EXPORT_FILE_TYPES[job.format];
      const fileName = `${job.reportName}${type.extension}`;
      return reply
        .code(200)
        .header('content-type', type.contentType)
        .header(
          'content-disposition',
          `attachment; filename="export${type.extension}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
        )
        .send(await job.file);
    });
  }

  const controls: ExportJobs['controls'] = {
    setExportDuration(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('export duration must be 0 or more milliseconds');
      durationMs = ms;
    },
    failNextExport(times = 1) {
      if (!Number.isInteger(times) || times < 0) throw new RangeError('times must be a whole number, 0 or more');
      failures += times;
    },
    get exports() {
      return jobs.map((job) => ({
        id: job.id,
        workspaceId: job.workspaceId,
        reportId: job.reportId,
        format: job.format,
        pages: job.pages,
        regiao: job.regiao,
        identity: job.identity,
        body: job.body,
        status: statusOf(job).status,
      }));
    },
    reset() {
      jobs.length = 0;
      durationMs = ctx.exportDurationMs;
      failures = 0;
    },
  };
  return { register, controls };
}
