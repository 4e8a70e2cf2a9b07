import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every journey fails on a browser console error or an uncaught page error, except those a test says it
 * expects (`consoleErrors.allow(/.../)`), such as the browser's own line for an answer the test provokes.
 */
export const test = base.extend<{ consoleErrors: { allow: (pattern: RegExp) => void } }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use({ allow: (pattern) => void allowed.push(pattern) });
      const unexpected = errors.filter((e) => !allowed.some((pattern) => pattern.test(e)));
      // On the message's first line: the test summary quotes only that one.
      expect(unexpected, `erros no console do navegador: ${unexpected.join(' ; ')}`).toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** Signs in through the Microsoft button and the stand-in's page, as a person would. */
export async function signInAs(page: Page, person: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Entrar com Microsoft' }).click();
  await page.getByRole('button', { name: new RegExp(person) }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('button', { name: person })).toBeVisible();
}
