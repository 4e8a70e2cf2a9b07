import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page, TestInfo } from '@playwright/test';
import type { Painel } from '@paineis/contract/panels';
import type { VisaoSalva } from '@paineis/contract/personal';
import { expect, signInAs, test } from './fixtures.ts';

// Accessibility: axe-core's WCAG 2.0 and 2.1 rules (A and AA) over every screen and dialog, as an administrator and as a
// user, on a desktop and on a phone. A violation of impact serious or critical fails; the others are listed in the
// test's annotations. The report itself (the embedded Power BI page, Microsoft's in production and the stand-in's
// here) is not the app's markup and is left out.
//
// The journeys share the demo server: what this file creates (a saved view, a favourite) carries a name of its own
// and is removed again before the test ends.

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING = new Set(['serious', 'critical']);
const VIEWPORTS = {
  desktop: { width: 1280, height: 860 },
  phone: { width: 375, height: 780 },
} as const;
type Viewport = keyof typeof VIEWPORTS;

const ADMIN = 'Ana Demonstração';
const USER = 'Bruno Demonstração';
const RLS_PANEL = 'Vendas por Região';
const FAVOURITE_PANEL = 'Ranking de Vendedores';
/** This file's saved views, by name. */
const VIEW_PREFIX = 'Acessibilidade ';

/** Waits until nothing is moving (a modal fading in, a menu collapsing): colours are measured as they end up. */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
}

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** A violation as the same rule over the same elements. */
const key = (violation: Violation) =>
  `${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`;

/** Runs axe on the page as it is and keeps what it finds under the screen's name. */
class Audit {
  private readonly failures: string[] = [];
  private readonly minor: string[] = [];
  readonly screens: string[] = [];

  constructor(
    private readonly page: Page,
    private readonly label: string,
  ) {}

  /**
   * `within`: the part that is new on a screen already checked (an open dialog or menu), so that axe does not go over
   * the whole page again (it takes seconds on the panel list).
   */
  async check(screen: string, within?: string | string[]) {
    await settled(this.page);
    let violations = await this.run(within);
    if (violations.length > 0) {
      // Seen again a moment later, or it was a frame caught between two looks (a dialog's backdrop leaving, a
      // message fading): the screen is judged as it stays, not as it passes.
      await this.page.waitForTimeout(1000);
      await settled(this.page);
      const again = new Set((await this.run(within)).map(key));
      violations = violations.filter((violation) => again.has(key(violation)));
    }
    this.screens.push(screen);
    for (const violation of violations) {
      const targets = violation.nodes.map((node) => node.target.join(' ')).join(' | ');
      const line = `${this.label} — ${screen}: ${violation.id} (${violation.impact ?? 'sem impacto'}) em ${targets}`;
      if (FAILING.has(violation.impact ?? '')) this.failures.push(line);
      else this.minor.push(line);
    }
  }

  private async run(within?: string | string[]) {
    let builder = new AxeBuilder({ page: this.page })
      // Passes and incomplete results are not read: axe then gathers one node of each instead of all of them. Set
      // first: options() replaces whatever withTags() has set.
      .options({ resultTypes: ['violations'] })
      .withTags(TAGS)
      .exclude('.report-frame iframe')
      // axe.run in the page itself. The default (a partial run per frame, finished in a new blank page) opens a page
      // for every check and goes into the report's frame, which is left out anyway.
      .setLegacyMode();
    for (const selector of [within ?? []].flat()) builder = builder.include(selector);
    return (await builder.analyze()).violations;
  }

  finish(testInfo: TestInfo) {
    for (const line of this.minor) testInfo.annotations.push({ type: 'axe (moderada ou menor)', description: line });
    testInfo.annotations.push({ type: 'telas verificadas', description: `${this.label}: ${this.screens.join('; ')}` });
    // On the message's first line: the test summary quotes only that one.
    expect(this.failures, `violações sérias ou críticas de acessibilidade: ${this.failures.join(' ; ')}`).toEqual([]);
  }
}

/** On a phone the navigation is folded away behind its toggler: opened to reach a link of it. */
async function navigate(page: Page, viewport: Viewport, link: string) {
  if (viewport === 'phone') await page.getByRole('button', { name: 'Abrir navegação' }).click();
  await page.getByRole('link', { name: link, exact: true }).click();
}

/** An open react-bootstrap modal (the dialog element and its content). */
const MODAL = '.modal.show';

const dialog = (page: Page, name?: string | RegExp) => page.getByRole('dialog', name ? { name } : {});

async function closeDialog(page: Page, box: Locator) {
  await page.keyboard.press('Escape');
  await expect(box).toBeHidden();
}

async function checkLogin(audit: Audit, page: Page) {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Entrar com Microsoft' })).toBeVisible();
  await audit.check('login');
}

async function checkNavigationMenus(audit: Audit, page: Page, viewport: Viewport, person: string) {
  if (viewport === 'phone') {
    await page.getByRole('button', { name: 'Abrir navegação' }).click();
    await expect(page.getByRole('link', { name: 'Início', exact: true })).toBeVisible();
    await audit.check('navegação aberta', 'nav');
  }
  await page.getByRole('button', { name: person }).click();
  await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();
  await audit.check('menu do usuário', 'nav');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Sair' })).toBeHidden();
  if (viewport === 'phone') {
    await page.getByRole('button', { name: 'Abrir navegação' }).click();
    await expect(page.getByRole('link', { name: 'Início', exact: true })).toBeHidden();
  }
}

/** Opens 'Visões' unless a dialog closing has left it open. */
async function openViews(page: Page) {
  const toggle = page.getByRole('button', { name: 'Visões' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/** The viewer of an RLS panel with its menus and dialogs; a saved view is created and deleted again. */
async function checkViewer(audit: Audit, page: Page, admin: boolean) {
  await page.goto('/');
  await page.getByRole('link', { name: `Visualizar painel ${RLS_PANEL}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: RLS_PANEL })).toBeVisible();
  await expect(page.frameLocator('.report-frame iframe').locator('section:not([hidden]) h1')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Salvar visão' })).toBeEnabled();
  await audit.check('visualizador');

  if (admin) {
    const role = page.getByRole('combobox', { name: 'Visualizar como' });
    await role.selectOption('Vendedor');
    await expect(page.frameLocator('.report-frame iframe').locator('#identidade-papeis')).toHaveText(
      'Papéis: Vendedor',
    );
    await audit.check('visualizador como papel', 'main');
    await role.selectOption('');
    await expect(page.getByRole('button', { name: 'Salvar visão' })).toBeEnabled();
  }

  await page.getByRole('button', { name: 'Copiar link' }).click();
  await expect(page.getByText('Link copiado')).toBeVisible();
  await audit.check("visualizador, 'Copiar link'", 'header');

  await page.getByRole('button', { name: 'Exportar', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'PDF' })).toBeVisible();
  await audit.check("menu 'Exportar'", 'header');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'PDF' })).toBeHidden();

  await page.getByRole('button', { name: 'Assinar', exact: true }).click();
  const subscribe = dialog(page, 'Assinar por e-mail');
  await expect(subscribe.getByLabel('Frequência')).toBeVisible();
  await audit.check("diálogo 'Assinar por e-mail'", MODAL);
  await closeDialog(page, subscribe);

  await page.getByRole('button', { name: 'Exportar dados' }).click();
  const dataExport = dialog(page, 'Exportar dados');
  await expect(dataExport.getByRole('group', { name: 'Visual' })).toBeVisible();
  await audit.check("diálogo 'Exportar dados'", MODAL);
  await closeDialog(page, dataExport);

  const name = `${VIEW_PREFIX}${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Salvar visão' }).click();
  const save = dialog(page, 'Salvar visão');
  await expect(save.getByLabel('Nome da visão')).toBeVisible();
  await audit.check("diálogo 'Salvar visão'", MODAL);
  await save.getByLabel('Nome da visão').fill(name);
  await save.getByRole('button', { name: 'Salvar' }).click();
  await expect(save).toBeHidden();

  await openViews(page);
  const saved = page.getByRole('group', { name });
  await expect(saved).toBeVisible();
  await audit.check("menu 'Visões'", 'header');
  await saved.getByRole('button', { name: 'Renomear' }).click();
  const rename = dialog(page, 'Renomear visão');
  await expect(rename.getByLabel('Nome da visão')).toHaveValue(name);
  await audit.check("diálogo 'Renomear visão'", MODAL);
  await closeDialog(page, rename);

  await openViews(page);
  await saved.getByRole('button', { name: 'Excluir' }).click();
  const confirm = dialog(page, 'Excluir visão');
  await expect(confirm).toBeVisible();
  await audit.check("confirmação 'Excluir visão'", MODAL);
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(confirm).toBeHidden();
  await openViews(page);
  await expect(page.getByText('Nenhuma visão salva.')).toBeVisible();
  await audit.check("menu 'Visões' vazio", 'header');
  await page.keyboard.press('Escape');

  await page.goto('/visualizar/999999');
  await expect(page.getByRole('heading', { name: 'Painel não encontrado' })).toBeVisible();
  await audit.check('visualizador, painel não encontrado');
}

/**
 * 'Visão do painel': one saved through the API by an administrator signed in apart (removed again); the 'Visões' menu
 * with its two groups, the person's read-only item with 'Copiar link', and the administrator's 'Salvar visão' with its
 * box ticked.
 */
async function checkPanelViews(audit: Audit, page: Page, admin: boolean, browser: Browser, baseURL: string) {
  const name = `Visão do painel ${Date.now().toString(36)}`;
  const adminContext = await browser.newContext({ baseURL });
  try {
    const adminPage = await adminContext.newPage();
    await signInAs(adminPage, ADMIN);
    const token = await adminPage.evaluate(() => localStorage.getItem('token'));
    const headers = { authorization: `Bearer ${token}` };
    const panels = (await (await adminPage.request.get('/api/paineis', { headers })).json()) as Painel[];
    const panel = panels.find((each) => each.nomePainel === RLS_PANEL)!;
    const created = await adminPage.request.post(`/api/paineis/${panel.id}/visoes`, {
      headers,
      data: { nome: name, estado: 'estado-da-acessibilidade', doPainel: true },
    });
    expect(created.status()).toBe(201);
    const view = (await created.json()) as VisaoSalva;
    try {
      await page.goto(`/visualizar/${panel.id}`);
      await expect(page.getByRole('button', { name: 'Salvar visão' })).toBeEnabled();
      await openViews(page);
      const item = page.getByRole('group', { name });
      await expect(item).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Visões do painel' })).toBeVisible();
      if (admin) {
        await expect(item.getByRole('button', { name: 'Excluir' })).toBeVisible();
        await audit.check("menu 'Visões' com visões do painel (admin)", 'header');
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Salvar visão' }).click();
        const save = dialog(page, 'Salvar visão');
        await save.getByLabel('Visão do painel (todos que podem abrir o painel a veem)').check();
        await audit.check("diálogo 'Salvar visão' com 'Visão do painel'", MODAL);
        await closeDialog(page, save);
      } else {
        await item.getByRole('button', { name: 'Copiar link' }).click();
        await expect(item.getByText('Link copiado')).toBeVisible();
        await audit.check("menu 'Visões' com visões do painel (usuário)", 'header');
        await page.keyboard.press('Escape');
      }
    } finally {
      await adminPage.request.delete(`/api/paineis/${panel.id}/visoes/${view.id}`, { headers });
    }
  } finally {
    await adminContext.close();
  }
}

/** '/' with a favourite (removed again) and the recents the viewer left. */
async function checkFavouritesAndRecents(audit: Audit, page: Page) {
  await page.goto('/');
  const row = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: `Visualizar painel ${FAVOURITE_PANEL}`, exact: true }) })
    .first();
  await row.getByRole('button', { name: 'Favoritar' }).click();
  const favourites = page.getByRole('region', { name: 'Favoritos' });
  await expect(favourites.getByRole('link', { name: `Visualizar painel ${FAVOURITE_PANEL}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recentes' })).toBeVisible();
  // The rest of '/' is checked as the list; its two new parts, marked for axe.
  await favourites.evaluate((element) => element.setAttribute('data-axe', ''));
  await page.getByRole('region', { name: 'Recentes' }).evaluate((element) => element.setAttribute('data-axe', ''));
  await audit.check("'/' com favoritos e recentes", '[data-axe]');
  await favourites.getByRole('button', { name: 'Remover dos favoritos' }).click();
  await expect(favourites).toHaveCount(0);
}

async function checkUnknownAddress(audit: Audit, page: Page) {
  await page.goto('/endereco-que-nao-existe');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { level: 1, name: 'Painéis Power BI' })).toBeVisible();
  // It leads to the panel list, checked as such: here its navigation and title.
  await audit.check('endereço desconhecido', ['nav', 'main h1']);
}

async function checkAdminScreens(audit: Audit, page: Page, viewport: Viewport) {
  await expect(page.getByRole('link', { name: `Visualizar painel ${RLS_PANEL}` })).toBeVisible();
  await audit.check('lista de painéis (admin)');
  await checkNavigationMenus(audit, page, viewport, ADMIN);

  await page.getByRole('button', { name: `Usuários do painel ${RLS_PANEL}` }).click();
  const links = dialog(page, 'Vincular Usuários ao Painel');
  await expect(links.getByRole('checkbox').first()).toBeVisible();
  await audit.check("modal 'Vincular Usuários ao Painel'", MODAL);
  await links.getByRole('tab', { name: /^Grupos/ }).click();
  await expect(links.getByRole('checkbox', { name: 'Selecionar Comercial', exact: true })).toBeVisible();
  await audit.check("modal 'Vincular Usuários ao Painel', aba 'Grupos'", MODAL);
  await closeDialog(page, links);

  await page.getByRole('button', { name: `Acesso ao painel ${RLS_PANEL}` }).click();
  const access = dialog(page, `Quem tem acesso - ${RLS_PANEL}`);
  await expect(access.getByRole('row').nth(1)).toBeVisible();
  await audit.check("modal 'Quem tem acesso'", MODAL);
  await closeDialog(page, access);

  await page.getByRole('button', { name: `RLS do painel ${RLS_PANEL}` }).click();
  const rls = dialog(page, `Configuração RLS - ${RLS_PANEL}`);
  await expect(rls.getByRole('button', { name: /^Remover papel/ }).first()).toBeVisible();
  await audit.check("modal 'Configuração RLS'", MODAL);
  await rls.getByPlaceholder('Nome do papel (ex.: Vendas)').fill('Vendas, Sul');
  await rls.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(rls.getByLabel('Limites do Power BI')).toBeVisible();
  await audit.check("modal 'Configuração RLS' com o aviso dos limites do Power BI", MODAL);
  await rls.getByRole('button', { name: 'Cancelar' }).click();
  await expect(rls).toBeHidden();

  await page.getByRole('button', { name: 'Excluir painel Funil de Oportunidades' }).click();
  const remove = dialog(page);
  await expect(remove).toContainText('Esta ação não pode ser desfeita.');
  await audit.check('confirmação de exclusão de painel', MODAL);
  await remove.getByRole('button', { name: 'Cancelar' }).click();
  await expect(remove).toBeHidden();

  await navigate(page, viewport, 'Novo Painel');
  await expect(page.getByRole('heading', { name: 'Novo Painel' })).toBeVisible();
  await audit.check("'Novo Painel'");
  await page.getByRole('button', { name: 'Criar Painel' }).click();
  await expect(page.getByLabel('Nome do painel')).toHaveAttribute('aria-invalid', 'true');
  await audit.check("'Novo Painel' com erros de validação");

  await page.goto('/editar/1');
  await expect(page.getByRole('heading', { name: 'Editar Painel' })).toBeVisible();
  await expect(page.getByLabel('Nome do painel')).not.toHaveValue('');
  await audit.check("'Editar Painel'");
  await page.getByLabel('Nome do painel').fill('');
  await page.getByRole('button', { name: 'Atualizar Painel' }).click();
  await expect(page.getByLabel('Nome do painel')).toHaveAttribute('aria-invalid', 'true');
  await audit.check("'Editar Painel' com erros de validação");
  await page.goto('/editar/999999');
  await expect(page.getByText('Painel não encontrado.')).toBeVisible();
  await audit.check("'Editar Painel', painel não encontrado");

  await page.goto('/');
  await navigate(page, viewport, 'Classificações');
  await expect(page.getByRole('cell', { name: /^Comercial/ })).toBeVisible();
  await audit.check('classificações');
  const name = page.getByRole('textbox', { name: 'Nome' });
  await name.fill('x');
  await name.fill('');
  await expect(page.getByText('Nome é obrigatório')).toBeVisible();
  await audit.check('classificações, formulário com erro');
  await page.getByRole('button', { name: 'Editar Comercial' }).click();
  await expect(page.getByRole('heading', { name: 'Editar Classificação' })).toBeVisible();
  await audit.check('classificações, edição');
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await page.getByRole('button', { name: 'Excluir Comercial' }).click();
  const removeClassification = dialog(page);
  await expect(removeClassification).toContainText('Comercial');
  await audit.check('confirmação de exclusão de classificação', MODAL);
  await removeClassification.getByRole('button', { name: 'Cancelar' }).click();
  await expect(removeClassification).toBeHidden();

  await navigate(page, viewport, 'Uso');
  const mostViewed = page.getByRole('region', { name: 'Painéis mais vistos' });
  const panelButton = mostViewed.getByRole('button', { name: RLS_PANEL });
  await expect(panelButton).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pessoas sem login no período' }).getByRole('table')).toBeVisible();
  await audit.check('uso');
  await panelButton.click();
  const detail = dialog(page, `Aberturas de ${RLS_PANEL}`);
  await expect(detail.getByRole('table').first()).toBeVisible();
  await audit.check('uso, detalhe do painel', MODAL);
  await closeDialog(page, detail);

  await navigate(page, viewport, 'Acessos');
  await expect(page.getByRole('heading', { level: 1, name: 'Acessos' })).toBeVisible();
  await audit.check('acessos');
  await page.getByRole('combobox', { name: 'Buscar pessoa' }).fill('bruno');
  await expect(page.getByRole('option', { name: new RegExp(USER) })).toBeVisible();
  await audit.check('acessos, busca de pessoa', 'main');
  await page.getByRole('option', { name: new RegExp(USER) }).click();
  const refused = page.getByRole('region', { name: /^Painéis que não pode abrir/ });
  const why = refused.getByLabel('Por que não pode abrir…');
  await why.selectOption({ index: 1 });
  await expect(refused.getByRole('alert')).toBeVisible();
  await audit.check('acessos, uma pessoa explicada');

  await page.goto('/importar');
  await expect(page.getByRole('heading', { level: 1, name: 'Importar do Power BI' })).toBeVisible();
  await page.getByLabel('Workspace').selectOption({ label: 'Relatórios Financeiros' });
  await page.getByRole('checkbox', { name: 'Despesas Corporativas', exact: true }).check();
  await expect(page.getByRole('button', { name: 'Importar (1)' })).toBeEnabled();
  await audit.check("'Importar do Power BI', um relatório escolhido");

  // The demo's panel whose report was deleted in Power BI, once the first health check has found it.
  await page.goto('/');
  await page.getByPlaceholder('Buscar painel...').fill('Painel de Testes da Equipe de BI');
  await expect(page.getByText('Indisponível')).toBeVisible({ timeout: 30_000 });
  await audit.check("lista de painéis (admin), um painel 'Indisponível'");
  await page.getByRole('link', { name: 'Visualizar painel Painel de Testes da Equipe de BI', exact: true }).click();
  await expect(page.getByText('Este painel está temporariamente indisponível.')).toBeVisible();
  await audit.check('visualizador, painel indisponível');

  await navigate(page, viewport, 'Auditoria');
  const details = page.getByRole('button', { name: /Detalhes/ }).first();
  await expect(details).toBeVisible();
  await audit.check('auditoria');
  await details.click();
  await expect(page.getByRole('columnheader', { name: 'Depois' })).toBeVisible();
  await audit.check('auditoria, detalhes de uma alteração');

  await checkViewer(audit, page, true);
  await checkSubscriptionsAdmin(audit, page, viewport);
  await checkMySubscriptions(audit, page, viewport);
  await checkFavouritesAndRecents(audit, page);
  await checkUnknownAddress(audit, page);
}

/** 'Minhas assinaturas', with the demo's subscription of each person (the admin's has recipients, the user's not). */
async function checkMySubscriptions(audit: Audit, page: Page, viewport: Viewport) {
  await navigate(page, viewport, 'Minhas assinaturas');
  await expect(page.getByRole('heading', { level: 1, name: 'Minhas assinaturas' })).toBeVisible();
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await audit.check('minhas assinaturas');
  await page
    .getByRole('button', { name: /^Editar a assinatura de / })
    .first()
    .click();
  const edit = dialog(page, 'Editar assinatura');
  await expect(edit.getByLabel('Hora')).toBeVisible();
  await audit.check("diálogo 'Editar assinatura'", MODAL);
  await closeDialog(page, edit);
}

async function checkSubscriptionsAdmin(audit: Audit, page: Page, viewport: Viewport) {
  await navigate(page, viewport, 'Assinaturas');
  await expect(page.getByRole('heading', { level: 1, name: 'Assinaturas' })).toBeVisible();
  await expect(page.getByText('Metas da Equipe Comercial').first()).toBeVisible();
  await audit.check('assinaturas (todas)');
  // The alerts' settings, open for a change (docs/requirements.md#alerts).
  await page.getByRole('button', { name: 'Alterar alertas' }).click();
  await expect(page.getByRole('button', { name: 'Salvar' })).toBeVisible();
  await audit.check('assinaturas (todas): alterar alertas');
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await page.getByRole('button', { name: 'Nova assinatura' }).click();
  const create = dialog(page, 'Nova assinatura para pessoas e grupos');
  await expect(create.getByLabel('Frequência')).toBeVisible();
  await audit.check("diálogo 'Nova assinatura para pessoas e grupos'", MODAL);
  // The kind sent after each refresh, with its quiet window asked (docs/requirements.md#subscriptions-after-refresh).
  await create.getByLabel('Frequência').selectOption('apos-atualizacao');
  await create.getByLabel('Enviar no máximo uma vez a cada').check();
  await audit.check("diálogo 'Nova assinatura para pessoas e grupos' após cada atualização", MODAL);
  await closeDialog(page, create);
  await page.getByRole('link', { name: 'Caixa de saída (demonstração)' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Caixa de saída (demonstração)' })).toBeVisible();
  await audit.check('caixa de saída (demonstração)');
  await checkCapacity(audit, page, viewport);
}

/** '/capacidade': the state, the month and its chart, the policy, the history; the SKU dialog (changes nothing). */
async function checkCapacity(audit: Audit, page: Page, viewport: Viewport) {
  await navigate(page, viewport, 'Capacidade');
  await expect(page.getByRole('heading', { level: 1, name: 'Capacidade do Power BI' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Alterar SKU' })).toBeEnabled();
  await audit.check('capacidade');
  await page.getByRole('button', { name: 'Alterar SKU' }).click();
  const sku = dialog(page, /SKU/);
  await expect(sku).toBeVisible();
  await audit.check("capacidade, diálogo 'Alterar SKU'", MODAL);
  await closeDialog(page, sku);
}

async function checkUserScreens(audit: Audit, page: Page, viewport: Viewport) {
  await expect(page.getByRole('link', { name: `Visualizar painel ${RLS_PANEL}` })).toBeVisible();
  await audit.check('lista de painéis (usuário)');
  await checkNavigationMenus(audit, page, viewport, USER);
  await checkViewer(audit, page, false);
  await checkMySubscriptions(audit, page, viewport);
  await checkFavouritesAndRecents(audit, page);
  await checkUnknownAddress(audit, page);
}

// Should a check stop half-way, what it created is removed here: its saved views and its favourite.
test.afterEach(async ({ page }) => {
  const token = await page.evaluate(() => localStorage.getItem('token')).catch(() => null);
  if (!token) return;
  const headers = { authorization: `Bearer ${token}` };
  const panels = (await (await page.request.get('/api/paineis', { headers })).json()) as Painel[];
  for (const panel of panels.filter((each) => [RLS_PANEL, FAVOURITE_PANEL].includes(each.nomePainel))) {
    if (panel.nomePainel === FAVOURITE_PANEL) await page.request.delete(`/api/favoritos/${panel.id}`, { headers });
    const views = (await (
      await page.request.get(`/api/paineis/${panel.id}/visoes`, { headers })
    ).json()) as VisaoSalva[];
    for (const view of views.filter((each) => each.nome.startsWith(VIEW_PREFIX))) {
      await page.request.delete(`/api/paineis/${panel.id}/visoes/${view.id}`, { headers });
    }
  }
});

for (const viewport of Object.keys(VIEWPORTS) as Viewport[]) {
  for (const [person, role] of [
    [ADMIN, 'admin'],
    [USER, 'usuário'],
  ] as const) {
    test(`axe: every screen and dialog as ${role} on ${viewport} (${VIEWPORTS[viewport].width} px)`, async ({
      page,
      context,
      browser,
      consoleErrors,
    }, testInfo) => {
      // The addresses of no panel answer 404, and the panel whose report was deleted 503, which the browser logs.
      consoleErrors.allow(/status of 404/);
      consoleErrors.allow(/status of 503/);
      test.setTimeout(240_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.setViewportSize(VIEWPORTS[viewport]);
      const audit = new Audit(page, `${role}, ${viewport}`);
      await checkLogin(audit, page);
      // Signed in on a desktop's width, where signInAs finds the user menu unfolded.
      await page.setViewportSize(VIEWPORTS.desktop);
      await signInAs(page, person);
      await page.setViewportSize(VIEWPORTS[viewport]);
      if (role === 'admin') await checkAdminScreens(audit, page, viewport);
      else await checkUserScreens(audit, page, viewport);
      await checkPanelViews(audit, page, role === 'admin', browser, testInfo.project.use.baseURL!);
      audit.finish(testInfo);
    });
  }
}
