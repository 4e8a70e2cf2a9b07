import type { APIRequestContext, BrowserContext } from '@playwright/test';
import { embedHostResponse } from '@paineis/microsoft-stand-ins/embed-host';
import { expect } from '../fixtures.ts';

// What the journeys of the project `microsoft` share: the viewer embeds with the real powerbi-client, which only
// embeds Power BI addresses, so https://app.powerbi.com/reportEmbed is answered by the stand-in's embed host page,
// as in packages/microsoft-stand-ins/src/embed-host.test.ts.

export const STAND_INS = `http://127.0.0.1:${process.env.E2E_MS_PORT}`;
export const REPORT_EMBED = 'https://app.powerbi.com/reportEmbed';

export const isLoopback = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost';

/** Nothing leaves the machine, but Power BI's embed page, which the stand-in answers. Returns its hit count. */
export async function routePowerBi(context: BrowserContext): Promise<{ hits: number }> {
  const counter = { hits: 0 };
  // Routes registered later take precedence: the embed page's route wins over this one.
  await context.route(
    (url) => !isLoopback(url),
    (route) => route.abort(),
  );
  await context.route(`${REPORT_EMBED}*`, async (route) => {
    counter.hits += 1;
    await route.fulfill(await embedHostResponse(`${STAND_INS}/reportEmbed`, route.request().url()));
  });
  return counter;
}

/** An API answer's JSON, failing the journey with the status and body when it is not a success. */
export async function ok<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}
