import type { Page, Response } from '@playwright/test';
import { expect, signInAs, test } from './fixtures.ts';

interface View {
  id: string;
  papeis: string[];
  carregadoMs: number | null;
  renderizadoMs: number | null;
  erros: string[];
}

/** The next opening of a panel: GET /api/paineis/{id} (not its token), whose answer names the view it recorded. */
const nextOpening = (page: Page) =>
  page.waitForResponse(
    (response) => response.request().method() === 'GET' && /\/api\/paineis\/\d+(\?|$)/.test(response.url()),
  );

/** The next load-time report the viewer sends (the demo report renders within a second or two). */
const nextReport = (page: Page) =>
  page.waitForResponse(
    (response) => response.request().method() === 'POST' && /\/api\/paineis\/\d+\/visualizacoes\//.test(response.url()),
    { timeout: 15_000 },
  );

function viewOf(opening: Response) {
  const viewId = opening.headers()['x-visualizacao-id'];
  expect(viewId, 'the opening names its view').toMatch(/^[0-9a-f-]{36}$/);
  const panelId = Number(/\/api\/paineis\/(\d+)/.exec(opening.url())![1]);
  return { panelId, viewId: viewId! };
}

/** The panel's views of the last 7 days, asked for with the admin's own session, as /uso asks for them. */
async function viewsOf(page: Page, panelId: number): Promise<View[]> {
  return page.evaluate(async (id) => {
    const answer = await fetch(`/api/uso/paineis/${id}?dias=7`, {
      headers: { Authorization: `Bearer ${localStorage.getItem('token')}` },
    });
    if (!answer.ok) throw new Error(`GET /api/uso/paineis/${id}: ${answer.status}`);
    return ((await answer.json()) as { visualizacoes: View[] }).visualizacoes;
  }, panelId);
}

/** Waits (views are written in batches, every second) for the view to hold the viewer's times. */
async function expectTimed(page: Page, panelId: number, viewId: string): Promise<View> {
  let view: View | undefined;
  await expect
    .poll(
      async () => {
        view = (await viewsOf(page, panelId)).find((candidate) => candidate.id === viewId);
        return view && view.carregadoMs !== null && view.renderizadoMs !== null;
      },
      { timeout: 5_000, intervals: [250] },
    )
    .toBe(true);
  expect(view!.carregadoMs).toBeGreaterThanOrEqual(0);
  expect(view!.renderizadoMs).toBeGreaterThanOrEqual(view!.carregadoMs!);
  expect(view!.erros).toEqual([]);
  return view!;
}

test("the viewer reports how fast each opening's report loaded: from the list, as an RLS role, from its address (requirements: usage)", async ({
  page,
}) => {
  await signInAs(page, 'Ana Demonstração');
  const report = page.frameLocator('iframe');

  const opening = nextOpening(page);
  const reported = nextReport(page);
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  const { panelId, viewId } = viewOf(await opening);
  await expect(report.locator('section:not([hidden]) h1')).toHaveText('Visão geral — Vendas por Região');
  expect((await reported).status()).toBe(202);
  expect((await reported).url()).toContain(`/api/paineis/${panelId}/visualizacoes/${viewId}`);
  await expectTimed(page, panelId, viewId);

  // Previewing one RLS role is another opening, with its own view and its own times.
  const preview = nextOpening(page);
  const previewReported = nextReport(page);
  await page.getByRole('combobox', { name: 'Visualizar como' }).selectOption('Vendedor');
  const previewed = viewOf(await preview);
  expect(previewed.viewId).not.toBe(viewId);
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Vendedor');
  expect((await previewReported).status()).toBe(202);
  const view = await expectTimed(page, previewed.panelId, previewed.viewId);
  expect(view.papeis).toEqual(['Vendedor']);

  // Opened straight from its address, the panel is asked for as the app starts (app/first-screen.ts): that opening
  // is reported too.
  const reopening = nextOpening(page);
  const reopenedReported = nextReport(page);
  await page.reload();
  const reopened = viewOf(await reopening);
  expect(reopened.viewId).not.toBe(previewed.viewId);
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Vendedor');
  expect((await reopenedReported).status()).toBe(202);
  await expectTimed(page, reopened.panelId, reopened.viewId);
});
