import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, MemoryRouter, Route, RouterProvider, Routes, useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Exportacao, VisaoSalva } from '@paineis/contract/personal';
import type { PainelComEmbed } from '@paineis/contract/panels';
import { createQueryClient } from '../../../lib/query-client.ts';
import { FakeEmbedder, painelComEmbed } from '../../../test/data-generators.ts';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';
import type { ReportPage } from '../embedding/report-embedder.ts';
import { EXPORT_FAILED } from '../hooks/use-export.ts';
import ViewerPage, { SHARED_VIEW_NOT_FOUND } from './viewer-page.tsx';

const painel = painelComEmbed();

const PAGES: ReportPage[] = [
  { name: 'ReportSection1', displayName: 'Visão geral', visibility: 0 },
  { name: 'ReportSection2', displayName: 'Detalhes', visibility: 0 },
];

const VIEW_ID = '5b0d7c1e-3f0a-4b8e-9d52-0c6a1e2f3a4b';
const OTHER_VIEW_ID = '7c1e5b0d-0a3f-4e8b-8d52-1e2f3a4b0c6a';
const visao = (id: string, nome: string, overrides: Partial<VisaoSalva> = {}): VisaoSalva => ({
  id,
  painelId: 7,
  nome,
  estado: `estado-de-${nome}`,
  pagina: 'ReportSection2',
  propria: true,
  doPainel: false,
  salvaPor: null,
  criadaEm: '2026-11-20T10:00:00.000Z',
  atualizadaEm: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

/** Waits the export asks for, each released by the test. */
function controlledWait() {
  const asked: { seconds: number; release: () => void }[] = [];
  const wait = vi.fn(
    (seconds: number) => new Promise<void>((resolve) => asked.push({ seconds, release: () => resolve() })),
  );
  return { asked, wait };
}

function renderViewer(path: string, overrides: Partial<PainelComEmbed> = {}) {
  signIn(USER);
  server.use(
    http.get('/api/paineis/7', () => HttpResponse.json({ ...painel, ...overrides })),
    http.get('/api/paineis/7/visoes', () => HttpResponse.json([])),
  );
  const fake = new FakeEmbedder({ pages: PAGES, state: 'estado-capturado' });
  const { asked, wait } = controlledWait();
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>Lista de painéis</p> },
      { path: '/visualizar/:id', element: <ViewerPage createEmbedder={() => fake} wait={wait} /> },
    ],
    { initialEntries: [path] },
  );
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const params = () => new URLSearchParams(router.state.location.search);
  return { fake, router, user, asked, params };
}

/** Opens the viewer and lets the report load onto its first page. */
async function openLoaded(path = '/visualizar/7', overrides: Partial<PainelComEmbed> = {}) {
  const view = renderViewer(path, overrides);
  await screen.findByRole('heading', { name: 'Vendas por Região' });
  await waitFor(() => expect(view.fake.loads).toHaveLength(1));
  view.fake.emit('loaded');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Imprimir' })).toBeEnabled());
  return view;
}

describe('the page in the address (?pagina=)', () => {
  it('opens on the page of the address, and keeps the page shown there, replacing the entry', async () => {
    const { fake, router, params } = renderViewer('/visualizar/7?pagina=ReportSection2');
    await screen.findByRole('heading', { name: 'Vendas por Região' });
    await waitFor(() => expect(fake.loads).toHaveLength(1));
    expect(fake.loads[0]).toMatchObject({ pageName: 'ReportSection2' });
    fake.emit('loaded');
    await waitFor(() => expect(fake.setPage).toHaveBeenCalledWith('ReportSection2'));
    expect(fake.setPage).not.toHaveBeenCalledWith('ReportSection1');

    fake.emit('pageChanged', { newPage: { name: 'ReportSection1' } });
    await waitFor(() => expect(params().get('pagina')).toBe('ReportSection1'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('leaves alone the address of a person who has just left, when the report changes page as they go', async () => {
    const { fake, router, params } = await openLoaded();
    await waitFor(() => expect(params().get('pagina')).toBe('ReportSection1'));
    // 'Voltar' navigates; the report's late page change arrives before React has rendered the list.
    void router.navigate('/');
    fake.emit('pageChanged', { newPage: { name: 'ReportSection2' } });
    expect(await screen.findByText('Lista de painéis')).toBeInTheDocument();
    await act(async () => {});
    expect(router.state.location).toMatchObject({ pathname: '/', search: '' });
  });

  it('does the same under a router like the app’s (BrowserRouter: no data router), left through Voltar', async () => {
    signIn(USER);
    server.use(
      http.get('/api/paineis/7', () => HttpResponse.json(painel)),
      http.get('/api/paineis/7/visoes', () => HttpResponse.json([])),
    );
    const fake = new FakeEmbedder({ pages: PAGES, state: 'estado-capturado' });
    let address = '';
    function Address() {
      const location = useLocation();
      address = location.pathname + location.search;
      return null;
    }
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/visualizar/7?pagina=ReportSection1']}>
          <Address />
          <Routes>
            <Route path="/" element={<p>Lista de painéis</p>} />
            <Route path="/visualizar/:id" element={<ViewerPage createEmbedder={() => fake} />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const voltar = await screen.findByRole('link', { name: /Voltar/ });
    await waitFor(() => expect(fake.loads).toHaveLength(1));
    fake.emit('loaded');
    // The click and the report's page change in one go, before React renders the list.
    act(() => {
      voltar.click();
      fake.emit('pageChanged', { newPage: { name: 'ReportSection2' } });
    });
    expect(await screen.findByText('Lista de painéis')).toBeInTheDocument();
    expect(address).toBe('/');
  });

  it('writes the first page in the address when the report opens without one', async () => {
    const { params } = await openLoaded();
    await waitFor(() => expect(params().get('pagina')).toBe('ReportSection1'));
  });
});

describe('viewer header actions', () => {
  it("'Copiar link' copies the whole address, page and view included, and says 'Link copiado'", async () => {
    server.use(http.get(`/api/paineis/7/visoes/${VIEW_ID}`, () => HttpResponse.json(visao(VIEW_ID, 'Norte'))));
    const { user, params } = await openLoaded(`/visualizar/7?visao=${VIEW_ID}`);
    await waitFor(() => expect(params().get('pagina')).toBe('ReportSection1'));
    // The router's state changes at once; React renders the new address in a transition: let it commit first.
    await act(async () => {});
    await user.click(screen.getByRole('button', { name: 'Copiar link' }));
    expect(await screen.findByText('Link copiado')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(
      `${window.location.origin}/visualizar/7?visao=${VIEW_ID}&pagina=ReportSection1`,
    );
  });

  it("'Tela cheia' and 'Imprimir' wait for the report, then go through it", async () => {
    const { fake, user } = renderViewer('/visualizar/7');
    await screen.findByRole('heading', { name: 'Vendas por Região' });
    expect(screen.getByRole('button', { name: 'Tela cheia' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeDisabled();
    await waitFor(() => expect(fake.loads).toHaveLength(1));
    fake.emit('loaded');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Imprimir' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Tela cheia' }));
    expect(fake.fullscreen).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Imprimir' }));
    expect(fake.print).toHaveBeenCalledTimes(1);
  });
});

describe('saved views', () => {
  it("'Salvar visão' asks a name and saves the report's captured state with the page shown", async () => {
    const { fake, user } = await openLoaded();
    const posted: unknown[] = [];
    let listed: VisaoSalva[] = [];
    server.use(
      http.post('/api/paineis/7/visoes', async ({ request }) => {
        const body = (await request.json()) as { nome: string };
        posted.push(body);
        if (body.nome === 'Repetida')
          return HttpResponse.json({ message: 'Você já tem uma visão com este nome neste painel.' }, { status: 409 });
        listed = [visao(VIEW_ID, body.nome)];
        return HttpResponse.json(listed[0], { status: 201 });
      }),
      http.get('/api/paineis/7/visoes', () => HttpResponse.json(listed)),
    );
    await user.click(screen.getByRole('button', { name: 'Salvar visão' }));
    const dialog = await screen.findByRole('dialog', { name: 'Salvar visão' });
    await user.type(within(dialog).getByLabelText('Nome da visão'), 'Repetida');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    // The server's Portuguese reason, and the dialog stays for another name.
    expect(await within(dialog).findByText('Você já tem uma visão com este nome neste painel.')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Nome da visão'));
    await user.type(within(dialog).getByLabelText('Nome da visão'), '  Região Norte ');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.captureState).toHaveBeenCalled();
    expect(posted.at(-1)).toEqual({ nome: 'Região Norte', estado: 'estado-capturado', pagina: 'ReportSection1' });

    await user.click(screen.getByRole('button', { name: 'Visões' }));
    expect(await screen.findByRole('group', { name: 'Região Norte' })).toBeInTheDocument();
  });

  it("'Visões' lists the person's views and applies one, putting it in the address", async () => {
    const { fake, user, params } = await openLoaded();
    server.use(
      http.get('/api/paineis/7/visoes', () =>
        HttpResponse.json([visao(VIEW_ID, 'Norte'), visao(OTHER_VIEW_ID, 'Sul')]),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Visões' }));
    const sul = await screen.findByRole('group', { name: 'Sul' });
    await user.click(within(sul).getByRole('button', { name: 'Sul' }));
    await waitFor(() => expect(fake.applyState).toHaveBeenCalledWith('estado-de-Sul'));
    expect(params().get('visao')).toBe(OTHER_VIEW_ID);
    expect(fake.applyState).toHaveBeenCalledTimes(1);
  });

  it("'Renomear' renames a view and 'Excluir' deletes it after confirming, dropping it from the address", async () => {
    let views = [visao(VIEW_ID, 'Norte')];
    const patched: unknown[] = [];
    const deleted: string[] = [];
    server.use(
      http.get(`/api/paineis/7/visoes/${VIEW_ID}`, () =>
        views[0]
          ? HttpResponse.json(views[0])
          : HttpResponse.json({ message: 'Visão não encontrada.' }, { status: 404 }),
      ),
    );
    const { user, params } = await openLoaded(`/visualizar/7?visao=${VIEW_ID}`);
    server.use(
      http.get('/api/paineis/7/visoes', () => HttpResponse.json(views)),
      http.patch('/api/paineis/7/visoes/:visaoId', async ({ request }) => {
        const body = (await request.json()) as { nome: string };
        patched.push(body);
        views = [visao(VIEW_ID, body.nome)];
        return HttpResponse.json(views[0]);
      }),
      http.delete('/api/paineis/7/visoes/:visaoId', ({ params: p }) => {
        deleted.push(String(p.visaoId));
        views = [];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Visões' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Norte' })).getByRole('button', { name: 'Renomear' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Renomear visão' });
    const field = within(dialog).getByLabelText('Nome da visão');
    expect(field).toHaveValue('Norte');
    await user.clear(field);
    await user.type(field, 'Região Norte');
    await user.click(within(dialog).getByRole('button', { name: 'Renomear' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(patched).toEqual([{ nome: 'Região Norte' }]);

    await user.click(screen.getByRole('button', { name: 'Visões' }));
    const group = await screen.findByRole('group', { name: 'Região Norte' });
    await user.click(within(group).getByRole('button', { name: 'Excluir' }));
    const confirm = await screen.findByRole('dialog', { name: 'Excluir visão' });
    expect(deleted).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(deleted).toEqual([VIEW_ID]));
    await waitFor(() => expect(params().has('visao')).toBe(false));
  });

  it('applies a view shared by link (?visao=) on top of the report once it has loaded', async () => {
    server.use(
      http.get(`/api/paineis/7/visoes/${VIEW_ID}`, () =>
        HttpResponse.json(visao(VIEW_ID, 'Da colega', { propria: false })),
      ),
    );
    const { fake } = renderViewer(`/visualizar/7?visao=${VIEW_ID}`);
    await screen.findByRole('heading', { name: 'Vendas por Região' });
    await waitFor(() => expect(fake.loads).toHaveLength(1));
    expect(fake.applyState).not.toHaveBeenCalled();
    fake.emit('loaded');
    await waitFor(() => expect(fake.applyState).toHaveBeenCalledWith('estado-de-Da colega'));
    // Applied after the first page was set, so that choice does not undo it.
    expect(fake.setPage.mock.invocationCallOrder[0]).toBeLessThan(fake.applyState.mock.invocationCallOrder[0]!);
    expect(fake.applyState).toHaveBeenCalledTimes(1);
  });

  it('warns in Portuguese when the shared view is not found, and shows the report as it is', async () => {
    server.use(
      http.get(`/api/paineis/7/visoes/${VIEW_ID}`, () =>
        HttpResponse.json({ message: 'Visão não encontrada.' }, { status: 404 }),
      ),
    );
    const { fake } = await openLoaded(`/visualizar/7?visao=${VIEW_ID}`);
    expect(await screen.findByText(SHARED_VIEW_NOT_FOUND)).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Páginas do relatório' })).getByRole('button', {
        name: 'Visão geral',
      }),
    ).toBeInTheDocument();
    expect(fake.applyState).not.toHaveBeenCalled();
  });
});

describe("'Exportar'", () => {
  const job = (status: Exportacao['status'], percentComplete: number, more: Partial<Exportacao> = {}): Exportacao => ({
    id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    painelId: 7,
    formato: 'PDF',
    status,
    percentComplete,
    aguardarSegundos: null,
    arquivoUrl: null,
    ...more,
  });

  it('is not offered when the panel does not allow export', async () => {
    await openLoaded('/visualizar/7', { permiteExportacao: false });
    expect(screen.queryByRole('button', { name: 'Exportar' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeInTheDocument();
  });

  it('is a menu of two menu items, none with aria-selected, opened and closed by keyboard', async () => {
    const { user } = await openLoaded();
    const toggle = screen.getByRole('button', { name: 'Exportar' });
    toggle.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(toggle).toHaveAttribute('aria-haspopup', 'true');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['PDF', 'PowerPoint']);
    for (const item of items) expect(item).not.toHaveAttribute('aria-selected');
    // The arrows move through its items. react-bootstrap puts the focus on the first item as a keyboard opens the
    // menu, unless a render comes between the key and the menu showing (it then forgets the key): it happened under
    // load. From the toggle, or from the first item, two arrows down end on the last.
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(items).toContain(document.activeElement));
    await user.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'false'));
    expect(toggle).toHaveFocus();
  });

  it('starts the job with the current state, polls no sooner than Retry-After says, showing progress, then downloads the file', async () => {
    const { user, asked } = await openLoaded();
    const started: unknown[] = [];
    const polls: Exportacao[] = [
      job('Running', 40, { aguardarSegundos: 1 }),
      job('Succeeded', 100, { arquivoUrl: '/api/paineis/7/exportacoes/a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d/arquivo' }),
    ];
    let pollCount = 0;
    server.use(
      http.post('/api/paineis/7/exportacoes', async ({ request }) => {
        started.push(await request.json());
        return HttpResponse.json(job('NotStarted', 0), { status: 202, headers: { 'Retry-After': '3' } });
      }),
      http.get('/api/paineis/7/exportacoes/:exportacaoId', () => {
        const answer = polls[pollCount++]!;
        return HttpResponse.json(answer, answer.status === 'Running' ? { headers: { 'Retry-After': '5' } } : {});
      }),
      http.get(
        '/api/paineis/7/exportacoes/:exportacaoId/arquivo',
        () =>
          new HttpResponse(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
            headers: {
              'Content-Type': 'application/pdf',
              'Content-Disposition': `attachment; filename="Vendas por Regiao.pdf"; filename*=UTF-8''Vendas%20por%20Regi%C3%A3o.pdf`,
            },
          }),
      ),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:arquivo');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const downloads: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ href: this.href, download: this.download });
    });

    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    await user.click(await screen.findByRole('menuitem', { name: 'PDF' }));
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(started).toEqual([{ formato: 'PDF', estado: 'estado-capturado', pagina: 'ReportSection1' }]);
    expect(screen.getByText('Exportando… 0%')).toBeInTheDocument();
    // The 202's Retry-After, and nothing asked before that wait is over.
    expect(asked[0]!.seconds).toBe(3);
    expect(pollCount).toBe(0);

    act(() => asked[0]!.release());
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(await screen.findByText('Exportando… 40%')).toBeInTheDocument();
    // The answer's aguardarSegundos comes before its header.
    expect(asked[1]!.seconds).toBe(1);
    expect(pollCount).toBe(1);

    act(() => asked[1]!.release());
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]).toEqual({ href: 'blob:arquivo', download: 'Vendas por Região.pdf' });
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('%PDF');
    await waitFor(() => expect(screen.queryByText(/Exportando/)).not.toBeInTheDocument());
  });

  it("shows the API's Portuguese message when the export is refused", async () => {
    const { user } = await openLoaded();
    server.use(
      http.post('/api/paineis/7/exportacoes', () =>
        HttpResponse.json({ message: 'A exportação está desativada para este painel.' }, { status: 403 }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    await user.click(await screen.findByRole('menuitem', { name: 'PowerPoint' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A exportação está desativada para este painel.');
  });

  it("shows Power BI's busy answer (503) as the server words it, with its wait, and asks nothing more", async () => {
    const { user, asked } = await openLoaded();
    let polls = 0;
    server.use(
      http.post('/api/paineis/7/exportacoes', () =>
        HttpResponse.json(
          { message: 'O Power BI está ocupado com outras exportações. Tente novamente em 45 segundos.' },
          { status: 503, headers: { 'Retry-After': '45' } },
        ),
      ),
      http.get('/api/paineis/7/exportacoes/:exportacaoId', () => {
        polls += 1;
        return HttpResponse.json(job('Running', 0));
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    await user.click(await screen.findByRole('menuitem', { name: 'PDF' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'O Power BI está ocupado com outras exportações. Tente novamente em 45 segundos.',
    );
    // The person decides when to try again: no wait, no poll.
    expect(asked).toHaveLength(0);
    expect(polls).toBe(0);
  });

  it('says Power BI could not export when the job fails', async () => {
    const { user, asked } = await openLoaded();
    server.use(
      http.post('/api/paineis/7/exportacoes', () =>
        HttpResponse.json(job('Running', 10, { formato: 'PPTX', aguardarSegundos: 2 }), { status: 202 }),
      ),
      http.get('/api/paineis/7/exportacoes/:exportacaoId', () => HttpResponse.json(job('Failed', 10))),
    );
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    await user.click(await screen.findByRole('menuitem', { name: 'PowerPoint' }));
    await waitFor(() => expect(asked).toHaveLength(1));
    act(() => asked[0]!.release());
    expect(await screen.findByRole('alert')).toHaveTextContent(EXPORT_FAILED);
  });
});
