import type { FastifyBaseLogger } from 'fastify';
import type { EmbedInfo, Painel } from '@paineis/contract/panels';
import { ExpiringCache } from '../../lib/expiring-cache.ts';
import { MicrosoftError } from '../microsoft-error.ts';
import { checkedEffectiveIdentity } from './effective-identity.ts';
import type {
  Embedding,
  EmbeddingService,
  EmbedViewer,
  ExportJob,
  ExportRequest,
  ReportExporter,
} from './embedding-service.ts';
import {
  type EmbedToken,
  type PowerBiClient,
  type PowerBiExport,
  type PowerBiFile,
  type PowerBiReport,
} from './power-bi-client.ts';

/** A token is reused until this long before it expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** Report details (embed URL, dataset) change rarely. */
const REPORT_TTL_MS = 60 * 60_000;

/** The demo host's address for a report: the stand-in page reads the same reportId and groupId as Power BI's. */
function demoEmbedUrl(host: string, embedUrl: string): string {
  const url = new URL(host);
  try {
    url.search = new URL(embedUrl).search;
  } catch {
    // No usable embed URL: the host then says it knows no such report.
  }
  return url.toString();
}

/**
 * Embed tokens from Power BI for one panel and one person: the report's details and the token are cached
 * (the token until shortly before it expires), and identical requests made together share one upstream
 * call. The identity (username and roles) is part of the token's key, so a change in a panel's RLS roles or
 * links is never served a token made for the old ones.
 */
export class PowerBiEmbeddingService implements EmbeddingService, ReportExporter {
  private readonly reports = new ExpiringCache<PowerBiReport>();
  /**
   * One per report and identity: bounded, so tens of thousands of people cannot grow it without end. Each keeps the
   * answer's embed info, built once: every request served from the cache hands back the same object, which the
   * prepared answers are keyed by (panel-answers.ts).
   */
  private readonly tokens = new ExpiringCache<{ token: EmbedToken; info: EmbedInfo }>(20_000);
  /**
   * Each report's part of its tokens' keys and each panel's report key, built once per object: every opening looks
   * them up, and a string kept is hashed once.
   */
  private readonly tokenKeys = new WeakMap<PowerBiReport, string>();
  private readonly reportKeys = new WeakMap<Painel, string>();

  constructor(
    private readonly client: PowerBiClient,
    private readonly log: FastifyBaseLogger,
    private readonly options: { demoEmbedHost?: string | undefined } = {},
  ) {}

  /** Forgets every cached report and token (tests start each case from nothing). */
  clear(): void {
    this.reports.clear();
    this.tokens.clear();
  }

  /**
   * The effective identity for this person on this panel: none without RLS; with RLS, their username and the roles
   * the panel opens with. An identity Power BI would refuse (no roles, too many, a name it does not accept) is never
   * sent (effective-identity.ts). The embed token and the export alike carry exactly this.
   */
  private identityFor(panel: Painel, viewer: EmbedViewer): { username: string; roles: string[] } | null {
    if (!panel.usaRls) return null;
    // Power BI's rules for the identity are checked here, so the token and the export are refused alike, unasked.
    return checkedEffectiveIdentity({ username: viewer.username, roles: [...viewer.roles].sort() });
  }

  private reportKey(panel: Painel): string {
    let key = this.reportKeys.get(panel);
    if (key === undefined) this.reportKeys.set(panel, (key = `${panel.workspaceId}/${panel.reportId}`));
    return key;
  }

  /** The token's key: the report as embedded (its address too: a report whose address changed gets a new token). */
  private tokenKey(panel: Painel, report: PowerBiReport, identity: { username: string; roles: string[] } | null) {
    let key = this.tokenKeys.get(report);
    if (key === undefined) {
      key = JSON.stringify([panel.workspaceId, report.id, report.datasetId, report.embedUrl]);
      this.tokenKeys.set(report, key);
    }
    return identity ? key + JSON.stringify(identity) : key;
  }

  private reportOf(panel: Painel): Promise<PowerBiReport> {
    return this.reports.get(this.reportKey(panel), async () => ({
      value: await this.client.getReport(panel.workspaceId, panel.reportId),
      until: Date.now() + REPORT_TTL_MS,
    }));
  }

  /** What Power BI said goes to the log (never a token); the caller answers the person in Portuguese. */
  private logFailure(error: unknown, painelId: number, what: string): void {
    if (!(error instanceof MicrosoftError)) return;
    this.log.error(
      {
        service: error.service,
        powerBiStatus: error.status ?? error.failure,
        powerBiCode: error.code,
        powerBiRequestId: error.requestId,
        painelId,
      },
      what,
    );
  }

  private async logged<T>(painelId: number, what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      this.logFailure(error, painelId, what);
      throw error;
    }
  }

  async startExport(panel: Painel, viewer: EmbedViewer, request: ExportRequest): Promise<ExportJob & PowerBiExport> {
    const identity = this.identityFor(panel, viewer);
    return this.logged(panel.id, 'Power BI recusou ou falhou ao iniciar a exportação', async () => {
      const report = await this.reportOf(panel);
      const started = await this.client.exportTo(panel.workspaceId, report.id, {
        format: request.format,
        powerBIReportConfiguration: {
          settings: { locale: 'pt-BR' },
          ...(request.state === undefined ? {} : { defaultBookmark: { state: request.state } }),
          ...(request.page === undefined ? {} : { pages: [{ pageName: request.page }] }),
          ...(identity ? { identities: [{ ...identity, datasets: [report.datasetId] }] } : {}),
        },
      });
      return { ...started, workspaceId: panel.workspaceId, reportId: report.id, exportId: started.id };
    });
  }

  exportStatus(job: ExportJob, painelId: number): Promise<PowerBiExport> {
    return this.logged(painelId, 'Power BI recusou ou falhou ao informar a exportação', () =>
      this.client.exportStatus(job.workspaceId, job.reportId, job.exportId),
    );
  }

  exportFile(job: ExportJob, painelId: number): Promise<PowerBiFile> {
    return this.logged(painelId, 'Power BI recusou ou falhou ao entregar o arquivo exportado', () =>
      this.client.exportFile(job.workspaceId, job.reportId, job.exportId),
    );
  }

  embeddedNow(panel: Painel, viewer: EmbedViewer): Embedding | undefined {
    const report = this.reports.peek(this.reportKey(panel));
    if (!report) return undefined;
    const identity = this.identityFor(panel, viewer);
    const cached = this.tokens.peek(this.tokenKey(panel, report, identity));
    return cached && { info: cached.info, identity, requestId: cached.token.requestId, fromCache: true };
  }

  async embedFor(panel: Painel, viewer: EmbedViewer): Promise<Embedding> {
    const identity = this.identityFor(panel, viewer);
    try {
      const report = this.reports.peek(this.reportKey(panel)) ?? (await this.reportOf(panel));
      const key = this.tokenKey(panel, report, identity);
      let made = false;
      const { token, info } = await this.tokens.get(key, async () => {
        made = true;
        const value = await this.client.generateToken({
          reports: [{ id: report.id }],
          datasets: [{ id: report.datasetId }],
          // No targetWorkspaces and no allowEdit: a token that only views, the least Power BI grants (docs/decisions/014).
          ...(identity ? { identities: [{ ...identity, datasets: [report.datasetId] }] } : {}),
        });
        const info: EmbedInfo = {
          embedToken: value.token,
          embedUrl: report.embedUrl,
          tokenExpiration: value.expiration,
          ...(this.options.demoEmbedHost
            ? { demoEmbedUrl: demoEmbedUrl(this.options.demoEmbedHost, report.embedUrl) }
            : {}),
        };
        return { value: { token: value, info }, until: Date.parse(value.expiration) - REFRESH_MARGIN_MS };
      });
      return { info, identity, requestId: token.requestId, fromCache: !made };
    } catch (error) {
      // Not through `logged`: this is every opening's path, kept free of a closure per request.
      this.logFailure(error, panel.id, 'Power BI recusou ou falhou ao gerar a incorporação');
      throw error;
    }
  }
}
