// The web app's budgets (WEB_BUDGETS in bench/budgets.ts), measured in Debian's Chromium against the real server
// in this process: the built web app, the API on an in-memory PGlite seeded with SIZES (bench/seed.ts), and the
// Microsoft stand-ins playing Power BI, so that /visualizar/{id} embeds a report through the real powerbi-client.
//
// Nothing leaves the machine: Chromium resolves every name but 127.0.0.1 to nothing, and app.powerbi.com to a
// local HTTPS server (self-signed, hence --ignore-certificate-errors) that answers /reportEmbed with the
// stand-in's report page and /reportEmbed/scripts/… with its script, as the Microsoft journeys of e2e/ do through
// Playwright's routing. While panels are opened from the list (openingRows), that script answers after
// POWER_BI_SCRIPT_DELAY_MS and is then cached, as Power BI's are; for the other rows at once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Response } from '@playwright/test';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import type { GrupoPaineis } from '@paineis/contract/panels';
import type { Usuario365, UsuarioVinculado } from '@paineis/contract/users';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config/env.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { signSessionToken } from '../apps/api/src/modules/auth/tokens.ts';
import {
  filterUsers,
  preparePickerUsers,
  selectedFirst,
  type PickerUser,
} from '../apps/web/src/features/panel-access/utils/picker-users.ts';
import { embedHostResponse, isEmbedHostPath } from '../packages/microsoft-stand-ins/src/embed-host.ts';
import { portalEnvironment, startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import type { StandIns } from '../packages/microsoft-stand-ins/src/types.ts';
import { chromiumArgs, chromiumLaunchOptions, chromiumPath } from '../scripts/lib/chromium.mjs';
import { freePort } from '../scripts/lib/server-process.mjs';
import { SIZES, WEB_BUDGETS } from './budgets.ts';
import { ensureBuilt, errorRow, formatNumber, median, quick, type BenchRow } from './report.ts';
import { LARGE_GROUP, seed, seededReports } from './seed.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Admin loads of `/` (the median and the worst are reported). */
const LOADS = quick ? 1 : 5;
/** After the first row, how long the page is still "loading" (its long tasks count) before anything else. */
const SETTLE_MS = 1_500;
/** A panel with SIZES.linksPerPanel links, in the first classification on screen (no scrolling needed). */
const LINKS_PANEL = LARGE_GROUP.panels[1]!;
/** Not under RLS, linked to the ordinary user. */
const VIEWER_PANEL_ID = 210;
/** At most this many characters are typed in the links modal's search, one by one. */
const SEARCH_CHARS = 10;
/** Strings found only in powerbi-client's code: a header it sends and the name of its UMD bundle. */
const POWER_BI_MARKERS = ['x-sdk-type', 'powerbi-client'];
const PROBE = path.join(root, 'bench', 'web-probe.js');
/**
 * How long the stand-in's report page waits for its script on a first visit: Power BI's report page fetches several
 * megabytes of versioned JavaScript from its CDN before it can load a report, which the browser then caches
 * (docs/requirements.md#report-loading). 2 s is this project's assumption for that cold fetch on an ordinary office
 * connection, not a figure Microsoft publishes; preload and bootstrap exist to take it out of the opening.
 */
const POWER_BI_SCRIPT_DELAY_MS = 2_000;
/** The switch that turns preload and bootstrap off (apps/web/src/features/viewer/embedding/report-loading.ts). */
const PRE_LOAD_SWITCH = { name: 'paineis.powerBi.preCarga', value: 'desligada' };
/** Openings timed from the list, with preload and bootstrap and without (each a fresh context: a cold cache). */
const OPENINGS = quick ? 1 : 5;
/** How long the person stays on the list before opening a panel, the same with and without preload. */
const LIST_DWELL_MS = 4_000;

const kb = (bytes: number) => `${formatNumber(bytes / 1000, 1)} kB`;
const ms = (value: number) => `${formatNumber(value)} ms`;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

interface Session {
  token: string;
  /** What the web app keeps under localStorage 'user' (apps/web/src/lib/session-storage.ts). */
  user: Record<string, unknown>;
}

interface Portal {
  base: string;
  admin: Session;
  user: Session;
  powerBiHost: PowerBiHost | null;
  /** How long the stand-in's report page waits for its script (StandIns['embedHost']): no wait unless set. */
  embedHost: StandIns['embedHost'];
  close: () => Promise<void>;
}

/** The server, in this process, on a seeded in-memory PGlite; the Power BI stand-in knows every panel's report. */
async function startPortal(): Promise<Portal> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paineis-bench-web-'));
  const database = await openDatabase({ kind: 'pglite' });
  await migrateDatabase(database);
  const standIns = await startStandIns({ people: [] });
  const config = loadConfig({
    NODE_ENV: 'production',
    JWT_SECRET: 'benchmark-secret-with-more-than-32-chars',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    ...portalEnvironment(standIns),
    GRAPH_SYNC_INTERVAL_MINUTES: '0',
    // No timed round over Power BI: the freshness and health seed() wrote stay as written while measured.
    POWER_BI_REFRESH_INTERVAL_MINUTES: '0',
    POWER_BI_HEALTH_INTERVAL_MINUTES: '0',
  });
  const { users, seconds } = await seed(database.db);
  console.log(`web: base semeada em ${seconds.toFixed(1)} s`);
  standIns.powerBi.setReports(await seededReports(database.db));
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const session = async (u: (typeof users)[number]): Promise<Session> => ({
    token: (await signSessionToken(config.jwt, u)).token,
    user: {
      id: u.id,
      username: u.email,
      role: u.role,
      displayName: u.displayName,
      email: u.email,
      department: u.department ?? null,
      jobTitle: u.jobTitle ?? null,
      officeLocation: u.officeLocation ?? null,
    },
  });
  const powerBiHost = await startPowerBiHost(standIns.embedHostUrl, dataDir);
  return {
    base,
    admin: await session(users[0]!),
    user: await session(users[1]!),
    powerBiHost,
    embedHost: standIns.embedHost,
    close: async () => {
      await powerBiHost?.close();
      await app.close(); // closes the database too
      await standIns.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface PowerBiHost {
  port: number;
  close: () => Promise<void>;
}

/**
 * https://app.powerbi.com/reportEmbed on this machine: the stand-in's report page over HTTPS, with a certificate
 * made here by openssl. Null when openssl is missing: the report frame then fails to load (the portal's own
 * figures stand; the viewer shows no report).
 */
async function startPowerBiHost(embedHostUrl: string, dir: string): Promise<PowerBiHost | null> {
  const key = path.join(dir, 'power-bi-key.pem');
  const cert = path.join(dir, 'power-bi-cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=app.powerbi.com',
      '-addext',
      'subjectAltName=DNS:app.powerbi.com',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  if (made.status !== 0) {
    console.warn('web: sem openssl, o relatório do Power BI não carrega no visualizador');
    return null;
  }
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    const url = new URL(request.url ?? '/', 'https://app.powerbi.com');
    if (!isEmbedHostPath(url.pathname)) {
      response.writeHead(404).end();
      return;
    }
    embedHostResponse(embedHostUrl, url.toString()).then(
      ({ status, headers, body }) => response.writeHead(status, headers).end(body),
      () => response.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Chromium's network: app.powerbi.com is the local host above, and no other name resolves. */
const networkArgs = (powerBiHost: PowerBiHost | null) => [
  '--ignore-certificate-errors',
  `--host-resolver-rules=${powerBiHost ? `MAP app.powerbi.com 127.0.0.1:${powerBiHost.port}, ` : ''}MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost`,
];

async function api<T>(portal: Portal, route: string, session: Session): Promise<T> {
  const response = await fetch(portal.base + route, { headers: { authorization: `Bearer ${session.token}` } });
  if (!response.ok) throw new Error(`GET ${route}: ${response.status}`);
  return (await response.json()) as T;
}

/** The files of a kind (script, stylesheet) a page downloaded from the portal, with their bodies. */
class Downloads {
  private readonly bodies = new Map<string, Promise<Buffer>>();

  constructor(
    page: Page,
    private readonly base: string,
  ) {
    page.on('response', (response) => this.seen(response));
  }

  private seen(response: Response) {
    const url = new URL(response.url());
    if (url.origin !== this.base || !/\.(js|css)$/.test(url.pathname) || this.bodies.has(url.href)) return;
    const body = response.body();
    body.catch(() => {}); // reported when awaited
    this.bodies.set(url.href, body);
  }

  async files(extension: 'js' | 'css'): Promise<{ url: string; body: Buffer; gzip: number }[]> {
    const files = [];
    for (const [url, body] of this.bodies) {
      if (!url.endsWith(`.${extension}`)) continue;
      const bytes = await body;
      files.push({ url, body: bytes, gzip: gzipSync(bytes).length });
    }
    return files;
  }
}

interface Probe {
  painted: number;
  dom: number;
}

/** A fresh context (no cache), signed in as `session`; `preLoadOff` sets the switch of preload and bootstrap. */
function signedInContext(browser: Browser, portal: Portal, session: Session, preLoadOff: boolean) {
  return browser.newContext({
    baseURL: portal.base,
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 800 },
    storageState: {
      cookies: [],
      origins: [
        {
          origin: portal.base,
          localStorage: [
            { name: 'token', value: session.token },
            { name: 'user', value: JSON.stringify(session.user) },
            ...(preLoadOff ? [PRE_LOAD_SWITCH] : []),
          ],
        },
      ],
    },
  });
}

/** A fresh context (no cache), signed in as `session`, with the probe installed; opens `route`. */
async function open(browser: Browser, portal: Portal, session: Session, route: string, preLoadOff = false) {
  const context = await signedInContext(browser, portal, session, preLoadOff);
  await context.addInitScript({ path: PROBE });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const downloads = new Downloads(page, portal.base);
  const response = await page.goto(route, { timeout: 60_000 });
  if (!response?.ok()) throw new Error(`${route}: ${response?.status() ?? 'sem resposta'}`);
  return { context, page, downloads, errors };
}

/**
 * Navigation start → first panel row (in the DOM, painted); then the page settles and its long tasks are read.
 * `preLoadOff`: with the switch that turns powerbi-client's preload off (docs/requirements.md#report-loading).
 */
async function loadList(browser: Browser, portal: Portal, session: Session, preLoadOff = false) {
  const opened = await open(browser, portal, session, '/', preLoadOff);
  const { page } = opened;
  const firstRow = await page
    .evaluate<{ at: number; painted: number }>('window.__bench.firstRow')
    .catch((error: unknown) => {
      throw new Error(`/ não mostrou nenhum painel: ${error instanceof Error ? error.message : String(error)}`);
    });
  await sleep(SETTLE_MS);
  const longTasks = await page.evaluate<number[] | null>('window.__bench.longTasksSince(0)');
  const domNodes = await page.evaluate<number>('window.__bench.domNodes()');
  return { ...opened, firstRow, longTasks, domNodes };
}

/** The query typed in the links modal, and for each of its prefixes how many users the list should show. */
function searchPlan(users: PickerUser[]): { query: string; counts: number[] } {
  // The name, among some, whose first characters change the list most often: a keystroke that leaves the list
  // as it was (a space, a letter every match already has) changes nothing on screen, so there is nothing to time.
  let best = { query: '', counts: [] as number[], changes: -1 };
  for (const candidate of users.slice(0, 400).filter((_, i) => i % 20 === 0)) {
    const query = candidate.displayName.slice(0, SEARCH_CHARS);
    const counts = [...query].map((_, i) => filterUsers(users, query.slice(0, i + 1)).length);
    const changes = counts.filter((count, i) => count !== (i === 0 ? users.length : counts[i - 1])).length;
    if (changes > best.changes) best = { query, counts, changes };
  }
  return best;
}

interface LinksModalResult {
  open: Probe;
  total: number;
  keys: Probe[];
}

/** On a loaded admin `/`: 'Usuários' on a panel, then its search typed character by character. */
async function linksModal(page: Page, plan: { query: string; counts: number[] }, all: number) {
  await page.evaluate('window.__bench.armLinksModal()');
  await page.getByRole('button', { name: `Usuários do painel ${LINKS_PANEL.name}`, exact: true }).click();
  const opened = await page.evaluate<Probe & { count: [number, number] | null }>('window.__bench.pending');
  const total = opened.count?.[1] ?? 0;
  const dialog = page.getByRole('dialog', { name: 'Vincular Usuários ao Painel' });
  const search = dialog.getByRole('searchbox', { name: 'Buscar usuário' });
  await search.focus();
  const keys: Probe[] = [];
  let shown = all;
  for (const [i, char] of [...plan.query].entries()) {
    const expected = plan.counts[i]!;
    if (expected === shown) {
      // Nothing on screen changes: typed, not timed.
      await page.keyboard.type(char);
      await sleep(100);
      continue;
    }
    await page.evaluate(`window.__bench.armSearchKey(${expected})`);
    await page.keyboard.type(char);
    keys.push(await page.evaluate<Probe>('window.__bench.pending'));
    shown = expected;
    await sleep(50);
  }
  await page.keyboard.press('Escape');
  return { open: opened, total, keys } satisfies LinksModalResult;
}

/** Two frames: after a key, the page has handled it and painted (a held key repeats about this fast). */
const twoFrames = (page: Page) =>
  page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');

/** Where the dragged panel is, from dnd-kit's announcement to screen readers: '… sobre a posição 12 de 200.' */
async function dragPosition(page: Page): Promise<[number, number] | null> {
  const said = await page.evaluate<string>(
    `[...document.querySelectorAll('[role="status"]')].map((e) => e.textContent).join(' ')`,
  );
  const match = said.match(/posição (\d+) de (\d+)/);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/**
 * On a loaded admin `/`: the first panel of LARGE_GROUP picked up with Space on its drag handle, carried with
 * ArrowDown until the announcement puts it on the group's last position, dropped with Space. Returns the long
 * tasks from the pick-up to the saved order, and how many keys it took (a key pressed before the list has caught
 * up with the previous one can leave the panel where it was).
 */
async function keyboardDrag(page: Page, portal: Portal) {
  const [first] = LARGE_GROUP.panels;
  const size = LARGE_GROUP.panels.length;
  const handle = page.getByRole('button', { name: `Arrastar para reordenar ${first!.name}`, exact: true });
  await handle.focus();
  const start = await page.evaluate<number>('performance.now()');
  await page.keyboard.press('Space');
  await twoFrames(page);
  let keys = 0;
  let position = await dragPosition(page);
  while (position?.[0] !== size) {
    if (keys >= size * 4) throw new Error(`${keys} setas e o painel está na posição ${position?.join(' de ')}`);
    await page.keyboard.press('ArrowDown');
    keys += 1;
    await twoFrames(page);
    position = await dragPosition(page);
    if (position && position[1] !== size) throw new Error(`o painel saiu do grupo (${position.join(' de ')})`);
  }
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/api/paineis/reorder') && response.request().method() === 'POST',
    { timeout: 30_000 },
  );
  await page.keyboard.press('Space');
  const response = await saved.catch(() => {
    throw new Error('soltar o painel não salvou a ordem (nenhum POST /api/paineis/reorder)');
  });
  if (!response.ok()) throw new Error(`POST /api/paineis/reorder: ${response.status()}`);
  await sleep(SETTLE_MS);
  const longTasks = await page.evaluate<number[] | null>(`window.__bench.longTasksSince(${start})`);
  const groups = await api<GrupoPaineis[]>(portal, '/api/paineis/agrupados', portal.admin);
  const group = groups.find((g) => g.nome === LARGE_GROUP.name);
  if (group?.paineis.at(-1)?.id !== first!.id) {
    throw new Error(
      `${first!.name} não chegou ao fim de ${LARGE_GROUP.name} (último: ${group?.paineis.at(-1)?.nomePainel})`,
    );
  }
  return { longTasks, keys };
}

const longest = (tasks: number[] | null) => (tasks === null ? null : Math.max(0, ...tasks));
const longTaskValue = (tasks: number[] | null) =>
  tasks === null ? 'sem Long Tasks API' : tasks.length === 0 ? 'nenhuma' : `${ms(longest(tasks)!)} (${tasks.length})`;

/** One opening's times in the page's clock (ms since its navigation): the click, embed() called, `loaded`. */
interface Opening {
  click: number;
  embed: number;
  loaded: number;
  /** The panel's answer (GET /api/paineis/{id}, with its embed token): the server's part of click → embed. */
  panelAnswer: number;
  /** Whether powerbi-client's preload iframe had loaded Power BI's page (and its script) when the panel was clicked. */
  preloaded: boolean;
}

/** The capture-phase click on a panel's link, before the app's own handlers see it: when the person clicked. */
const CLICK_LISTENER = `document.addEventListener('click', (event) => {
  if (event.target instanceof Element && event.target.closest('a[aria-label^="Visualizar painel "]')) {
    window.__clickAt = performance.now();
  }
}, true);`;

/** Whether the preload iframe (Power BI's page without a report, hidden in the body) has loaded with its script. */
async function preloadLoaded(page: Page): Promise<boolean> {
  for (const frame of page.frames()) {
    const url = frame.url();
    if (!url.startsWith('https://app.powerbi.com/reportEmbed') || new URL(url).searchParams.has('reportId')) continue;
    const done = await frame
      .evaluate<boolean>(
        `document.readyState === 'complete' && document.documentElement.dataset.scripts === 'carregados'`,
      )
      .catch(() => false);
    if (done) return true;
  }
  return false;
}

/**
 * The ordinary user on `/` in a fresh context (a cold HTTP cache): the list, LIST_DWELL_MS on it, then a click on the
 * panel's link, until the report's `loaded` (the viewer's performance marks, docs/requirements.md#report-loading).
 * `preLoad` false sets the switch that turns preload and bootstrap off.
 */
async function openPanel(
  browser: Browser,
  portal: Portal,
  panel: { id: number; name: string },
  preLoad: boolean,
): Promise<Opening> {
  const context = await signedInContext(browser, portal, portal.user, !preLoad);
  try {
    await context.addInitScript({ content: CLICK_LISTENER });
    const page = await context.newPage();
    const response = await page.goto('/', { timeout: 60_000 });
    if (!response?.ok()) throw new Error(`/: ${response?.status() ?? 'sem resposta'}`);
    const link = page.locator(`a[aria-label="Visualizar painel ${panel.name}"]`).first();
    await link.waitFor({ timeout: 30_000 });
    await sleep(LIST_DWELL_MS);
    const preloaded = await preloadLoaded(page);
    await link.click();
    // Polled (the portal's CSP refuses waitForFunction's eval); the times come from the marks, not from the polling.
    const deadline = Date.now() + 30_000;
    while (!(await page.evaluate<boolean>(`performance.getEntriesByName('paineis:loaded').length > 0`))) {
      if (Date.now() > deadline) throw new Error('o relatório não carregou em 30 s (sem a marca paineis:loaded)');
      await sleep(50);
    }
    const times = await page.evaluate<{ click: number; embed: number; loaded: number; panelAnswer: number }>(`(() => {
      const answer = performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname === '/api/paineis/${panel.id}')
        .at(-1);
      return {
        click: window.__clickAt ?? NaN,
        embed: performance.getEntriesByName('paineis:embed').at(-1)?.startTime ?? NaN,
        loaded: performance.getEntriesByName('paineis:loaded').at(-1)?.startTime ?? NaN,
        panelAnswer: answer ? answer.responseEnd - answer.startTime : NaN,
      };
    })()`);
    if (!Object.values(times).every(Number.isFinite)) throw new Error(`marcas incompletas: ${JSON.stringify(times)}`);
    return { ...times, preloaded };
  } finally {
    await context.close();
  }
}

/**
 * The user's panel to open: VIEWER_PANEL_ID when its link is on the list's first screen, else the first panel without
 * RLS whose link is.
 */
async function panelOnFirstScreen(browser: Browser, portal: Portal): Promise<{ id: number; name: string }> {
  const groups = await api<GrupoPaineis[]>(portal, '/api/paineis/agrupados', portal.user);
  const panels = groups.flatMap((group) => group.paineis).filter((panel) => !panel.usaRls);
  const loaded = await loadList(browser, portal, portal.user);
  try {
    const onScreen = async (name: string) => {
      // The list renders only the rows near the screen: one not in the page is not on its first screen.
      const link = loaded.page.locator(`a[aria-label="Visualizar painel ${name}"]`).first();
      if ((await link.count()) === 0) return false;
      const box = await link.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 800;
    };
    const preferred = panels.find((panel) => panel.id === VIEWER_PANEL_ID);
    if (preferred && (await onScreen(preferred.nomePainel))) return { id: preferred.id, name: preferred.nomePainel };
    for (const panel of panels) {
      if (await onScreen(panel.nomePainel)) return { id: panel.id, name: panel.nomePainel };
    }
    throw new Error('nenhum painel sem RLS na primeira tela de / do usuário');
  } finally {
    await loaded.context.close();
  }
}

/**
 * Opening a panel from the list: the portal's share (click → embed()), and click → `loaded` with preload and
 * bootstrap and without them, alternated sample by sample so that the machine's load falls on both alike.
 */
async function openingRows(browser: Browser, portal: Portal): Promise<BenchRow[]> {
  const embedFigure = 'Abrir um painel: clique → embed (parte do portal)';
  const withFigure = 'Abrir um painel: clique → loaded, com pré-carga e bootstrap';
  const withoutFigure = 'Abrir um painel: clique → loaded, sem pré-carga nem bootstrap';
  const embedBudget = `≤ ${ms(WEB_BUDGETS.openEmbedMs)}`;
  const ratioBudget = `≤ ${formatNumber(WEB_BUDGETS.openLoadedRatio, 1)} × sem`;
  // Only for these openings: the other rows keep the figures they were budgeted with, against a page that loads at once.
  portal.embedHost.setScriptDelay(POWER_BI_SCRIPT_DELAY_MS);
  try {
    const panel = await panelOnFirstScreen(browser, portal);
    const withIt: Opening[] = [];
    const without: Opening[] = [];
    for (let sample = 0; sample < OPENINGS; sample += 1) {
      withIt.push(await openPanel(browser, portal, panel, true));
      without.push(await openPanel(browser, portal, panel, false));
    }
    const embedTimes = withIt.map((o) => o.embed - o.click);
    const withTimes = withIt.map((o) => o.loaded - o.click);
    const withoutTimes = without.map((o) => o.loaded - o.click);
    const list = (values: number[]) => values.map((v) => Math.round(v)).join(', ');
    const preloaded = withIt.filter((o) => o.preloaded).length;
    const about = `painel ${panel.id}, script do Power BI em ${formatNumber(POWER_BI_SCRIPT_DELAY_MS)} ms, mediana de ${OPENINGS}`;
    const withMedian = median(withTimes);
    const withoutMedian = median(withoutTimes);
    return [
      {
        figure: `${embedFigure} (${about})`,
        value:
          `${ms(median(embedTimes))} (${list(embedTimes)}), resposta do painel ${ms(median(withIt.map((o) => o.panelAnswer)))}; ` +
          `sem pré-carga nem bootstrap: ${ms(median(without.map((o) => o.embed - o.click)))}`,
        budget: embedBudget,
        ok: median(embedTimes) <= WEB_BUDGETS.openEmbedMs,
      },
      {
        figure: `${withFigure} (${about})`,
        value:
          `${ms(withMedian)} (${list(withTimes)}), ${formatNumber(withMedian / withoutMedian, 2)} × sem; ` +
          `pré-carga carregada antes do clique em ${preloaded} de ${OPENINGS}`,
        budget: `${ratioBudget} (${ms(WEB_BUDGETS.openLoadedRatio * withoutMedian)})`,
        ok: withMedian <= WEB_BUDGETS.openLoadedRatio * withoutMedian && preloaded === OPENINGS,
      },
      {
        figure: `${withoutFigure} (${about})`,
        value: `${ms(withoutMedian)} (${list(withoutTimes)})`,
        budget: 'referência',
        ok: true,
      },
    ];
  } catch (error) {
    return [
      errorRow(embedFigure, embedBudget, error),
      errorRow(withFigure, ratioBudget, error),
      errorRow(withoutFigure, 'referência', error),
    ];
  } finally {
    portal.embedHost.reset();
  }
}

/** Playwright's part: loads, bundle, powerbi-client's place, links modal, keyboard drag. */
async function browserRows(portal: Portal): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const browser = await chromium.launch(chromiumLaunchOptions(networkArgs(portal.powerBiHost)));
  try {
    // What the modal's list holds, worked out as the web app does, to know what each keystroke should show.
    const active = await api<Usuario365[]>(portal, '/api/usuarios365/ativos', portal.admin);
    const linked = await api<UsuarioVinculado[]>(portal, `/api/paineis/${LINKS_PANEL.id}/usuarios`, portal.admin);
    const pickerUsers = selectedFirst(preparePickerUsers(active, linked), new Set(linked.map((u) => u.id)));
    const plan = searchPlan(pickerUsers);

    const firstRows: number[] = [];
    const loadTasks: number[][] = [];
    let noLongTaskApi = false;
    const domNodes: number[] = [];
    const modal: LinksModalResult[] = [];
    const bundle: Record<'admin' | 'usuário', { js: number; css: number; files: number; powerBi: string[] }> = {
      admin: { js: 0, css: 0, files: 0, powerBi: [] },
      usuário: { js: 0, css: 0, files: 0, powerBi: [] },
    };
    const measureBundle = async (who: 'admin' | 'usuário', downloads: Downloads) => {
      const scripts = await downloads.files('js');
      const styles = await downloads.files('css');
      bundle[who] = {
        js: scripts.reduce((sum, file) => sum + file.gzip, 0),
        css: styles.reduce((sum, file) => sum + file.gzip, 0),
        files: scripts.length,
        powerBi: scripts
          .filter((file) => POWER_BI_MARKERS.some((marker) => file.body.includes(marker)))
          .map((file) => path.basename(new URL(file.url).pathname)),
      };
    };

    let modalError: unknown = null;
    for (let load = 0; load < LOADS; load += 1) {
      const loaded = await loadList(browser, portal, portal.admin);
      try {
        firstRows.push(loaded.firstRow.painted);
        if (loaded.longTasks === null) noLongTaskApi = true;
        else loadTasks.push(loaded.longTasks);
        domNodes.push(loaded.domNodes);
        // The modal, each time on a page that has not fetched its users yet.
        if (!modalError) modal.push(await linksModal(loaded.page, plan, pickerUsers.length));
      } catch (error) {
        modalError = error;
      } finally {
        for (const message of loaded.errors) console.warn(`web: erro na página /: ${message}`);
        await loaded.context.close();
      }
    }
    const allLoadTasks = noLongTaskApi ? null : loadTasks.flat();
    rows.push(
      {
        figure: `Primeira linha de painel em / (admin, mediana de ${LOADS})`,
        value: `${ms(median(firstRows))} (${firstRows.map((v) => Math.round(v)).join(', ')})`,
        budget: `≤ ${ms(WEB_BUDGETS.firstRowMs)}`,
        ok: median(firstRows) <= WEB_BUDGETS.firstRowMs,
      },
      {
        figure: `Tarefa longa mais longa ao carregar / (${LOADS} ${LOADS === 1 ? 'carga' : 'cargas'})`,
        value: longTaskValue(allLoadTasks),
        budget: `≤ ${ms(WEB_BUDGETS.longTaskMs)}`,
        ok: allLoadTasks !== null && longest(allLoadTasks)! <= WEB_BUDGETS.longTaskMs,
      },
      {
        figure: 'Nós DOM em / (admin, lista renderizada)',
        value: formatNumber(Math.max(...domNodes)),
        budget: `≤ ${formatNumber(WEB_BUDGETS.domNodes)}`,
        ok: Math.max(...domNodes) <= WEB_BUDGETS.domNodes,
      },
    );

    // The bundle of `/` itself, admin and user: without the preload, which imports powerbi-client's chunk once the
    // browser is idle after the list, by design outside the list's script budget (docs/requirements.md#report-loading).
    const asAdmin = await loadList(browser, portal, portal.admin, true);
    await measureBundle('admin', asAdmin.downloads).finally(() => asAdmin.context.close());
    const asUser = await loadList(browser, portal, portal.user, true);
    await measureBundle('usuário', asUser.downloads).finally(() => asUser.context.close());
    for (const who of ['admin', 'usuário'] as const) {
      rows.push({
        figure: `JavaScript baixado por / (${who}, gzip, ${bundle[who].files} arquivos, sem a pré-carga)`,
        value: kb(bundle[who].js),
        budget: `≤ ${WEB_BUDGETS.scriptKb} kB`,
        ok: bundle[who].js <= WEB_BUDGETS.scriptKb * 1000,
      });
    }
    const css = Math.max(bundle.admin.css, bundle.usuário.css);
    rows.push(
      {
        figure: 'CSS baixado por / (gzip)',
        value: kb(css),
        budget: `≤ ${WEB_BUDGETS.styleKb} kB`,
        ok: css <= WEB_BUDGETS.styleKb * 1000,
      },
      {
        figure: 'powerbi-client em algum script de / (admin, usuário, sem a pré-carga)',
        value: [...bundle.admin.powerBi, ...bundle.usuário.powerBi].join(', ') || 'não',
        budget: 'não',
        ok: bundle.admin.powerBi.length === 0 && bundle.usuário.powerBi.length === 0,
      },
    );

    // The viewer loads the library: its report frame on app.powerbi.com appears, made by powerbi-client.
    try {
      const viewer = await open(browser, portal, portal.user, `/visualizar/${VIEWER_PANEL_ID}`);
      try {
        await viewer.page
          .locator('iframe[src^="https://app.powerbi.com/reportEmbed"]')
          .waitFor({ state: 'attached', timeout: 30_000 });
        const scripts = await viewer.downloads.files('js');
        const withLibrary = scripts.filter((file) => POWER_BI_MARKERS.some((marker) => file.body.includes(marker)));
        rows.push({
          figure: `powerbi-client carregado por /visualizar/${VIEWER_PANEL_ID}`,
          value: withLibrary.map((file) => path.basename(new URL(file.url).pathname)).join(', ') || 'não',
          budget: 'sim',
          ok: withLibrary.length > 0,
        });
      } finally {
        await viewer.context.close();
      }
    } catch (error) {
      rows.push(errorRow(`powerbi-client carregado por /visualizar/${VIEWER_PANEL_ID}`, 'sim', error));
    }

    rows.push(...(await openingRows(browser, portal)));

    const opens = modal.map((m) => m.open.painted);
    const total = Math.min(...modal.map((m) => m.total));
    const keys = modal.flatMap((m) => m.keys.map((k) => k.painted));
    const openBudget = `≤ ${ms(WEB_BUDGETS.linksModalOpenMs)}`;
    const keyBudget = `≤ ${ms(WEB_BUDGETS.linksSearchKeyMs)}`;
    if (modalError || total < 20_000 || keys.length === 0) {
      const why = modalError ?? (total < 20_000 ? `só ${total} usuários na lista` : 'nenhuma tecla mudou a lista');
      rows.push(errorRow('Modal de vínculos abre', openBudget, why), errorRow('Busca do modal', keyBudget, why));
    } else {
      rows.push(
        {
          figure: `Modal de vínculos abre (${formatNumber(total)} usuários, mediana de ${opens.length})`,
          value: `${ms(median(opens))} (${opens.map((v) => Math.round(v)).join(', ')})`,
          budget: openBudget,
          ok: median(opens) <= WEB_BUDGETS.linksModalOpenMs,
        },
        {
          figure: `Busca do modal: tecla mais lenta ('${plan.query}', ${keys.length} teclas)`,
          value: `${ms(Math.max(...keys))} (mediana ${ms(median(keys))})`,
          budget: keyBudget,
          ok: Math.max(...keys) <= WEB_BUDGETS.linksSearchKeyMs,
        },
      );
    }

    const dragFigure = `Tarefa longa mais longa no arrasto por teclado (${LARGE_GROUP.panels.length} painéis)`;
    try {
      const loaded = await loadList(browser, portal, portal.admin);
      try {
        const { longTasks: tasks, keys } = await keyboardDrag(loaded.page, portal);
        rows.push({
          figure: dragFigure,
          value: `${longTaskValue(tasks)}, ${keys} setas`,
          budget: `≤ ${ms(WEB_BUDGETS.longTaskMs)}`,
          ok: tasks !== null && longest(tasks)! <= WEB_BUDGETS.longTaskMs,
        });
      } finally {
        await loaded.context.close();
      }
    } catch (error) {
      rows.push(errorRow(dragFigure, `≤ ${ms(WEB_BUDGETS.longTaskMs)}`, error));
    }
  } finally {
    await browser.close();
  }
  return rows;
}

/** A Chromium of its own for Lighthouse, with a DevTools port; stopped by `close`. */
async function launchForLighthouse(portal: Portal) {
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), 'paineis-bench-chromium-'));
  const child: ChildProcess = spawn(
    chromiumPath(),
    chromiumArgs([
      ...networkArgs(portal.powerBiHost),
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ]),
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('o Chromium do Lighthouse não abriu');
    await sleep(100);
  }
  return {
    port,
    close: async () => {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      // Chromium's helper processes may still be writing to the profile for a while after it exits: leaving a
      // scratch folder in /tmp behind must not cost the run its Lighthouse rows.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (error) {
        console.warn(`web: perfil do Chromium não removido (${profile}): ${String(error)}`);
      }
    },
  };
}

/**
 * Signs `session` in, in the default profile Lighthouse's tab shares (the web app reads localStorage), and empties
 * the HTTP cache, so each run is a first visit that is signed in.
 */
async function prepareProfile(port: number, portal: Portal, session: Session) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    // A static file of the portal's origin: the app itself does not run.
    await page.goto(`${portal.base}/favicon.svg`);
    await page.evaluate(`localStorage.clear(); sessionStorage.clear();
      localStorage.setItem('token', ${JSON.stringify(session.token)});
      localStorage.setItem('user', ${JSON.stringify(JSON.stringify(session.user))});`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.close(); // over CDP: disconnects, Chromium stays
  }
}

/**
 * Lighthouse's performance score for `/` (admin and user) and /visualizar/{id}, desktop and mobile, each a first
 * visit signed in. Quick mode scores only the viewer on desktop: the part that proves the setup still works
 * (the session, the report frame), in a fraction of the time.
 */
async function lighthouseRows(portal: Portal): Promise<BenchRow[]> {
  const budget = `≥ ${WEB_BUDGETS.lighthouseScore}`;
  const viewer: [string, string, Session] = [`/visualizar/${VIEWER_PANEL_ID}`, 'usuário', portal.user];
  const pages: [string, string, Session][] = quick
    ? [viewer]
    : [['/', 'admin', portal.admin], ['/', 'usuário', portal.user], viewer];
  const formFactors = quick ? (['desktop'] as const) : (['desktop', 'mobile'] as const);
  const rows: BenchRow[] = quick
    ? [{ figure: 'Lighthouse desempenho / e mobile', value: 'não medido no modo rápido', budget, ok: true }]
    : [];
  const chrome = await launchForLighthouse(portal);
  try {
    for (const [route, who, session] of pages) {
      for (const formFactor of formFactors) {
        const figure = `Lighthouse desempenho ${route} (${who}, ${formFactor})`;
        try {
          await prepareProfile(chrome.port, portal, session);
          const result = await lighthouse(
            portal.base + route,
            { port: chrome.port, disableStorageReset: true, onlyCategories: ['performance'], logLevel: 'error' },
            formFactor === 'desktop' ? desktopConfig : undefined,
          );
          const lhr = result?.lhr;
          if (!lhr) throw new Error('o Lighthouse não deu resultado');
          if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
          const score = lhr.categories.performance?.score;
          if (score === null || score === undefined) throw new Error('sem nota de desempenho');
          if (new URL(lhr.finalDisplayedUrl).pathname !== route) {
            throw new Error(`terminou em ${lhr.finalDisplayedUrl}, não em ${route} (sessão?)`);
          }
          const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
          // On the list: whether powerbi-client's preload fetched Power BI's page and its script during the run.
          const requested = (
            (lhr.audits['network-requests']?.details as { items?: { url?: string }[] } | undefined)?.items ?? []
          ).map((item) => item.url ?? '');
          const preload =
            route === '/'
              ? `, pré-carga do Power BI: ${requested.some((url) => url.includes('/reportEmbed/scripts/')) ? 'sim' : 'não'}`
              : '';
          rows.push({
            figure,
            value:
              `${Math.round(score * 100)} (FCP ${formatNumber(metric('first-contentful-paint'))} ms, ` +
              `LCP ${formatNumber(metric('largest-contentful-paint'))} ms, TBT ${formatNumber(metric('total-blocking-time'))} ms, ` +
              `CLS ${formatNumber(metric('cumulative-layout-shift'), 3)}${preload})`,
            budget,
            ok: score * 100 >= WEB_BUDGETS.lighthouseScore,
          });
        } catch (error) {
          rows.push(errorRow(figure, budget, error));
        }
      }
    }
  } finally {
    await chrome.close();
  }
  return rows;
}

/**
 * Every web figure, in one list of rows (or only those of `parts`: the Playwright measures, Lighthouse's scores).
 * Throws only when the portal itself cannot be started.
 */
export async function benchWeb({
  parts = ['browser', 'lighthouse'],
}: { parts?: ('browser' | 'lighthouse')[] } = {}): Promise<BenchRow[]> {
  ensureBuilt();
  console.log(
    `web: ${SIZES.panels} painéis em ${SIZES.classifications} classificações (uma de ${LARGE_GROUP.panels.length}), ${SIZES.users} usuários`,
  );
  const portal = await startPortal();
  try {
    const rows: BenchRow[] = [];
    if (parts.includes('browser')) {
      try {
        rows.push(...(await browserRows(portal)));
      } catch (error) {
        rows.push(errorRow('Chromium (Playwright)', '—', error));
      }
    }
    if (parts.includes('lighthouse')) {
      try {
        rows.push(...(await lighthouseRows(portal)));
      } catch (error) {
        rows.push(errorRow('Lighthouse', `≥ ${WEB_BUDGETS.lighthouseScore}`, error));
      }
    }
    return rows;
  } finally {
    await portal.close();
  }
}
