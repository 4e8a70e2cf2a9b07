import type { APIRequestContext, Browser, BrowserContext, PlaywrightWorkerArgs } from '@playwright/test';
import type { Painel, PainelBody } from '@paineis/contract/panels';
import { embedHostResponse, isEmbedHostPath } from '@paineis/microsoft-stand-ins/embed-host';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { DEMO_USER } from '../../apps/api/src/demo/demo-data.ts';
import { demoReports } from '../../apps/api/src/demo/demo-directory.ts';
import { expect, signInAs } from '../fixtures.ts';

// What the journeys of the project `microsoft` share: the viewer embeds with the real powerbi-client, which only
// embeds Power BI addresses, so https://app.powerbi.com/reportEmbed is answered by the stand-in's embed host page,
// as in packages/microsoft-stand-ins/src/embed-host.test.ts.

export const STAND_INS = `http://127.0.0.1:${process.env.E2E_MS_PORT}`;
export const REPORT_EMBED = 'https://app.powerbi.com/reportEmbed';

export const VENDAS = 'Vendas por Região';

/** The demo's report of that name; the journey fails at once if the demo has none. */
export function demoReport(name: string): StandInReport {
  const report = demoReports().find((each) => each.name === name);
  if (!report) throw new Error(`o relatório '${name}' não está entre os da demonstração`);
  return report;
}

/** A panel on the demo's report of that name, named as the report. */
export function panelOn(name: string, body: Omit<PainelBody, 'workspaceId' | 'reportId' | 'nomePainel'>): PainelBody {
  const { workspaceId, reportId } = demoReport(name);
  return { workspaceId, reportId, nomePainel: name, ...body };
}

/** The RLS panel both journeys set up (each puts it back as it should be): Bruno as 'Gerente Regional'. */
export const VENDAS_PANEL = panelOn(VENDAS, {
  usaRls: true,
  classificacaoId: 0,
  rlsConfigurations: [
    { roleName: 'Gerente Regional', userEmails: [DEMO_USER.email] },
    { roleName: 'Diretoria', userEmails: [] },
  ],
});

export const isLoopback = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost';

/**
 * Nothing leaves the machine, but Power BI's embed page and its script, which the stand-in answers. Counts the page's
 * loads (not its script's) for a report (`hits`), and without one (`bootstraps`: powerbi.preload and
 * powerbi.bootstrap, before the report is known).
 */
export async function routePowerBi(context: BrowserContext): Promise<{ hits: number; bootstraps: number }> {
  const counter = { hits: 0, bootstraps: 0 };
  // Routes registered later take precedence: the embed page's route wins over this one.
  await context.route(
    (url) => !isLoopback(url),
    (route) => route.abort(),
  );
  const powerBiHost = new URL(REPORT_EMBED).origin;
  await context.route(
    (url) => url.origin === powerBiHost && isEmbedHostPath(url.pathname),
    async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/reportEmbed') {
        if (url.searchParams.has('reportId')) counter.hits += 1;
        else counter.bootstraps += 1;
      }
      await route.fulfill(await embedHostResponse(`${STAND_INS}/reportEmbed`, route.request().url()));
    },
  );
  return counter;
}

/** An API answer's JSON, failing the journey with the status and body when it is not a success. */
export async function ok<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/**
 * Ana, an admin through her Entra app role, reads the directory from Graph and creates each panel (or puts it back as
 * it should be), linked to Bruno. Returns the panels' ids by name.
 */
/** Runs `use` with an API client signed in as Ana, the administrator (through the stand-in's sign-in page). */
export async function asAdmin<T>(
  browser: Browser,
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
  use: (api: APIRequestContext) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ baseURL });
  let api: APIRequestContext | undefined;
  try {
    await routePowerBi(context);
    const page = await context.newPage();
    await signInAs(page, 'Ana Demonstração');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    return await use(api);
  } finally {
    await api?.dispose();
    await context.close();
  }
}

export async function setUpPanels(
  browser: Browser,
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
  bodies: PainelBody[],
): Promise<Map<string, number>> {
  return asAdmin(browser, playwright, baseURL, async (api) => {
    await ok(await api.post('/api/usuarios365/sincronizar'));
    const existing = await ok<Painel[]>(await api.get('/api/paineis'));
    const ids = new Map<string, number>();
    for (const body of bodies) {
      const found = existing.find((panel) => panel.nomePainel === body.nomePainel);
      const saved = found
        ? await ok<Painel>(await api.put(`/api/paineis/${found.id}`, { data: { ...body, ordem: found.ordem } }))
        : await ok<Painel>(await api.post('/api/paineis', { data: body }));
      await ok(await api.post(`/api/paineis/${saved.id}/usuarios`, { data: [DEMO_USER.id] }));
      ids.set(body.nomePainel, saved.id);
    }
    return ids;
  });
}
