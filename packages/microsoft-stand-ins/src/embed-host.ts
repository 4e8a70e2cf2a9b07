import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { capacityOutage } from './azure-capacities.ts';
import { findReport, pagesOf, type ReportPage } from './power-bi.ts';
import {
  EXPORT_DATA_MAX_ROWS,
  formatos,
  LINHAS_SUBJACENTES_PADRAO,
  MESES,
  pageFigures,
  REGIAO_PADRAO,
  REGIOES,
  VISUAIS,
} from './report-state.ts';
import { escapeHtml } from './sign-in-pages.ts';
import { single, type StandInContext } from './stand-in-context.ts';
import type { StandInReport } from './types.ts';

const SCRIPT = readFileSync(new URL('./embed-host-page.js', import.meta.url), 'utf8');

const STYLES = `
*{box-sizing:border-box}
[hidden]{display:none!important}
html{background:#fff}
html.transparente,html.transparente body{background:transparent}
body{margin:0;height:100vh;display:flex;flex-direction:column;font-family:"Segoe UI",system-ui,-apple-system,Roboto,Arial,sans-serif;
color:#252423;overflow:hidden}
#erro{margin:8px 12px 0;padding:10px 14px;border:1px solid #f1bbbc;border-left:4px solid #a4262c;background:#fde7e9;
color:#a4262c;border-radius:4px;font-size:14px}
#erro strong{display:block}
#erro p{margin:4px 0 0;color:#605e5c;font-size:12px;overflow-wrap:anywhere}
#estado{flex:1;display:flex;align-items:center;justify-content:center;color:#605e5c;font-size:15px}
#relatorio{flex:1;display:flex;flex-direction:column;min-height:0}
.corpo{flex:1;display:flex;min-height:0}
.paginas{flex:1;overflow:auto;padding:16px 20px}
#identidade{margin:0 0 12px;padding:8px 12px;background:#fff4ce;border:1px solid #f2d675;border-radius:4px;color:#5c4400;
font-size:14px;font-weight:600}
#identidade span+span{margin-left:16px}
h1{margin:0 0 14px;font-size:22px;font-weight:600}
.kpis{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:12px;margin-bottom:16px}
.kpi{background:rgba(255,255,255,.85);border:1px solid #e1dfdd;border-top:4px solid var(--cor);border-radius:4px;padding:12px 14px}
.kpi span{display:block;color:#605e5c;font-size:13px}
.kpi strong{display:block;margin-top:4px;font-size:28px;font-weight:600;color:var(--cor)}
figure{margin:0;background:rgba(255,255,255,.85);border:1px solid #e1dfdd;border-radius:4px;padding:10px 14px;max-width:520px}
figcaption{font-size:13px;color:#605e5c;margin-bottom:6px}
svg{display:block;width:100%;height:auto}
svg rect{fill:var(--cor)}
svg text{font-size:11px;fill:#605e5c}
.tema-0{--cor:#118dff}.tema-1{--cor:#e66c37}.tema-2{--cor:#6b007b}.tema-3{--cor:#1aab40}.tema-4{--cor:#d9b300}.tema-5{--cor:#c83d95}
#filtros{width:190px;border-left:1px solid #e1dfdd;padding:14px;font-size:13px;background:rgba(250,249,248,.9)}
#filtros h2{margin:0 0 8px;font-size:15px;font-weight:600}
#filtros label{display:block;margin:0 0 4px;color:#605e5c}
#filtros select{width:100%;font:inherit;padding:4px 6px;border:1px solid #8a8886;border-radius:2px;background:#fff}
#regiao-atual{margin:0 0 8px;color:#605e5c;font-size:13px;font-weight:600}
#abas{display:flex;gap:2px;border-top:1px solid #e1dfdd;padding:0 8px;background:rgba(243,242,241,.95)}
#abas button{font:inherit;font-size:13px;border:0;background:transparent;padding:6px 12px;cursor:pointer;color:#252423}
#abas button[aria-current=page]{border-bottom:3px solid #f2c811;font-weight:600}
.marca{margin:0;padding:4px 12px;font-size:11px;color:#8a8886;text-align:right}
@media (max-width:600px){.corpo{flex-direction:column}.kpis{grid-template-columns:minmax(0,1fr)}
#filtros{width:auto;border-left:0;border-top:1px solid #e1dfdd}#identidade span{display:block}#identidade span+span{margin-left:0}}
`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/**
 * Power BI's report page is slow mostly for its scripts: large, versioned files the browser caches for good, which
 * powerbi.preload() and powerbi.bootstrap() exist to fetch early (docs/requirements.md#report-loading). The stand-in's
 * page loads one such script, blocking in its head, so that the page's `load` (and so powerbi-client's load
 * message) waits for it; how long it takes to answer is set per run (embedScriptDelayMs), none by default.
 */
const RUNTIME_SCRIPT = `window.powerBiSimulacao = { scripts: 'carregados' };
document.documentElement.setAttribute('data-scripts', 'carregados');
`;
/** Versioned by its content, as Power BI's are, so that a cached copy never goes stale. */
export const EMBED_SCRIPT_PATH = `/reportEmbed/scripts/relatorio.${createHash('sha256').update(RUNTIME_SCRIPT).digest('hex').slice(0, 16)}.js`;

/**
 * Only the page's own inline script and stylesheet, and its script from the same origin, run; no frame-ancestors,
 * since any portal may embed it, as it may embed Power BI. No other URL, so the page works when served as
 * https://app.powerbi.com/reportEmbed (its script then comes from there too).
 */
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; script-src 'self' 'sha256-${sha256(SCRIPT)}'; style-src 'sha256-${sha256(STYLES)}'; base-uri 'none'; form-action 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const SCRIPT_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'cache-control': 'public, max-age=31536000, immutable',
};

// Where the benchmark and older tests found it.
export { pageFigures };

const BAR_SCALE = 1.2;

function renderPage(report: StandInReport, page: ReportPage): string {
  const figures = pageFigures(page.name);
  const theme = createHash('sha256').update(page.name).digest()[31]! % 6;
  const { money, whole, percent } = formatos;
  const barWidth = 40;
  const gap = 16;
  const bars = figures.bars
    .map((value, index) => {
      const x = 8 + index * (barWidth + gap);
      const height = value * BAR_SCALE;
      return (
        `<rect x="${x}" y="${130 - height}" width="${barWidth}" height="${height}" rx="2"><title>${MESES[index]}: ${value}</title></rect>` +
        `<text x="${x + barWidth / 2}" y="146" text-anchor="middle">${MESES[index]}</text>`
      );
    })
    .join('');
  return `<section class="tema-${theme}" data-pagina="${escapeHtml(page.name)}" hidden>
<h1>${escapeHtml(page.displayName)} — ${escapeHtml(report.name)}</h1>
<div class="kpis">
<div class="kpi" data-kpi="receita"><span>Receita</span><strong>${money.format(Math.round(figures.revenue))}</strong></div>
<div class="kpi" data-kpi="pedidos"><span>Pedidos</span><strong>${whole.format(figures.orders)}</strong></div>
<div class="kpi" data-kpi="margem"><span>Margem</span><strong>${percent.format(figures.margin)}%</strong></div>
</div>
<figure><figcaption>Vendas por mês (mil unidades)</figcaption>
<svg viewBox="0 0 344 150" role="img" aria-label="Vendas por mês">${bars}</svg>
</figure>
</section>`;
}

/** The page Power BI would serve at /reportEmbed?reportId=…&groupId=…, with the report's metadata built in. */
export function renderEmbedHostPage(report: StandInReport | undefined, capacityPaused = false): string {
  const pages = report ? pagesOf(report) : [];
  const data = {
    report: report
      ? {
          reportId: report.reportId,
          workspaceId: report.workspaceId,
          name: report.name,
          datasetId: report.datasetId,
          rls: report.rls,
          // exportData: the page computes the rows (report-state.ts underlyingRow) and refuses when export is off.
          exportDataDisabled: report.exportDataDisabled === true,
          underlyingRows: report.underlyingRows ?? LINHAS_SUBJACENTES_PADRAO,
          pages: pages.map(({ name, displayName, visibility }) => ({
            name,
            displayName,
            visibility,
            figures: pageFigures(name),
          })),
        }
      : null,
    // Its capacity not running: the load fails as Power BI's does then (OpenConnectionError), whatever the token.
    capacidadePausada: capacityPaused,
    // The slicer: the page script scales the figures by the region's share, as regionFigures does for exports.
    regioes: REGIOES,
    meses: MESES,
    barScale: BAR_SCALE,
    visuais: VISUAIS,
    maxExportRows: EXPORT_DATA_MAX_ROWS,
  };
  const tabs = pages
    .filter((page) => page.visibility === 0)
    .map(
      (page) => `<button type="button" data-pagina="${escapeHtml(page.name)}">${escapeHtml(page.displayName)}</button>`,
    )
    .join('');
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(report ? `${report.name} — Power BI (simulação)` : 'Power BI (simulação)')}</title>
<script src="${EMBED_SCRIPT_PATH}"></script>
<style>${STYLES}</style>
</head>
<body>
<div id="erro" role="alert" hidden><strong id="erro-titulo"></strong><p id="erro-detalhe"></p></div>
<div id="estado" role="status"><span id="estado-texto">Aguardando o relatório…</span></div>
<div id="relatorio" hidden>
<div class="corpo">
<div class="paginas">
<p id="identidade" hidden><span id="identidade-usuario"></span><span id="identidade-papeis"></span></p>
<p id="regiao-atual">Região: ${REGIAO_PADRAO}</p>
${report ? pages.map((page) => renderPage(report, page)).join('\n') : ''}
</div>
<aside id="filtros" hidden><h2>Filtros</h2><label for="regiao">Região</label><select id="regiao">${REGIOES.map(
    ({ nome }) => `<option value="${nome}"${nome === REGIAO_PADRAO ? ' selected' : ''}>${nome}</option>`,
  ).join('')}</select></aside>
</div>
<nav id="abas" aria-label="Páginas" hidden>${tabs}</nav>
</div>
<p class="marca">Simulação local do Power BI</p>
<script type="application/json" id="dados-relatorio">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** The embed host's control: how long its script takes to answer (StandIns['powerBi'].setEmbedScriptDelay). */
export interface EmbedHostControls {
  setScriptDelay(ms: number): void;
  /** The delay back as the stand-ins started. */
  reset(): void;
}

function checkDelay(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the script delay must be 0 or more milliseconds');
  return ms;
}

/**
 * GET /reportEmbed: plays https://app.powerbi.com/reportEmbed for powerbi-client; GET EMBED_SCRIPT_PATH: its script,
 * after `scriptDelayMs`.
 */
export function registerEmbedHost(app: FastifyInstance, ctx: StandInContext, scriptDelayMs = 0): EmbedHostControls {
  const startingDelay = checkDelay(scriptDelayMs);
  let delayMs = startingDelay;
  app.get<{ Querystring: Record<string, unknown> }>('/reportEmbed', async (request, reply) => {
    const reportId = single(request.query.reportId);
    const groupId = single(request.query.groupId);
    const report = reportId === undefined ? undefined : findReport(ctx, reportId, groupId);
    const paused = report !== undefined && capacityOutage(ctx, report) !== null;
    return reply.code(200).headers(HEADERS).send(renderEmbedHostPage(report, paused));
  });
  app.get(EMBED_SCRIPT_PATH, async (_request, reply) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return reply.code(200).headers(SCRIPT_HEADERS).send(RUNTIME_SCRIPT);
  });
  return {
    setScriptDelay(ms) {
      delayMs = checkDelay(ms);
    },
    reset() {
      delayMs = startingDelay;
    },
  };
}

/** Whether a request to Power BI's host is for the embed host: its page or anything under it (its script). */
export function isEmbedHostPath(pathname: string): boolean {
  return pathname === '/reportEmbed' || pathname.startsWith('/reportEmbed/');
}

/**
 * What a browser test answers for a request to https://app.powerbi.com/reportEmbed?… (or a file under
 * /reportEmbed/): the stand-in's answer for the same path and query, with its status, content type, security policy
 * and caching. Shaped for Playwright's `route.fulfill`.
 */
export async function embedHostResponse(
  embedHostUrl: string,
  requestUrl: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const requested = new URL(requestUrl);
  const response = await fetch(new URL(requested.pathname + requested.search, embedHostUrl));
  const headers: Record<string, string> = {
    'content-type': response.headers.get('content-type') ?? 'text/html; charset=utf-8',
    'content-security-policy': response.headers.get('content-security-policy') ?? "default-src 'none'",
  };
  const cacheControl = response.headers.get('cache-control');
  if (cacheControl) headers['cache-control'] = cacheControl;
  return { status: response.status, headers, body: await response.text() };
}
