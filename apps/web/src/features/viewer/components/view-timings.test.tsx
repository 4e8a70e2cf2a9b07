import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VISUALIZACAO_HEADER } from '@paineis/contract/usage';
import { requestFirstScreenData } from '../../../app/first-screen.ts';
import { painelComEmbed, type FakeEmbedder } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';
import { ERROR_REPORT_DELAY_MS } from '../embedding/view-timings.ts';

const embeds = vi.hoisted(() => [] as unknown[]);
// Each embed made is kept, to fire its events.
vi.mock('../embedding/create-report-embedder.ts', async () => {
  const { FakeEmbedder } = await import('../../../test/data-generators.ts');
  return {
    createReportEmbedder: () => {
      const embedder = new FakeEmbedder();
      embeds.push(embedder);
      return embedder;
    },
  };
});
afterEach(() => void embeds.splice(0));

/** The report embedded last (the first test also waits for the viewer's code to load: a few seconds on a busy machine). */
async function embedded(count = 1): Promise<FakeEmbedder> {
  await waitFor(() => expect(embeds).toHaveLength(count), { timeout: 5_000 });
  return embeds[count - 1] as FakeEmbedder;
}

const painel = painelComEmbed({ usaRls: true });

const VIEW_1 = '0b7e3f4c-5a1d-4c2e-9f3a-8d6b2c1e0a91';
const VIEW_2 = '7c2d9e1f-3b4a-4d5c-8e6f-1a2b3c4d5e6f';

/** GET /api/paineis/7 answered with the panel and, in turn, each view id given (none: no header). */
function panelServer(...viewIds: (string | null)[]) {
  let calls = 0;
  server.use(
    http.get('/api/paineis/7', () => {
      const viewId = viewIds[Math.min(calls, viewIds.length - 1)];
      calls += 1;
      return HttpResponse.json(painel, { headers: viewId ? { [VISUALIZACAO_HEADER]: viewId } : {} });
    }),
    http.get('/api/paineis/7/rls/roles', () => HttpResponse.json(['Diretoria', 'Vendedor'])),
  );
}

interface Reported {
  url: string;
  authorization: string | null;
  body: { carregadoMs?: number; renderizadoMs?: number; erros?: string[] };
}

/** Every load-time report that reaches the server, answered with `status` (202, as the API does). */
function timingsServer(status = 202) {
  const reported: Reported[] = [];
  server.use(
    http.post('/api/paineis/:id/visualizacoes/:viewId', async ({ request }) => {
      reported.push({
        url: new URL(request.url).pathname,
        authorization: request.headers.get('authorization'),
        body: (await request.json()) as Reported['body'],
      });
      return status === 202 ? new HttpResponse(null, { status }) : HttpResponse.json({ message: 'Não.' }, { status });
    }),
  );
  return reported;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the viewer reports how fast the report loaded (requirements: usage)', () => {
  it('posts both times to the view the answer named once the report has rendered, and only once', async () => {
    const token = signIn(USER);
    panelServer(VIEW_1);
    const reported = timingsServer();
    let renewed = 0;
    server.use(
      http.get('/api/paineis/7/token', () => {
        renewed += 1;
        return HttpResponse.json({
          embedToken: 'novo',
          embedUrl: painel.embedUrl,
          tokenExpiration: painel.tokenExpiration,
        });
      }),
    );
    const { unmount } = renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    await pause(20);
    expect(reported).toEqual([]);
    report.emit('rendered');
    await waitFor(() => expect(reported).toHaveLength(1));
    const [{ url, authorization, body }] = reported as [Reported];
    expect(url).toBe(`/api/paineis/7/visualizacoes/${VIEW_1}`);
    expect(authorization).toBe(`Bearer ${token}`);
    expect(Object.keys(body).sort()).toEqual(['carregadoMs', 'renderizadoMs']);
    expect(Number.isInteger(body.carregadoMs)).toBe(true);
    expect(Number.isInteger(body.renderizadoMs)).toBe(true);
    expect(body.carregadoMs).toBeGreaterThanOrEqual(0);
    expect(body.renderizadoMs).toBeGreaterThanOrEqual(body.carregadoMs!);
    expect(body.renderizadoMs).toBeLessThan(60_000);

    // More renders (a page changed, a filter), a renewed token (not a new opening) and leaving: nothing more.
    report.emit('rendered');
    report.emit('loaded');
    report.emit('error', { message: 'TokenExpired' });
    await waitFor(() => expect(renewed).toBe(1));
    unmount();
    await pause(50);
    expect(reported).toHaveLength(1);
    expect(embeds).toHaveLength(1);
  });

  it("sends the report's errors with the times", async () => {
    signIn(USER);
    panelServer(VIEW_1);
    const reported = timingsServer();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    report.emit('error', { message: 'VisualRenderFailed', detailedMessage: 'Um visual falhou' });
    report.emit('error', { errorCode: 'X1' });
    report.emit('error', 'a'.repeat(600));
    for (let i = 0; i < 10; i += 1) report.emit('error', { message: `Erro ${i}` });
    report.emit('rendered');
    await waitFor(() => expect(reported).toHaveLength(1));
    const { body } = reported[0]!;
    expect(body.carregadoMs).toBeLessThanOrEqual(body.renderizadoMs!);
    // At most 10, each cut to 500 characters; the message when the detail has one, else the detail as text.
    expect(body.erros).toEqual([
      'VisualRenderFailed',
      '{"errorCode":"X1"}',
      'a'.repeat(500),
      ...Array.from({ length: 7 }, (_, i) => `Erro ${i}`),
    ]);
    expect(warn).toHaveBeenCalled();
  });

  it('reports what is known a short while after an error when the report never renders', async () => {
    signIn(USER);
    panelServer(VIEW_1);
    const reported = timingsServer();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    report.emit('error', { message: 'LoadReportFailed' });
    await pause(ERROR_REPORT_DELAY_MS / 2);
    report.emit('error', { message: 'Outro' });
    expect(reported).toEqual([]);
    await waitFor(() => expect(reported).toHaveLength(1), { timeout: ERROR_REPORT_DELAY_MS + 1_000 });
    expect(reported[0]!.url).toBe(`/api/paineis/7/visualizacoes/${VIEW_1}`);
    expect(reported[0]!.body).toEqual({
      carregadoMs: expect.any(Number) as number,
      erros: ['LoadReportFailed', 'Outro'],
    });
    // A render after the report has gone is not sent again.
    report.emit('rendered');
    await pause(50);
    expect(reported).toHaveLength(1);
  });

  it('reports what is known when the person leaves before the report rendered, and nothing if nothing is', async () => {
    signIn(USER);
    panelServer(VIEW_1, VIEW_2);
    const reported = timingsServer();
    server.use(http.get('/api/paineis/agrupados', () => HttpResponse.json([])));
    const { router, user } = renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    await user.click(await screen.findByRole('link', { name: /Voltar/ }));
    await waitFor(() => expect(reported).toHaveLength(1));
    expect(reported[0]!.url).toBe(`/api/paineis/7/visualizacoes/${VIEW_1}`);
    expect(Object.keys(reported[0]!.body)).toEqual(['carregadoMs']);

    // Opened again and left before any event: nothing to tell.
    await act(() => router.navigate('/visualizar/7'));
    await embedded(2);
    await act(() => router.navigate('/'));
    await pause(50);
    expect(reported).toHaveLength(1);
  });

  it('reports what is known when the page is left before the report rendered', async () => {
    signIn(USER);
    panelServer(VIEW_1);
    const reported = timingsServer();
    renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(reported).toHaveLength(1));
    expect(Object.keys(reported[0]!.body)).toEqual(['carregadoMs']);
  });

  it('sends nothing when the answer named no view', async () => {
    signIn(USER);
    panelServer(null);
    const reported = timingsServer();
    renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    report.emit('rendered');
    await screen.findByRole('button', { name: 'Visão geral' });
    await pause(50);
    expect(reported).toEqual([]);
  });

  it("reports each of an admin's openings, a preview as an RLS role too, to its own view", async () => {
    signIn(ADMIN);
    panelServer(VIEW_1, VIEW_2);
    const reported = timingsServer();
    const { user } = renderApp('/visualizar/7');
    const first = await embedded();
    first.emit('loaded');
    first.emit('rendered');
    await waitFor(() => expect(reported).toHaveLength(1));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Visualizar como' }), 'Vendedor');
    const second = await embedded(2);
    second.emit('loaded');
    second.emit('rendered');
    await waitFor(() => expect(reported).toHaveLength(2));
    expect(reported.map((r) => r.url)).toEqual([
      `/api/paineis/7/visualizacoes/${VIEW_1}`,
      `/api/paineis/7/visualizacoes/${VIEW_2}`,
    ]);
  });

  it('reports to the view of a panel asked for as the app started (the early answer)', async () => {
    signIn(USER);
    panelServer(VIEW_2);
    const reported = timingsServer();
    await requestFirstScreenData({ pathname: '/visualizar/7', search: '' });
    renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    report.emit('rendered');
    await waitFor(() => expect(reported).toHaveLength(1));
    expect(reported[0]!.url).toBe(`/api/paineis/7/visualizacoes/${VIEW_2}`);
    // Timed from the early request: the times include the wait for the viewer's code.
    expect(reported[0]!.body.carregadoMs).toBeGreaterThanOrEqual(0);
  });

  it.each([500, 401])('shows nothing and keeps the session when the report is answered %i', async (status) => {
    signIn(USER);
    panelServer(VIEW_1);
    const reported = timingsServer(status);
    const { location } = renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    report.emit('rendered');
    await waitFor(() => expect(reported).toHaveLength(1));
    await pause(50);
    expect(location().pathname).toBe('/visualizar/7');
    expect(localStorage.getItem('token')).not.toBeNull();
    expect(screen.getByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    // The RLS banner is the only alert: no error is shown.
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Este painel utiliza Row Level Security (RLS)',
    ]);
  });

  it('shows nothing when the report cannot reach the server', async () => {
    signIn(USER);
    panelServer(VIEW_1);
    let tried = 0;
    server.use(
      http.post('/api/paineis/:id/visualizacoes/:viewId', () => {
        tried += 1;
        return HttpResponse.error();
      }),
    );
    renderApp('/visualizar/7');
    const report = await embedded();
    report.emit('loaded');
    report.emit('rendered');
    await waitFor(() => expect(tried).toBe(1));
    await pause(50);
    expect(screen.getByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
  });
});
