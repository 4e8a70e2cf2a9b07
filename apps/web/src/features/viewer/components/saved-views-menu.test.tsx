import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { VisaoSalva } from '@paineis/contract/personal';
import { createQueryClient } from '../../../lib/query-client.ts';
import { FakeEmbedder, painelComEmbed, visaoSalva } from '../../../test/data-generators.ts';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';
import type { ReportPage } from '../embedding/report-embedder.ts';
import { PANEL_VIEW_LABEL } from './view-name-modal.tsx';
import ViewerPage from './viewer-page.tsx';

/** docs/requirements.md#personal: the panel's views ('Visão do painel') in the viewer's 'Visões' and 'Salvar visão'. */

const PAGES: ReportPage[] = [{ name: 'ReportSection1', displayName: 'Visão geral', visibility: 0 }];
const PANEL_VIEW_ID = '1a2b3c4d-0000-4000-8000-000000000001';
const OWN_VIEW_ID = '1a2b3c4d-0000-4000-8000-000000000002';
const panelView = visaoSalva({
  id: PANEL_VIEW_ID,
  nome: 'Diretoria',
  propria: false,
  doPainel: true,
  salvaPor: 'Ana Admin',
});
const ownView = visaoSalva({ id: OWN_VIEW_ID, nome: 'Minha região' });

async function openViewer(isAdmin: boolean, views: () => VisaoSalva[]) {
  signIn(isAdmin ? ADMIN : USER);
  server.use(
    http.get('/api/paineis/7', () => HttpResponse.json(painelComEmbed())),
    http.get('/api/paineis/7/visoes', () => HttpResponse.json(views())),
  );
  const fake = new FakeEmbedder({ pages: PAGES, state: 'estado-capturado' });
  const router = createMemoryRouter(
    [{ path: '/visualizar/:id', element: <ViewerPage createEmbedder={() => fake} isAdmin={isAdmin} /> }],
    { initialEntries: ['/visualizar/7'] },
  );
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await waitFor(() => expect(fake.loads).toHaveLength(1));
  fake.emit('loaded');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Imprimir' })).toBeEnabled());
  const params = () => new URLSearchParams(router.state.location.search);
  return { fake, user, params };
}

describe('panel views in the viewer', () => {
  it("shows a person the panel's views apart from their own, read-only, to apply or copy the link of", async () => {
    const { fake, user, params } = await openViewer(false, () => [panelView, ownView]);
    await user.click(screen.getByRole('button', { name: 'Visões' }));
    const ofPanel = await screen.findByRole('group', { name: 'Diretoria' });
    const headings = screen.getAllByRole('heading').map((h) => h.textContent);
    expect(headings).toEqual(expect.arrayContaining(['Visões do painel', 'Minhas visões']));
    expect(within(ofPanel).queryByRole('button', { name: 'Renomear' })).not.toBeInTheDocument();
    expect(within(ofPanel).queryByRole('button', { name: 'Excluir' })).not.toBeInTheDocument();
    // One's own view keeps its actions.
    const own = screen.getByRole('group', { name: 'Minha região' });
    expect(within(own).getByRole('button', { name: 'Renomear' })).toBeInTheDocument();

    await user.click(within(ofPanel).getByRole('button', { name: 'Copiar link' }));
    expect(await within(ofPanel).findByText('Link copiado')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(
      `${window.location.origin}/visualizar/7?visao=${PANEL_VIEW_ID}&pagina=ReportSection2`,
    );

    await user.click(screen.getByRole('button', { name: 'Visões' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Diretoria' })).getByRole('button', { name: 'Diretoria' }),
    );
    await waitFor(() => expect(fake.applyState).toHaveBeenCalledWith('estado-de-Diretoria'));
    expect(params().get('visao')).toBe(PANEL_VIEW_ID);
  });

  it('offers a person no panel-view option when saving', async () => {
    const { user } = await openViewer(false, () => []);
    await user.click(screen.getByRole('button', { name: 'Salvar visão' }));
    const dialog = await screen.findByRole('dialog', { name: 'Salvar visão' });
    expect(within(dialog).queryByLabelText(PANEL_VIEW_LABEL)).not.toBeInTheDocument();
  });

  it('lets an administrator save a panel view, and rename and delete the panel’s views', async () => {
    let views: VisaoSalva[] = [];
    const posted: unknown[] = [];
    const patched: string[] = [];
    const deleted: string[] = [];
    const { user } = await openViewer(true, () => views);
    server.use(
      http.post('/api/paineis/7/visoes', async ({ request }) => {
        const body = (await request.json()) as { nome: string };
        posted.push(body);
        views = [{ ...panelView, nome: body.nome }];
        return HttpResponse.json(views[0], { status: 201 });
      }),
      http.patch('/api/paineis/7/visoes/:visaoId', async ({ request, params }) => {
        patched.push(String(params.visaoId));
        views = [{ ...panelView, nome: ((await request.json()) as { nome: string }).nome }];
        return HttpResponse.json(views[0]);
      }),
      http.delete('/api/paineis/7/visoes/:visaoId', ({ params }) => {
        deleted.push(String(params.visaoId));
        views = [];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Salvar visão' }));
    const dialog = await screen.findByRole('dialog', { name: 'Salvar visão' });
    await user.type(within(dialog).getByLabelText('Nome da visão'), 'Diretoria');
    await user.click(within(dialog).getByLabelText(PANEL_VIEW_LABEL));
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted).toEqual([
      { nome: 'Diretoria', estado: 'estado-capturado', pagina: 'ReportSection1', doPainel: true },
    ]);

    await user.click(screen.getByRole('button', { name: 'Visões' }));
    const group = await screen.findByRole('group', { name: 'Diretoria' });
    expect(within(group).queryByRole('button', { name: 'Copiar link' })).not.toBeInTheDocument();
    await user.click(within(group).getByRole('button', { name: 'Renomear' }));
    const rename = await screen.findByRole('dialog', { name: 'Renomear visão' });
    await user.clear(within(rename).getByLabelText('Nome da visão'));
    await user.type(within(rename).getByLabelText('Nome da visão'), 'Conselho');
    await user.click(within(rename).getByRole('button', { name: 'Renomear' }));
    await waitFor(() => expect(patched).toEqual([PANEL_VIEW_ID]));

    await user.click(screen.getByRole('button', { name: 'Visões' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Conselho' })).getByRole('button', { name: 'Excluir' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Excluir visão' });
    expect(confirm).toHaveTextContent('excluir a visão do painel "Conselho"? Ninguém mais a verá.');
    await user.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(deleted).toEqual([PANEL_VIEW_ID]));
  });
});
