import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { grupoPaineis, painel, painelComEmbed } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';
import { EMBED_MARK, PRE_LOAD_KEY, PRE_LOAD_OFF } from './report-loading.ts';

// docs/requirements.md#report-loading: preload on the list and bootstrap on opening, both as today unless the switch
// 'paineis.powerBi.preCarga' = 'desligada' turns them off; the marks of an opening.

const library = () => import('powerbi-client');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(() => {
  performance.clearMarks();
  signIn(USER);
  server.use(
    http.get('/api/paineis/agrupados', () =>
      HttpResponse.json([grupoPaineis({ paineis: [painel({ id: 7, nomePainel: 'Vendas por Região' })] })]),
    ),
  );
});

afterEach(() => {
  document.querySelectorAll('body > iframe').forEach((iframe) => iframe.remove());
});

/** The panel's answer, held until `release` is called: meanwhile the viewer waits for it, as on a slow server. */
function holdPanel() {
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  server.use(
    http.get('/api/paineis/7', async () => {
      await arrived;
      return HttpResponse.json(painelComEmbed({ id: 7 }));
    }),
  );
  return () => release();
}

describe('the switch paineis.powerBi.preCarga', () => {
  // Preload happens once per page session (use-power-bi-preload.ts): the test without it comes first.
  it("'desligada': the list preloads nothing, and opening a panel bootstraps nothing; embed() still comes", async () => {
    localStorage.setItem(PRE_LOAD_KEY, PRE_LOAD_OFF);
    const powerbi = await library();
    const preload = vi.spyOn(powerbi.service.Service.prototype, 'preload');
    const bootstrap = vi.spyOn(powerbi.service.Service.prototype, 'bootstrap');
    const embed = vi.spyOn(powerbi.service.Service.prototype, 'embed');
    const release = holdPanel();

    const { user, location } = renderApp('/');
    await user.click(
      await screen.findByRole('link', { name: 'Visualizar painel Vendas por Região' }, { timeout: 5000 }),
    );
    expect(location().pathname).toBe('/visualizar/7');
    // The list had its idle moment, and the viewer its wait for the panel: long enough for either to have begun.
    await sleep(300);
    expect(preload).not.toHaveBeenCalled();
    expect(bootstrap).not.toHaveBeenCalled();
    expect(document.querySelector('iframe[src^="https://app.powerbi.com/reportEmbed"]')).toBeNull();

    release();
    await waitFor(() => expect(embed).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(bootstrap).not.toHaveBeenCalled();
    expect(performance.getEntriesByName(EMBED_MARK)).toHaveLength(1);
  });

  it('not set: the list preloads Power BI, opening bootstraps it before the panel arrives, then embeds into it', async () => {
    const powerbi = await library();
    const preload = vi.spyOn(powerbi.service.Service.prototype, 'preload');
    const bootstrap = vi.spyOn(powerbi.service.Service.prototype, 'bootstrap');
    const embed = vi.spyOn(powerbi.service.Service.prototype, 'embed');
    const release = holdPanel();

    const { user } = renderApp('/');
    const link = await screen.findByRole('link', { name: 'Visualizar painel Vendas por Região' }, { timeout: 5000 });
    await waitFor(() => expect(preload).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(document.querySelector('body > iframe[src="https://app.powerbi.com/reportEmbed"]')).not.toBeNull();

    await user.click(link);
    // Before the panel (and its token) has arrived.
    await waitFor(() => expect(bootstrap).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(embed).not.toHaveBeenCalled();
    expect(performance.getEntriesByName(EMBED_MARK)).toHaveLength(0);

    release();
    await waitFor(() => expect(embed).toHaveBeenCalledTimes(1), { timeout: 5000 });
    const marks = performance.getEntriesByName(EMBED_MARK);
    expect(marks).toHaveLength(1);
  });
});

describe('the report area while the panel is on its way', () => {
  it('is laid out for the bootstrap but not shown until the panel (and the header it fills) has arrived', async () => {
    const powerbi = await library();
    const bootstrap = vi.spyOn(powerbi.service.Service.prototype, 'bootstrap');
    const release = holdPanel();

    renderApp('/visualizar/7');
    await waitFor(() => expect(bootstrap).toHaveBeenCalledTimes(1), { timeout: 5000 });
    // Bootstrapped into the page, yet out of sight: a header that then grows would push a visible area down.
    const area = document.querySelector('.report-layout');
    expect(area).not.toBeNull();
    expect(area!.querySelector('iframe')).not.toBeNull();
    expect(area).not.toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Vendas por Região' })).toBeNull();

    release();
    await screen.findByRole('heading', { level: 1 }, { timeout: 5000 });
    await waitFor(() => expect(document.querySelector('.report-layout')).toBeVisible());
  });
});
