import type { ElementHandle, Locator, Page } from '@playwright/test';
import { expect, signInAs, test } from './fixtures.ts';

// Keyboard: every action within reach of the keyboard, and a visible focus indicator wherever the focus goes. The
// screens are walked with Tab alone; each element the focus lands on must draw an outline or a shadow it does not
// draw unfocused. The main actions (opening a panel, opening a dialog or menu and closing it with Escape) are done
// with keys only. The report itself (the embedded Power BI page) is not the app's and is not walked into.

const RLS_PANEL = 'Vendas por Região';

/** The focus ring an element draws: its outline (when it has one) and its box shadow. */
interface Ring {
  outline: string;
  shadow: string;
}

/** Names the element for a failure message. */
const describeFocus = (element: Element) => {
  const name = element.getAttribute('aria-label') ?? (element.textContent ?? '').trim().slice(0, 40);
  return `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}"> '${name}'`;
};

function ringOf(element: Element): Ring {
  const style = getComputedStyle(element);
  const outline =
    style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
      ? `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`
      : 'none';
  return { outline, shadow: style.boxShadow };
}

/** Walks a page with the keyboard, judging the focus ring of every element the focus lands on. */
class Walk {
  readonly problems: string[] = [];
  readonly seen = new Set<string>();
  private last: { handle: ElementHandle<Element>; ring: Ring; description: string; screen: string } | null = null;

  constructor(private readonly page: Page) {}

  /** Judges the element the focus left: its ring when focused against its own look now. */
  private async judgeLast() {
    const last = this.last;
    this.last = null;
    if (!last) return;
    const now = await last.handle
      .evaluate((element) =>
        element === document.activeElement ? 'focused' : element.isConnected ? ringOf(element) : null,
      )
      .catch(() => null);
    await last.handle.dispose();
    // Still focused (a key pressed on it has not moved the focus yet): its unfocused look is not known.
    if (now === 'focused') return;
    // Gone with the focus (a menu that closed): judged while it was there, against no ring at all.
    const unfocused = now ?? { outline: 'none', shadow: 'none' };
    const shows =
      (last.ring.outline !== 'none' && last.ring.outline !== unfocused.outline) ||
      (last.ring.shadow !== 'none' && last.ring.shadow !== unfocused.shadow);
    if (!shows) {
      this.problems.push(
        `${last.screen}: ${last.description} não mostra o foco (focado ${JSON.stringify(last.ring)}, sem foco ${JSON.stringify(unfocused)})`,
      );
    }
  }

  /** Presses a key and notes where the focus went; false when it is on nothing, or inside the report. */
  async press(screen: string, key = 'Tab'): Promise<boolean> {
    await this.page.keyboard.press(key);
    await this.judgeLast();
    const handle = await this.page.evaluateHandle(() => document.activeElement);
    const element = handle.asElement();
    const where = element
      ? await element.evaluate((e) => ({
          body: e === document.body,
          frame: e.tagName === 'IFRAME',
          // A modal's own container (tabindex -1, never a Tab stop): react-bootstrap's focus trap puts the focus
          // there when Tab leaves the dialog's last control, sooner or later after the key depending on the machine.
          modal: e.classList.contains('modal') && e.getAttribute('tabindex') === '-1',
        }))
      : { body: true, frame: false, modal: false };
    if (!element || where.body || where.frame || where.modal) {
      await handle.dispose();
      return false;
    }
    // The ring once the focus has settled (its transitions are off: reduced motion).
    const { ring, description } = await element.evaluate((e) => ({
      ring: ringOf(e),
      description: describeFocus(e),
    }));
    this.seen.add(`${screen}: ${description}`);
    this.last = { handle: element, ring, description, screen };
    return true;
  }

  /** Tabs on (or back, with Shift+Tab) until `target` has the focus. */
  async tabTo(screen: string, target: Locator, { most = 120, key = 'Tab' } = {}) {
    for (let i = 0; i < most; i++) {
      await this.press(screen, key);
      if (await target.evaluate((element) => element === document.activeElement)) return;
    }
    throw new Error(`${screen}: ${String(target)} não foi alcançado com Tab em ${most} passos`);
  }

  /** Tabs through the screen, up to `most` stops or until the focus leaves the page. */
  async tabThrough(screen: string, most: number) {
    for (let i = 0; i < most; i++) if (!(await this.press(screen))) break;
    await this.judgeLast();
  }

  /** A new page: the focus starts from the document again. */
  async reset() {
    await this.judgeLast();
  }
}

const focused = (locator: Locator) => expect(locator).toBeFocused();

test.beforeEach(async ({ page }) => {
  // Bootstrap turns its transitions off for reduced motion: a ring is read as it ends up, not half-way.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // The helpers above run in the page: defined there once, for every document it loads.
  await page.addInitScript(`window.ringOf = ${ringOf.toString()}; window.describeFocus = ${describeFocus.toString()};`);
});

test("an administrator's screens by keyboard: every focus visible, a panel, the dialogs and menus opened and closed", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 860 });
  await signInAs(page, 'Ana Demonstração');
  const walk = new Walk(page);

  // The list: the access dialogs and the delete confirmation open with Enter, Escape closes them, the focus comes back.
  await page.reload();
  await expect(page.getByRole('link', { name: `Visualizar painel ${RLS_PANEL}` })).toBeVisible();
  for (const [button, name] of [
    [`Usuários do painel ${RLS_PANEL}`, 'Vincular Usuários ao Painel'],
    [`RLS do painel ${RLS_PANEL}`, `Configuração RLS - ${RLS_PANEL}`],
    [`Excluir painel ${RLS_PANEL}`, undefined],
  ] as const) {
    const opener = page.getByRole('button', { name: button });
    await walk.tabTo('lista de painéis', opener);
    await page.keyboard.press('Enter');
    await walk.reset();
    const dialog = page.getByRole('dialog', name ? { name } : {});
    await expect(dialog).toBeVisible();
    // A few stops, each with its ring, all inside the dialog (past its last one the focus leaves for the browser's
    // own controls, and comes back to the dialog).
    await expect(dialog.getByRole('button').first()).toBeVisible();
    for (let i = 0; i < 8 && (await walk.press(`diálogo de '${button}'`)); i++) {
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await walk.reset();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await focused(opener);
  }

  // A panel opened with Enter; the viewer's menus and 'Salvar visão' by keyboard.
  // Back from 'Excluir', along the row.
  const open = page.getByRole('link', { name: `Visualizar painel ${RLS_PANEL}` });
  await walk.tabTo('lista de painéis', open, { key: 'Shift+Tab', most: 6 });
  await page.keyboard.press('Enter');
  await walk.reset();
  await expect(page.getByRole('heading', { level: 1, name: RLS_PANEL })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Salvar visão' })).toBeEnabled();

  // In the header's order: 'Salvar visão', 'Visões', then 'Exportar'.
  const save = page.getByRole('button', { name: 'Salvar visão' });
  await walk.tabTo('visualizador', save);
  await page.keyboard.press('Enter');
  await walk.reset();
  const dialog = page.getByRole('dialog', { name: 'Salvar visão' });
  await focused(dialog.getByLabel('Nome da visão'));
  await walk.tabThrough("diálogo 'Salvar visão'", 4);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await focused(save);

  const views = page.getByRole('button', { name: 'Visões' });
  await walk.press('visualizador');
  await focused(views);
  await page.keyboard.press('Enter');
  await expect(views).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(views).toHaveAttribute('aria-expanded', 'false');
  await focused(views);

  const exportar = page.getByRole('button', { name: 'Exportar', exact: true });
  await walk.tabTo('visualizador', exportar);
  await page.keyboard.press('Enter');
  await focused(page.getByRole('menuitem', { name: 'PDF' }));
  await walk.press("menu 'Exportar'", 'ArrowDown');
  await focused(page.getByRole('menuitem', { name: 'PowerPoint' }));
  await page.keyboard.press('Escape');
  await walk.reset();
  await expect(page.getByRole('menu')).toBeHidden();
  await focused(exportar);

  // The whole viewer up to the report (header, then the report's pages); then back to the list with 'Voltar'.
  await page.reload();
  await expect(save).toBeEnabled();
  await walk.tabThrough('visualizador', 30);
  await page.reload();
  await expect(save).toBeEnabled();
  await walk.tabTo('visualizador', page.getByRole('link', { name: /Voltar/ }));
  await page.keyboard.press('Enter');
  await walk.reset();
  await expect(page).toHaveURL(/\/$/);

  // Every admin screen, walked with Tab.
  for (const [path, screen, ready] of [
    ['/cadastro', 'Novo Painel', page.getByRole('heading', { name: 'Novo Painel' })],
    ['/classificacoes', 'classificações', page.getByRole('cell', { name: /^Comercial/ })],
    ['/uso', 'uso', page.getByRole('region', { name: 'Pessoas sem login no período' }).getByRole('table')],
    ['/auditoria', 'auditoria', page.getByRole('button', { name: /Detalhes/ }).first()],
  ] as const) {
    await page.goto(path);
    await expect(ready).toBeVisible();
    await walk.tabThrough(screen, 45);
  }
  // The tables of '/uso' take the focus, to be scrolled by keyboard.
  expect([...walk.seen].filter((stop) => stop.startsWith('uso: <div'))).not.toEqual([]);

  await page.goto('/');
  await expect(open).toBeVisible();
  await walk.tabThrough('lista de painéis', 60);

  expect(walk.problems, walk.problems.join('\n')).toEqual([]);
});

test('a user on a phone: the folded navigation and the user menu by keyboard, a panel opened with Enter', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signInAs(page, 'Bruno Demonstração');
  await page.setViewportSize({ width: 375, height: 780 });
  const walk = new Walk(page);

  const toggler = page.getByRole('button', { name: 'Abrir navegação' });
  await walk.tabTo('lista de painéis (celular)', toggler);
  await page.keyboard.press('Enter');
  await expect(toggler).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('button', { name: 'Bruno Demonstração' });
  await walk.tabTo('navegação aberta', menu);
  await page.keyboard.press('ArrowDown');
  await walk.reset();
  await focused(page.getByRole('button', { name: 'Sair' }));
  await page.keyboard.press('Escape');
  await focused(menu);
  await expect(page.getByRole('button', { name: 'Sair' })).toBeHidden();

  const open = page.getByRole('link', { name: `Visualizar painel ${RLS_PANEL}` });
  await walk.tabTo('lista de painéis (celular)', open);
  await page.keyboard.press('Enter');
  await walk.reset();
  await expect(page.getByRole('heading', { level: 1, name: RLS_PANEL })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Salvar visão' })).toBeEnabled();
  await walk.tabThrough('visualizador (celular)', 20);

  expect(walk.problems, walk.problems.join('\n')).toEqual([]);
});
