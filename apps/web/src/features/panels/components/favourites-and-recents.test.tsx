import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { GrupoPaineis, Painel, ReorderItem } from '@paineis/contract/panels';
import { grupoPaineis, painel as basePainel } from '../../../test/data-generators.ts';
import { keyboardDrag, stubRowRects } from '../../../test/drag-and-drop.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';

const painel = (id: number, nomePainel: string, classificacaoId: number, ordem: number): Painel =>
  basePainel({ id, nomePainel, classificacaoId, classificacaoNome: `C${classificacaoId}`, ordem });

const grupo = (id: number, nome: string, paineis: Painel[]): GrupoPaineis => grupoPaineis({ id, nome, paineis });

const GROUPS: GrupoPaineis[] = [
  grupo(1, 'Vendas', [painel(11, 'Vendas Mensais', 1, 1), painel(12, 'Metas', 1, 2), painel(13, 'Comissões', 1, 3)]),
  grupo(2, 'Gestão', [painel(21, 'Orçamento', 2, 1)]),
  grupo(0, 'Sem Classificação', [painel(31, 'Legado', 0, 1)]),
];

/** The list and the person's favourites from a little in-memory server; PUT and DELETE recorded. */
function serve(favourites: number[] = [], { failWrites = false } = {}) {
  const state = { favourites: [...favourites], writes: [] as string[] };
  server.use(
    http.get('/api/paineis/agrupados', () => HttpResponse.json(GROUPS)),
    http.get('/api/favoritos', () => HttpResponse.json({ paineis: state.favourites })),
    http.put('/api/favoritos/:id', ({ params }) => {
      state.writes.push(`PUT ${String(params.id)}`);
      if (failWrites) return HttpResponse.json({ message: 'Falhou' }, { status: 500 });
      if (!state.favourites.includes(Number(params.id))) state.favourites.push(Number(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
    http.delete('/api/favoritos/:id', ({ params }) => {
      state.writes.push(`DELETE ${String(params.id)}`);
      state.favourites = state.favourites.filter((id) => id !== Number(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

const list = (name: string) => screen.getByRole('list', { name });
const namesIn = (name: string) =>
  within(list(name))
    .getAllByRole('link', { name: /^Visualizar painel / })
    .map((link) => link.getAttribute('aria-label')!.replace('Visualizar painel ', ''));
/** The row of a panel in one group's list. */
const rowOf = (group: string, nome: string) => within(list(group)).getByText(nome).closest('li') as HTMLElement;

describe("'/' favourites", () => {
  it("stars a panel ('Favoritar'), shows it at once in a 'Favoritos' group on top, and unstars it", async () => {
    signIn(USER);
    const state = serve();
    const { user } = renderApp('/');
    await screen.findByRole('heading', { name: 'Vendas' });
    expect(screen.queryByRole('heading', { name: 'Favoritos' })).not.toBeInTheDocument();

    const star = within(rowOf('Vendas', 'Metas')).getByRole('button', { name: 'Favoritar' });
    expect(star).toHaveAttribute('aria-pressed', 'false');
    await user.click(star);

    expect(await screen.findByRole('heading', { name: 'Favoritos' })).toBeInTheDocument();
    // On top of the classifications.
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Favoritos',
      'Vendas',
      'Gestão',
      'Sem Classificação',
    ]);
    expect(namesIn('Favoritos')).toEqual(['Metas']);
    const starred = within(rowOf('Vendas', 'Metas')).getByRole('button', { name: 'Remover dos favoritos' });
    expect(starred).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(state.writes).toEqual(['PUT 12']));

    await user.click(within(rowOf('Favoritos', 'Metas')).getByRole('button', { name: 'Remover dos favoritos' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Favoritos' })).not.toBeInTheDocument());
    expect(within(rowOf('Vendas', 'Metas')).getByRole('button', { name: 'Favoritar' })).toBeInTheDocument();
    await waitFor(() => expect(state.writes).toEqual(['PUT 12', 'DELETE 12']));
  });

  it('puts the star back when the server refuses the change', async () => {
    signIn(USER);
    const state = serve([], { failWrites: true });
    const { user } = renderApp('/');
    await screen.findByRole('heading', { name: 'Vendas' });
    await user.click(within(rowOf('Vendas', 'Metas')).getByRole('button', { name: 'Favoritar' }));
    await waitFor(() => expect(state.writes).toEqual(['PUT 12']));
    await waitFor(() =>
      expect(within(rowOf('Vendas', 'Metas')).getByRole('button', { name: 'Favoritar' })).toBeInTheDocument(),
    );
    expect(screen.queryByRole('heading', { name: 'Favoritos' })).not.toBeInTheDocument();
  });

  it("lists favourites in the list's order, and the search filters them too", async () => {
    signIn(USER);
    serve([31, 21, 11]);
    const { user } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Favoritos' })).toBeInTheDocument();
    expect(namesIn('Favoritos')).toEqual(['Vendas Mensais', 'Orçamento', 'Legado']);
    expect(within(screen.getByRole('region', { name: 'Favoritos' })).getByText('3 painéis')).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Buscar painel' }), 'orc');
    await waitFor(() => expect(namesIn('Favoritos')).toEqual(['Orçamento']));
    expect(within(screen.getByRole('region', { name: 'Favoritos' })).getByText('1 de 3 painéis')).toBeInTheDocument();

    await user.clear(screen.getByRole('searchbox', { name: 'Buscar painel' }));
    await user.type(screen.getByRole('searchbox', { name: 'Buscar painel' }), 'metas');
    // No favourite matches: no empty 'Favoritos' above the match.
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Favoritos' })).not.toBeInTheDocument());
    expect(namesIn('Vendas')).toEqual(['Metas']);
  });

  it("gives an admin no drag handles nor management buttons in 'Favoritos', and keyboard reordering still works", async () => {
    signIn(ADMIN);
    serve([12]);
    const bodies: ReorderItem[][] = [];
    server.use(
      http.post('/api/paineis/reorder', async ({ request }) => {
        bodies.push((await request.json()) as ReorderItem[]);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    stubRowRects();
    const { user } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Favoritos' })).toBeInTheDocument();
    const favourites = within(list('Favoritos'));
    expect(favourites.queryByRole('button', { name: /^Arrastar para reordenar/ })).not.toBeInTheDocument();
    expect(favourites.queryByRole('link', { name: 'Editar painel Metas' })).not.toBeInTheDocument();
    expect(favourites.queryByRole('button', { name: 'Excluir painel Metas' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Editar classificação Favoritos' })).not.toBeInTheDocument();
    expect(within(list('Vendas')).getByRole('button', { name: 'Arrastar para reordenar Metas' })).toBeInTheDocument();

    await keyboardDrag(user, 'Vendas Mensais', '{ArrowDown}');
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual([
      { painelId: 12, novaOrdem: 1 },
      { painelId: 11, novaOrdem: 2 },
      { painelId: 13, novaOrdem: 3 },
    ]);
    expect(namesIn('Vendas')).toEqual(['Metas', 'Vendas Mensais', 'Comissões']);
    expect(namesIn('Favoritos')).toEqual(['Metas']);
  });
});

describe("'/' Recentes", () => {
  it('shows the last panels opened, newest first, as links to the viewer, and asks again on coming back', async () => {
    signIn(USER);
    serve();
    let recentes = [21, 11];
    let gets = 0;
    server.use(
      http.get('/api/recentes', () => {
        gets += 1;
        return HttpResponse.json({ paineis: recentes });
      }),
      http.get('/api/paineis/99', () => HttpResponse.json({ message: 'Painel não encontrado.' }, { status: 404 })),
    );
    const { router } = renderApp('/');
    const region = await screen.findByRole('region', { name: 'Recentes' });
    const links = within(region).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Orçamento', '/visualizar/21'],
      ['Vendas Mensais', '/visualizar/11'],
    ]);

    await act(() => router.navigate('/visualizar/99'));
    expect(await screen.findByRole('heading', { name: 'Painel não encontrado' })).toBeInTheDocument();
    recentes = [31, 21, 11];
    await act(() => router.navigate('/'));
    await waitFor(() =>
      expect(within(screen.getByRole('region', { name: 'Recentes' })).getAllByRole('link')[0]).toHaveTextContent(
        'Legado',
      ),
    );
    expect(gets).toBe(2);
  });

  it('is hidden while the person has opened nothing', async () => {
    signIn(USER);
    serve();
    renderApp('/');
    await screen.findByRole('heading', { name: 'Vendas' });
    expect(screen.queryByRole('region', { name: 'Recentes' })).not.toBeInTheDocument();
    expect(screen.queryByText('Recentes')).not.toBeInTheDocument();
  });
});
