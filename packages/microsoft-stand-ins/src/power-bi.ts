import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { capacityOutage } from './azure-capacities.ts';
import { errorCodeFor, simulatedFailure } from './error-codes.ts';
import { FaultQueue, sendGarbage } from './faults.ts';
import { powerBiCatalogue } from './power-bi-catalogue.ts';
import { checkIdentities, embedUrlFor, findReport, identityList, isRecord, sameId } from './power-bi-common.ts';
import { invalid, notFound, sendError, type PowerBiError } from './power-bi-errors.ts';
import { exportJobs } from './power-bi-exports.ts';
import { nowSeconds, POWER_BI_RESOURCE, type StandInContext } from './stand-in-context.ts';
import type { StandIns, StandInReport } from './types.ts';

// Where other files and tests have always found them.
export { embedUrlFor, findReport, pagesOf, sameId, type ReportPage } from './power-bi-common.ts';

/** The `aud` of stand-in embed tokens: what the embed host page checks (it cannot check signatures). */
export const EMBED_TOKEN_AUDIENCE = 'https://app.powerbi.com';
/**
 * What an embed token opens, and what it allows beyond viewing: saving a copy (SaveAs) only into `targetWorkspaces`,
 * editing and saving only the `editableReports` (those asked for with `allowEdit: true`).
 */
export interface EmbedTokenGrant {
  reports: string[];
  editableReports: string[];
  datasets: string[];
  targetWorkspaces: string[];
  identities: { username: string; roles: string[]; datasets: string[] }[];
}

export interface EmbedTokenClaims extends JWTPayload, EmbedTokenGrant {
  tokenId: string;
}

/** `[{id}]` lists of the GenerateToken body; null when the shape is wrong. */
function idList(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return null;
  const ids: string[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.id !== 'string' || !item.id) return null;
    ids.push(item.id);
  }
  return ids;
}

/** Each report's `allowEdit` (false when absent), in order; null when one is not a boolean. */
function allowEditOf(value: unknown): boolean[] | null {
  if (!Array.isArray(value)) return [];
  const flags: boolean[] = [];
  for (const item of value) {
    const allowEdit = isRecord(item) ? item.allowEdit : undefined;
    if (allowEdit !== undefined && typeof allowEdit !== 'boolean') return null;
    flags.push(allowEdit === true);
  }
  return flags;
}

/** The claims of an embed token, or why Power BI would refuse to generate it. */
export function checkGenerateToken(
  reports: StandInReport[],
  body: unknown,
): { claims: EmbedTokenGrant } | { error: PowerBiError } {
  const badRequest = (message: string) => ({ error: invalid(message) });
  const missing = (message: string) => ({ error: notFound(message) });
  if (!isRecord(body)) return badRequest('The request body must be a GenerateTokenRequestV2 JSON object.');
  const reportIds = idList(body.reports);
  const editable = allowEditOf(body.reports);
  const datasetIds = idList(body.datasets);
  const workspaceIds = idList(body.targetWorkspaces);
  const identities = identityList(body.identities);
  if (!reportIds || !datasetIds || !workspaceIds) {
    return badRequest("'reports', 'datasets' and 'targetWorkspaces' must be arrays of {id}.");
  }
  if (!editable) return badRequest("A report's 'allowEdit' must be true or false.");
  if (!identities) return badRequest("'identities' must be an array of {username, roles, datasets}.");
  if (!reportIds.length && !datasetIds.length) return badRequest('Specify at least one report or dataset.');

  const requestedReports: StandInReport[] = [];
  for (const id of reportIds) {
    const report = reports.find((candidate) => sameId(candidate.reportId, id));
    if (!report) return missing(`Report ${id} was not found.`);
    requestedReports.push(report);
  }
  const datasets: string[] = [];
  for (const id of datasetIds) {
    const report = reports.find((candidate) => sameId(candidate.datasetId, id));
    if (!report) return missing(`Dataset ${id} was not found.`);
    datasets.push(report.datasetId);
  }
  const targetWorkspaces: string[] = [];
  for (const id of workspaceIds) {
    const report = reports.find((candidate) => sameId(candidate.workspaceId, id));
    if (!report) return missing(`Workspace ${id} was not found.`);
    targetWorkspaces.push(report.workspaceId);
  }
  // V2 tokens only open what they list: a report without its dataset could not query anything.
  for (const report of requestedReports) {
    if (!datasets.some((id) => sameId(id, report.datasetId))) {
      return badRequest(
        `Creating embed token for accessing report ${report.reportId} requires dataset ${report.datasetId} to be included in 'datasets'.`,
      );
    }
  }

  const checked = checkIdentities(
    reports,
    datasets,
    identities,
    (id) => `Effective identity refers to dataset ${id}, which is not in 'datasets'.`,
  );
  if ('error' in checked) return checked;

  return {
    claims: {
      reports: requestedReports.map((report) => report.reportId),
      editableReports: requestedReports.filter((_, index) => editable[index]).map((report) => report.reportId),
      datasets,
      targetWorkspaces,
      identities: checked.identities,
    },
  };
}

/** Power BI REST (https://api.powerbi.com/v1.0/myorg/...) on the stand-in server. */
const isExportCall = (request: FastifyRequest) => /\/(ExportTo|exports\/)/.test(request.url);
/** The catalogue's OData collections (power-bi-catalogue.ts): groups, reports, pages, refreshes. */
const isCollectionCall = (request: FastifyRequest) =>
  request.method === 'GET' && /\/myorg\/groups(\?|$)|\/(reports|pages|refreshes)(\?|$)/.test(request.url);

/** A 200 of the wrong shape for each endpoint: what a client must not take for a report or a token. */
function wrongShapeFor(request: FastifyRequest): unknown {
  if (isCollectionCall(request)) return { '@odata.context': 'collection', value: { id: 7, name: ['não'] } };
  if (/\/datasets\/[^/?]+(\?|$)/.test(request.url)) return { '@odata.context': 'datasets/$entity', id: 7 };
  if (isExportCall(request))
    return { '@odata.context': 'exports/$entity', id: 7, status: 'Pronto', percentComplete: '∞' };
  return request.method === 'POST'
    ? { '@odata.context': 'EmbedToken', token: 42, expiration: 'quando der' }
    : { '@odata.context': 'reports/$entity', id: 7, name: null, embedUrl: ['não'], datasetId: null };
}

/** A plausible whole answer for each endpoint, for the faults that send only part of one. */
function sampleFor(request: FastifyRequest): string {
  if (isCollectionCall(request)) {
    return JSON.stringify({ '@odata.context': 'collection', value: [{ id: randomUUID(), name: 'Relatório' }] });
  }
  const params = request.params as { workspaceId?: string; reportId?: string };
  if (isExportCall(request)) {
    return JSON.stringify({
      id: Buffer.from(`2/${randomUUID()}/${randomUUID()}`.toUpperCase()).toString('base64'),
      createdDateTime: '2030-01-01T00:00:00.0000000Z',
      lastActionDateTime: '2030-01-01T00:00:01.0000000Z',
      reportId: params.reportId ?? randomUUID(),
      reportName: 'Relatório',
      status: 'Running',
      percentComplete: 50,
    });
  }
  return JSON.stringify(
    request.method === 'POST'
      ? { token: `H4sIAAAAAAAEA${'x'.repeat(600)}`, tokenId: randomUUID(), expiration: '2030-01-01T00:00:00Z' }
      : {
          id: params.reportId ?? randomUUID(),
          name: 'Relatório',
          embedUrl: embedUrlFor({ reportId: params.reportId ?? '', workspaceId: params.workspaceId ?? '' }),
          datasetId: randomUUID(),
        },
  );
}

export function registerPowerBi(app: FastifyInstance, ctx: StandInContext): StandIns['powerBi'] {
  const faults = new FaultQueue();
  const requests: StandIns['powerBi']['requests'] = [];
  let latencyMs = 0;
  /** The garbage a request was answered with, for its log entry. */
  const faultOf = new WeakMap<FastifyRequest, string>();
  /** The claims of the access token each served request came with. */
  const callers = new WeakMap<FastifyRequest, JWTPayload>();
  const jwks = createLocalJWKSet(ctx.keys.jwks);
  const exports = exportJobs(ctx);
  const catalogue = powerBiCatalogue(ctx);

  /** The caller's access token's claims, or why Power BI refuses the call. */
  async function authorize(header: string | undefined): Promise<{ caller: JWTPayload } | { error: PowerBiError }> {
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    const denied = (message: string) => ({
      error: { status: 403, code: 'PowerBINotAuthorizedException', message },
    });
    if (!token) return denied('The request has no bearer access token.');
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: ctx.issuer,
        audience: POWER_BI_RESOURCE,
        algorithms: ['RS256'],
      });
      return { caller: payload };
    } catch (error) {
      // jose checks the signature before the claims, so only a genuine stand-in token reads as expired.
      if (error instanceof joseErrors.JWTExpired) {
        return {
          error: {
            status: 403,
            code: 'TokenExpired',
            message: 'Access token has expired, resubmit with a new access token',
          },
        };
      }
      return denied(`The access token is not valid for ${POWER_BI_RESOURCE}.`);
    }
  }

  app.register(
    async (api) => {
      api.addHook('onRequest', async (_request, reply) => {
        reply.header('RequestId', randomUUID()).header('cache-control', 'no-store, must-revalidate, no-cache');
        if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      });
      api.addHook('onSend', async (request, reply, payload) => {
        const fault = faultOf.get(request);
        requests.push({
          method: request.method,
          path: request.url,
          status: reply.statusCode,
          requestId: String(reply.getHeader('RequestId')),
          ...(fault ? { fault } : {}),
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        return payload;
      });
      api.addHook('preHandler', async (request, reply) => {
        const authorized = await authorize(request.headers.authorization);
        if ('error' in authorized) return sendError(reply, authorized.error);
        callers.set(request, authorized.caller);
        // A workspace the service principal was removed from refuses it before anything else is looked at.
        const refused = catalogue.refusal(request);
        if (refused) return sendError(reply, refused);
        // Only callers Power BI would serve use up queued faults, as with Graph.
        const fault = faults.take();
        if (!fault) return;
        const logHijacked = (status: number, name: string) =>
          requests.push({
            method: request.method,
            path: request.url,
            status,
            fault: name,
            ...(request.body === undefined ? {} : { body: request.body }),
          });
        switch (fault.kind) {
          case 'fail':
            if (fault.status === 429) reply.header('Retry-After', '1');
            return sendError(reply, simulatedFailure('power-bi', fault.status));
          case 'throttle':
            if (fault.retryAfter !== null) reply.header('Retry-After', fault.retryAfter);
            return sendError(reply, {
              status: 429,
              code: 'TooManyRequests',
              message: 'Too many requests (simulated throttling).',
            });
          case 'hang':
            logHijacked(fault.stage === 'body' ? 200 : 0, `hang:${fault.stage}`);
            faults.hang(reply, fault.stage, sampleFor(request));
            return reply;
          case 'garbage':
            if (fault.garbage === 'truncated') logHijacked(200, 'garbage:truncated');
            else faultOf.set(request, `garbage:${fault.garbage}`);
            sendGarbage(reply, fault.garbage, wrongShapeFor(request), sampleFor(request));
            return reply;
        }
      });
      api.setErrorHandler((error: FastifyError, _request, reply) => {
        const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        return sendError(reply, { status, code: errorCodeFor('power-bi', status), message: error.message });
      });
      api.setNotFoundHandler((request, reply) =>
        sendError(reply, {
          status: 404,
          code: 'NotFound',
          message: `No API answers ${request.method} ${request.url}.`,
        }),
      );

      type ReportRoute = { Params: { workspaceId: string; reportId: string } };
      api.get<ReportRoute>('/groups/:workspaceId/reports/:reportId', async (request, reply) => {
        const { workspaceId, reportId } = request.params;
        const report = findReport(ctx, reportId, workspaceId);
        if (!report) return sendError(reply, notFound(`Report ${reportId} was not found in workspace ${workspaceId}.`));
        return {
          '@odata.context': `${ctx.authorityHost}/v1.0/myorg/groups/${report.workspaceId}/$metadata#reports/$entity`,
          ...catalogue.reportObject(report),
        };
      });

      api.post('/GenerateToken', async (request: FastifyRequest, reply) => {
        const checked = checkGenerateToken(ctx.reports, request.body);
        if ('error' in checked) return sendError(reply, checked.error);
        // Content on a capacity that is not running can't be served (azure-capacities.ts).
        for (const reportId of checked.claims.reports) {
          const report = ctx.reports.find((candidate) => candidate.reportId === reportId);
          const outage = report ? capacityOutage(ctx, report) : null;
          if (outage) return sendError(reply, outage);
        }
        const tokenId = randomUUID();
        const now = nowSeconds();
        // An embed token lives no longer than the access token that asked for it (docs/decisions/014).
        const callerExp = callers.get(request)?.exp ?? Number.POSITIVE_INFINITY;
        const exp = Math.min(now + ctx.embedTokenLifetimeSeconds, callerExp);
        const token = await ctx.keys.sign({
          iss: ctx.authorityHost,
          aud: EMBED_TOKEN_AUDIENCE,
          iat: now,
          nbf: now,
          exp,
          tokenId,
          ...checked.claims,
        } satisfies EmbedTokenClaims);
        return {
          '@odata.context': `${ctx.authorityHost}/v1.0/myorg/$metadata#Microsoft.PowerBI.ServiceContracts.Api.V1.EmbedToken`,
          token,
          tokenId,
          // Power BI writes whole seconds: 2024-05-01T12:00:00Z.
          expiration: new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        };
      });

      exports.register(api);
      catalogue.register(api);
    },
    { prefix: '/v1.0/myorg' },
  );

  return {
    setReports(reports) {
      const ids = reports.map((report) => report.reportId.toLowerCase());
      if (new Set(ids).size !== ids.length) throw new RangeError('report ids must be unique');
      ctx.reports = [...reports];
    },
    ...faults.controls,
    setWorkspaces: catalogue.controls.setWorkspaces,
    setDatasets: catalogue.controls.setDatasets,
    setRefreshes: catalogue.controls.setRefreshes,
    removeServicePrincipal: catalogue.controls.removeServicePrincipal,
    restoreServicePrincipal: catalogue.controls.restoreServicePrincipal,
    setExportDuration: exports.controls.setExportDuration,
    failNextExport: exports.controls.failNextExport,
    failNextExportTransiently: exports.controls.failNextExportTransiently,
    setConcurrentExportLimit: exports.controls.setConcurrentExportLimit,
    setExportTenantSetting: exports.controls.setExportTenantSetting,
    get exports() {
      return exports.controls.exports;
    },
    setLatency(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('latency must be 0 or more milliseconds');
      latencyMs = ms;
    },
    reset() {
      faults.reset();
      exports.controls.reset();
      catalogue.controls.reset();
      requests.length = 0;
      latencyMs = 0;
    },
    requests,
  };
}
