import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { capacityOutage } from './azure-capacities.ts';
import { EXPORT_FILE_TYPES, renderExportFile, type ExportFormat } from './export-files.ts';
import { checkIdentities, findReport, identityList, isRecord, pagesOf, type ReportPage } from './power-bi-common.ts';
import { invalid, notFound, sendError, type PowerBiError } from './power-bi-errors.ts';
import { decodeReportState, REGIAO_PADRAO, type Regiao } from './report-state.ts';
import type { StandInContext } from './stand-in-context.ts';
import type { PowerBiExportLog, StandIns, StandInReport } from './types.ts';

/** How long a job takes from ExportTo to Succeeded unless a test says otherwise: long enough to be polled. */
export const DEFAULT_EXPORT_DURATION_MS = 1500;
/** Power BI keeps an export's file for a day. */
const FILE_LIFETIME_MS = 24 * 60 * 60 * 1000;
const FORMATS: readonly ExportFormat[] = ['PDF', 'PPTX'];
/** Power BI's export-to-file limits: exports (pages) per request, and concurrent export requests per capacity. */
export const MAX_EXPORTS_PER_REQUEST = 50;
export const DEFAULT_CONCURRENT_EXPORT_LIMIT = 500;
/** The Retry-After of a transient Failed and of the concurrency 429, unless a test says otherwise. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;
/** The capacity of reports that name none: the stand-in tenant's one capacity. */
const DEFAULT_CAPACITY_ID = 'capacidade-padrao';

type ExportStatus = 'NotStarted' | 'Running' | 'Succeeded' | 'Failed';

interface ExportJob extends Omit<PowerBiExportLog, 'status' | 'regiao'> {
  regiao: Regiao;
  reportName: string;
  capacityId: string;
  pageList: ReportPage[];
  createdAt: number;
  durationMs: number;
  /** How the job ends if not in Succeeded: Failed for good, or Failed with a Retry-After (transient). */
  failure: { retryAfterSeconds: number | null } | null;
  file?: Promise<Buffer>;
}

function whole(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number, 0 or more`);
  return value;
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

const forbidden = (code: string, message: string): PowerBiError => ({ status: 403, code, message });

/**
 * Why Power BI would refuse to export this report at all, whatever the request: the tenant setting, the workspace's
 * capacity and a sensitivity label (the portal always calls as a service principal).
 */
function exportPrecondition(report: StandInReport, tenantSettingOn: boolean): PowerBiError | null {
  if (!tenantSettingOn) {
    return forbidden(
      'ExportToFileDisabledByTenantSetting',
      "The tenant setting 'Export reports as PowerPoint presentations or PDF documents' is disabled.",
    );
  }
  const capacity = report.capacity ?? 'Embedded';
  if (capacity === 'Shared') {
    return forbidden(
      'ExportToFileRequiresCapacity',
      `Export to file requires workspace ${report.workspaceId} to be on a Premium, Embedded or Fabric capacity.`,
    );
  }
  if (capacity === 'PremiumPerUser') {
    return forbidden(
      'ExportToFileNotSupportedOnPremiumPerUser',
      `Export to file is not supported for workspace ${report.workspaceId} on Premium Per User.`,
    );
  }
  if (report.sensitivityLabel !== undefined) {
    return forbidden(
      'ExportToFileBlockedBySensitivityLabel',
      `Report ${report.reportId} has sensitivity label '${report.sensitivityLabel}', which a service principal can't export.`,
    );
  }
  return null;
}

/** The job, or why Power BI would refuse the ExportTo request. */
function checkExportTo(
  reports: StandInReport[],
  report: StandInReport,
  body: unknown,
):
  | { job: Omit<ExportJob, 'id' | 'reportName' | 'capacityId' | 'createdAt' | 'durationMs' | 'failure'> }
  | { error: PowerBiError } {
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
  if (identity && report.datasetWritePermission === false) {
    return {
      error: forbidden(
        'ExportToFileRequiresDatasetWritePermission',
        `Exporting with an effective identity requires Write permission on dataset ${report.datasetId}.`,
      ),
    };
  }
  if (pageList.length > MAX_EXPORTS_PER_REQUEST) {
    return {
      error: {
        status: 400,
        code: 'ExportToFileTooManyPages',
        message: `The request has ${pageList.length} exports, more than ${MAX_EXPORTS_PER_REQUEST}: the job was canceled.`,
      },
    };
  }

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
  controls: Pick<
    StandIns['powerBi'],
    | 'setExportDuration'
    | 'failNextExport'
    | 'failNextExportTransiently'
    | 'setConcurrentExportLimit'
    | 'setExportTenantSetting'
    | 'exports'
  > & { reset(): void };
}

/** The export-to-file job API of Power BI reports. */
export function exportJobs(ctx: StandInContext): ExportJobs {
  const jobs: ExportJob[] = [];
  let durationMs = ctx.exportDurationMs;
  /** How the next jobs end, in order: Failed for good (retryAfterSeconds null) or transiently. */
  const failures: { retryAfterSeconds: number | null }[] = [];
  let concurrentLimit = { limit: DEFAULT_CONCURRENT_EXPORT_LIMIT, retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS };
  let tenantSettingOn = true;

  function statusOf(job: ExportJob, now = Date.now()): { status: ExportStatus; percent: number; at: number } {
    const elapsed = now - job.createdAt;
    if (elapsed >= job.durationMs) {
      return { status: job.failure ? 'Failed' : 'Succeeded', percent: 100, at: job.createdAt + job.durationMs };
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
      const refused = exportPrecondition(report, tenantSettingOn) ?? capacityOutage(ctx, report);
      if (refused) return sendError(reply, refused);
      const checked = checkExportTo(ctx.reports, report, request.body);
      if ('error' in checked) return sendError(reply, checked.error);
      const createdAt = Date.now();
      const capacityId = report.capacityId ?? DEFAULT_CAPACITY_ID;
      const running = jobs.filter((job) => job.capacityId === capacityId && statusOf(job, createdAt).percent < 100);
      if (running.length >= concurrentLimit.limit) {
        reply.header('Retry-After', String(concurrentLimit.retryAfterSeconds));
        return sendError(reply, {
          status: 429,
          code: 'TooManyRequests',
          message: `Capacity ${capacityId} already runs ${running.length} export requests; try again later.`,
        });
      }
      const job: ExportJob = {
        ...checked.job,
        id: exportId(report.reportId, createdAt),
        reportName: report.name,
        capacityId,
        createdAt,
        durationMs,
        failure: failures.shift() ?? null,
      };
      jobs.push(job);
      reply.code(202).header('Retry-After', '1');
      return exportObject(job, { status: 'NotStarted', percent: 0, at: createdAt });
    });

    api.get<ExportRoute>('/groups/:workspaceId/reports/:reportId/exports/:exportId', async (request, reply) => {
      const found = jobOf(request.params);
      if ('error' in found) return sendError(reply, found.error);
      const { job } = found;
      const current = statusOf(job);
      const retryAfter = job.failure?.retryAfterSeconds ?? null;
      if (current.status === 'NotStarted' || current.status === 'Running') {
        reply.code(202).header('Retry-After', '1');
      } else if (current.status === 'Failed' && retryAfter !== null) {
        // A transient failure: when the export may be started again. A finished job answers 200 all the same.
        reply.header('Retry-After', String(retryAfter));
      }
      return exportObject(job, current);
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
      for (let i = 0; i < whole(times, 'times'); i++) failures.push({ retryAfterSeconds: null });
    },
    failNextExportTransiently(retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS, times = 1) {
      whole(retryAfterSeconds, 'retryAfterSeconds');
      for (let i = 0; i < whole(times, 'times'); i++) failures.push({ retryAfterSeconds });
    },
    setConcurrentExportLimit(limit, retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS) {
      concurrentLimit = {
        limit: whole(limit, 'limit'),
        retryAfterSeconds: whole(retryAfterSeconds, 'retryAfterSeconds'),
      };
    },
    setExportTenantSetting(enabled) {
      tenantSettingOn = enabled;
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
      failures.length = 0;
      concurrentLimit = { limit: DEFAULT_CONCURRENT_EXPORT_LIMIT, retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS };
      tenantSettingOn = true;
    },
  };
  return { register, controls };
}
