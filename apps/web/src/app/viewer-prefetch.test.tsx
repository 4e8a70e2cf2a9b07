import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { grupoPaineis, painel, painelComEmbed } from '../test/data-generators.ts';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';
import { signIn, USER } from '../test/session.ts';
import { viewerReady } from './routes.tsx';

// docs/requirements.md#report-loading: once the list is idle it fetches the viewer's code, so that a click on a
// panel renders the viewer without waiting for its chunks. A file of its own: the viewer's code, once fetched, stays
// for the rest of a test file.

beforeEach(() => {
  signIn(USER);
  server.use(
    http.get('/api/paineis/agrupados', () =>
      HttpResponse.json([grupoPaineis({ paineis: [painel({ id: 7, nomePainel: 'Vendas por Região' })] })]),
    ),
    http.get('/api/paineis/7', () => HttpResponse.json(painelComEmbed({ id: 7 }))),
  );
});

afterEach(() => {
  document.querySelectorAll('body > iframe').forEach((iframe) => iframe.remove());
});

it("the list fetches the viewer's code when idle, before Power BI's preload; the click then renders the viewer", async () => {
  const powerbi = await import('powerbi-client');
  const preload = vi.spyOn(powerbi.service.Service.prototype, 'preload');
  const bootstrap = vi.spyOn(powerbi.service.Service.prototype, 'bootstrap');
  const { user, location } = renderApp('/');
  const link = await screen.findByRole('link', { name: 'Visualizar painel Vendas por Região' }, { timeout: 5000 });
  expect(viewerReady()).toBe(false);
  // Power BI's preload comes after the viewer's code has arrived.
  await waitFor(() => expect(preload).toHaveBeenCalledTimes(1), { timeout: 5000 });
  expect(viewerReady()).toBe(true);

  await user.click(link);
  expect(location().pathname).toBe('/visualizar/7');
  await waitFor(() => expect(bootstrap).toHaveBeenCalledTimes(1), { timeout: 5000 });
});
