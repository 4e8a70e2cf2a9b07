import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PUBLIC_GROUP_GRANTS_NO_PANEL,
  PUBLIC_GROUP_GRANTS_NO_ROLE,
  PUBLIC_GROUP_NOTE,
} from '@paineis/contract/group-constants';
import type { AcessoPainel } from '@paineis/contract/groups';
import type { Painel } from '@paineis/contract/panels';
import { createQueryClient } from '../../../lib/query-client.ts';
import { grupoVinculado, painel } from '../../../test/data-generators.ts';
import { captureDownloads } from '../../../test/downloads.ts';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn } from '../../../test/session.ts';
import { IGNORED_GROUPS_TITLE } from './ignored-groups.tsx';
import { NOBODY_HAS_ACCESS, PANEL_ACCESS_LOAD_ERROR, PanelAccessModal } from './panel-access-modal.tsx';

const PAINEL = painel({ id: 7, nomePainel: 'Vendas Regionais', classificacaoId: 1 });
const COMERCIAL = grupoVinculado();

const PESSOAS: AcessoPainel['pessoas'] = [
  { usuarioId: 'u-ana', nome: 'Ana Admin', email: 'ana@empresa.com.br', motivos: [{ tipo: 'administrador' }] },
  {
    usuarioId: 'u-bruno',
    nome: 'Bruno Lima',
    email: 'bruno@empresa.com.br',
    motivos: [{ tipo: 'grupo', grupo: COMERCIAL, via: ['Comercial', 'Comercial - Sul'] }],
  },
  {
    usuarioId: 'u-carla',
    nome: 'Carla Souza',
    email: 'carla@empresa.com.br',
    motivos: [{ tipo: 'direto' }, { tipo: 'grupo', grupo: COMERCIAL, via: ['Comercial'] }],
  },
  { usuarioId: 'u-joao', nome: 'João Pereira', email: 'jp@empresa.com.br', motivos: [{ tipo: 'direto' }] },
];

function serveAccess(pessoas: AcessoPainel['pessoas'] = PESSOAS) {
  server.use(http.get('/api/paineis/7/acesso', () => HttpResponse.json({ pessoas, gruposSemEfeito: [] })));
}

function renderModal(shown: Painel | null = PAINEL) {
  const onHide = vi.fn();
  const router = createMemoryRouter(
    [
      { path: '/', element: <PanelAccessModal painel={shown} onHide={onHide} /> },
      { path: '/acessos', element: <p>página de acessos</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), onHide, router };
}

/** Each row's cells: name, e-mail and its reasons, one per line (joined by ' | '). */
const rows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const [nome, email, motivo] = within(row).getAllByRole('cell');
      const reasons = [...motivo!.children].map((line) => line.textContent).join(' | ');
      return [nome!.textContent, email!.textContent, reasons];
    });

beforeEach(() => {
  signIn(ADMIN);
  // jsdom lays nothing out; the list needs a height for the virtualiser to show rows.
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(400);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800);
});

describe("'Quem tem acesso - {painel}'", () => {
  it('is titled with the panel, shows the spinner, then Nome, E-mail, Motivo with every reason written out', async () => {
    server.use(
      http.get('/api/paineis/7/acesso', async () => {
        await delay(30);
        return HttpResponse.json({ pessoas: PESSOAS, gruposSemEfeito: [] });
      }),
    );
    renderModal();
    const dialog = await screen.findByRole('dialog', { name: 'Quem tem acesso - Vendas Regionais' });
    expect(within(dialog).getByText('Carregando...')).toBeInTheDocument();
    await within(dialog).findByRole('table');
    expect(
      within(dialog)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Nome', 'E-mail', 'Motivo']);
    expect(rows()).toEqual([
      ['Ana Admin', 'ana@empresa.com.br', 'Administrador'],
      ['Bruno Lima', 'bruno@empresa.com.br', 'Grupo: Comercial (Comercial → Comercial - Sul)'],
      ['Carla Souza', 'carla@empresa.com.br', 'Vínculo direto | Grupo: Comercial'],
      ['João Pereira', 'jp@empresa.com.br', 'Vínculo direto'],
    ]);
    expect(within(dialog).getByText('4 de 4 pessoas')).toBeInTheDocument();
  });

  it('links each name to the person on /acessos, closing the modal', async () => {
    serveAccess();
    const { user, onHide, router } = renderModal();
    const bruno = await screen.findByRole('link', { name: 'Bruno Lima' });
    expect(bruno).toHaveAttribute('href', '/acessos?pessoa=u-bruno');
    await user.click(bruno);
    expect(onHide).toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/acessos');
    expect(router.state.location.search).toBe('?pessoa=u-bruno');
  });

  it("filters by name, e-mail or group, ignoring accents, and counts '{x} de {y} pessoas'", async () => {
    serveAccess();
    const { user } = renderModal();
    const filter = await screen.findByRole('searchbox', { name: 'Filtrar pessoas' });
    expect(filter).toHaveAttribute('placeholder', 'Filtrar por nome, e-mail ou grupo...');
    await user.type(filter, 'comercial');
    expect(rows().map((r) => r[0])).toEqual(['Bruno Lima', 'Carla Souza']);
    expect(screen.getByText('2 de 4 pessoas')).toBeInTheDocument();
    await user.clear(filter);
    await user.type(filter, 'JOAO');
    expect(rows().map((r) => r[0])).toEqual(['João Pereira']);
    expect(screen.getByText('1 de 4 pessoas')).toBeInTheDocument();
    await user.clear(filter);
    await user.type(filter, 'bruno@');
    expect(rows().map((r) => r[0])).toEqual(['Bruno Lima']);
    await user.type(filter, 'x');
    expect(screen.getByText('Nenhuma pessoa encontrada.')).toBeInTheDocument();
    expect(screen.getByText('0 de 4 pessoas')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  });

  it("says 'pessoa' for a panel only one person may open", async () => {
    serveAccess(PESSOAS.slice(0, 1));
    renderModal();
    expect(await screen.findByText('1 de 1 pessoa')).toBeInTheDocument();
  });

  it("'Exportar CSV' downloads the filtered rows: Nome, E-mail, Motivos joined by '; '", async () => {
    serveAccess();
    const downloads = captureDownloads();
    const { user } = renderModal();
    await user.type(await screen.findByRole('searchbox', { name: 'Filtrar pessoas' }), 'comercial');
    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    expect(downloads.files.map((f) => f.name)).toEqual(['quem-tem-acesso-painel-7.csv']);
    expect(await downloads.text(0)).toBe(
      '\uFEFFNome;E-mail;Motivos\r\n' +
        'Bruno Lima;bruno@empresa.com.br;Grupo: Comercial (Comercial → Comercial - Sul)\r\n' +
        'Carla Souza;carla@empresa.com.br;"Vínculo direto; Grupo: Comercial"',
    );
  });

  it('keeps a list of tens of thousands fast: only the rows in view are in the page', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({
      usuarioId: `u${i}`,
      nome: `Pessoa ${String(i).padStart(5, '0')}`,
      email: `p${i}@empresa.com.br`,
      motivos: [{ tipo: 'direto' as const }],
    }));
    serveAccess(many);
    const { user } = renderModal();
    expect(await screen.findByText('20.000 de 20.000 pessoas')).toBeInTheDocument();
    const shown = rows().length;
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(40);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '20001');
    await user.type(screen.getByRole('searchbox', { name: 'Filtrar pessoas' }), 'pessoa 1999');
    // Pessoa 19990 to 19999.
    expect(rows().map((r) => r[0])).toEqual(Array.from({ length: 10 }, (_, i) => `Pessoa 1999${i}`));
    expect(screen.getByText('10 de 20.000 pessoas')).toBeInTheDocument();
  });

  it(`shows '${NOBODY_HAS_ACCESS}' when nobody may open the panel`, async () => {
    serveAccess([]);
    renderModal();
    expect(await screen.findByText('Ninguém tem acesso a este painel.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it(`shows '${PANEL_ACCESS_LOAD_ERROR}' when the list does not load, and tries again`, async () => {
    let fail = true;
    server.use(
      http.get('/api/paineis/7/acesso', () =>
        fail
          ? HttpResponse.json({ message: 'falhou' }, { status: 500 })
          : HttpResponse.json({ pessoas: PESSOAS, gruposSemEfeito: [] }),
      ),
    );
    const { user } = renderModal();
    expect(await screen.findByText('Erro ao carregar o acesso ao painel')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('4 de 4 pessoas')).toBeInTheDocument();
  });

  it("closes with 'Fechar' in the footer", async () => {
    serveAccess();
    const { user, onHide } = renderModal();
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('table');
    const fechar = within(dialog).getAllByRole('button', { name: 'Fechar' });
    // The header's × and the footer's button.
    expect(fechar).toHaveLength(2);
    await user.click(fechar[1]!);
    await waitFor(() => expect(onHide).toHaveBeenCalled());
  });

  it('marks a reason through a public group, and lists the public groups that grant nothing, even to nobody', async () => {
    const projeto = grupoVinculado({ id: 'g-projeto', nome: 'Projeto Expansão', publico: true });
    const semEfeito = [{ grupo: projeto, papel: 'Vendedor', motivo: PUBLIC_GROUP_GRANTS_NO_ROLE }];
    const viaProjeto = { tipo: 'grupo' as const, grupo: projeto, via: ['Projeto Expansão'] };
    server.use(
      http.get('/api/paineis/7/acesso', () =>
        HttpResponse.json({
          pessoas: [
            { usuarioId: 'u-bruno', nome: 'Bruno Lima', email: 'bruno@empresa.com.br', motivos: [viaProjeto] },
            PESSOAS[3],
          ],
          gruposSemEfeito: semEfeito,
        }),
      ),
    );
    renderModal();
    const bruno = (await screen.findByRole('link', { name: 'Bruno Lima' })).closest('tr')!;
    expect(within(bruno).getByText(PUBLIC_GROUP_NOTE)).toBeInTheDocument();
    expect(within(bruno).getByTitle('Grupo: Projeto Expansão')).toBeInTheDocument();
    const joao = screen.getByRole('link', { name: 'João Pereira' }).closest('tr')!;
    expect(within(joao).queryByText(PUBLIC_GROUP_NOTE)).not.toBeInTheDocument();
    const ignored = screen.getByRole('list', { name: IGNORED_GROUPS_TITLE });
    expect(
      within(ignored)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([`Projeto Expansão (papel Vendedor): ${PUBLIC_GROUP_GRANTS_NO_ROLE}`]);
  });

  it('lists a linked public group that opens the panel to nobody beside "Ninguém tem acesso"', async () => {
    const projeto = grupoVinculado({ id: 'g-projeto', nome: 'Projeto Expansão', publico: true });
    server.use(
      http.get('/api/paineis/7/acesso', () =>
        HttpResponse.json({
          pessoas: [],
          gruposSemEfeito: [{ grupo: projeto, papel: null, motivo: PUBLIC_GROUP_GRANTS_NO_PANEL }],
        }),
      ),
    );
    renderModal();
    expect(await screen.findByText(NOBODY_HAS_ACCESS)).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: IGNORED_GROUPS_TITLE }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([`Projeto Expansão: ${PUBLIC_GROUP_GRANTS_NO_PANEL}`]);
  });
});
