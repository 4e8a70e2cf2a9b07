// Debian's Chromium as every browser of the project starts it: the browser journeys (e2e/), the web benchmark
// (bench/web.ts), the stand-ins' embed test and scripts/ensure-browser.mjs, which installs it. Playwright never
// downloads a browser here, so it is always given this executable.

/** Flags every launch shares: headless, no sandbox (root in containers), and nothing reaching out on its own. */
const BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium's executable: CHROMIUM_PATH when set, else Debian's package.
 * @returns {string}
 */
export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/**
 * The shared flags, then the caller's own (host-resolver-rules, certificate errors, a debugging port...).
 * @param {readonly string[]} [extra]
 * @returns {string[]}
 */
export function chromiumArgs(extra = []) {
  return [...BASE_ARGS, ...extra];
}

/**
 * Playwright's launch options (`chromium.launch(...)`, `use.launchOptions`) with the shared flags and `extraArgs`.
 * @param {readonly string[]} [extraArgs]
 * @returns {{ executablePath: string, args: string[] }}
 */
export function chromiumLaunchOptions(extraArgs = []) {
  return { executablePath: chromiumPath(), args: chromiumArgs(extraArgs) };
}
