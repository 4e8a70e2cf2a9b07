import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * 'Imprimir' reaches the report page (the stand-in's embed page counts prints on its <html>), and 'Tela cheia' shows
 * the report's iframe in full screen, then leaves it. Shared by the demo's embedder and the real powerbi-client.
 */
export async function expectPrintAndFullScreen(page: Page): Promise<void> {
  const root = page.frameLocator('.report-frame iframe').locator(':root');
  await expect(root).not.toHaveAttribute('data-impressoes');
  await page.getByRole('button', { name: 'Imprimir' }).click();
  await expect(root).toHaveAttribute('data-impressoes', '1');

  expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
  await page.getByRole('button', { name: 'Tela cheia' }).click();
  await expect
    .poll(() => page.evaluate(() => document.fullscreenElement === document.querySelector('.report-frame iframe')))
    .toBe(true);
  await page.evaluate(() => document.exitFullscreen());
  await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
}
