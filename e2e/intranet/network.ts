import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';

/** One answer's security headers, as the browser got them (a header sent twice counts twice). */
export interface Answer {
  url: string;
  status: number;
  hsts: string[];
  csp: string[];
}

/** Every answer the page gets and every request that fails, from the moment this is called. */
export function watchNetwork(page: Page) {
  const answers: Answer[] = [];
  const failed: string[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    pending.push(
      response.headersArray().then(
        (headers) => {
          const values = (name: string) => headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value);
          answers.push({
            url: response.url(),
            status: response.status(),
            hsts: values('strict-transport-security'),
            csp: values('content-security-policy'),
          });
        },
        // The page moved on before the headers could be read: nothing to check on that answer.
        () => undefined,
      ),
    );
  });
  page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText ?? '?'}`));
  return {
    failed,
    /** The answers so far, once their headers are read. */
    async answers() {
      await Promise.all(pending);
      return answers;
    },
  };
}

export const upgrades = (answer: Answer) =>
  answer.csp.some((policy) => policy.split(';').some((d) => d.trim() === 'upgrade-insecure-requests'));

/**
 * The page shows something: the app rendered text into #root, with its script and its stylesheet loaded. Its
 * screenshot is attached to the report, and also written to $E2E_INTRANET_SCREENSHOTS/<name> when that is set.
 */
export async function expectNotBlank(page: Page, testInfo: TestInfo, name: string) {
  const rendered = await page.evaluate(() => ({
    text: document.getElementById('root')?.innerText.trim() ?? '',
    stylesheets: document.styleSheets.length,
    scripts: [...document.scripts].filter((s) => s.src).length,
  }));
  const screenshot = await page.screenshot();
  await testInfo.attach(name, { body: screenshot, contentType: 'image/png' });
  if (process.env.E2E_INTRANET_SCREENSHOTS) {
    writeFileSync(path.join(process.env.E2E_INTRANET_SCREENSHOTS, name), screenshot);
  }
  if (rendered.text.length < 20 || rendered.stylesheets === 0 || rendered.scripts === 0) {
    throw new Error(`página em branco: ${JSON.stringify(rendered)}`);
  }
}
