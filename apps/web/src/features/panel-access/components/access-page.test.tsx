import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  PUBLIC_GROUP_GRANTS_NO_PANEL,
  PUBLIC_GROUP_GRANTS_NO_ROLE,
  PUBLIC_GROUP_NOTE,
} from '@paineis/contract/group-constants';
import type { AcessoPessoa } from '@paineis/contract/groups';
import type { Usuario365 } from '@paineis/contract/users';
import { grupoVinculado } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';
import { dataRows } from '../../../test/table.ts';
import { CHOOSE_PERSON } from './access-page.tsx';
import { IGNORED_GROUPS_TITLE } from './ignored-groups.tsx';

const COMERCIAL = grupoVinculado();

// By name, as the server sends them.
const DIRECTORY: Usuario365[] = [
  { id: 'u-alvaro', displayName: 'Álvaro Nunes', email: 'alvaro@empresa.com.br', department: 'TI' },
  { id: 'u-bia', displayName: 'Beatriz Lima', email: 'bia@empresa.com.br', department: null },
  { id: 'u-bruno', displayName: 'Bruno Demonstração', email: 'demo.usuario@empresa.com.br', department: 'Comercial' },
];

const SEM_VINCULO = 'Sem vínculo com o painel, direto ou por grupo.';
const SEM_PAPEL = 'O painel usa RLS e nenhum papel lista a pessoa, por e-mail ou por grupo: a abertura seria recusada.';

const BRUNO: AcessoPessoa = {
  pessoa: {
    id: 'u-bruno',
    nome: 'Bruno Demonstração',
    email: 'demo.usuario@empresa.com.br',
    administrador: false,
    ativo: true,
  },
  paineis: [
    {
      painelId: 8,
      nomePainel: 'Vendas por Região',
      podeAbrir: true,
      motivos: [{ tipo: 'direto' }, { tipo: 'grupo', grupo: COMERCIAL, via: ['Comercial', 'Comercial - Sul'] }],
      papeisRls: [
        { papel: 'Gerente Regional', motivos: [{ tipo: 'email' }] },
        { papel: 'Sul', motivos: [{ tipo: 'grupo', grupo: COMERCIAL, via: ['Comercial'] }] },
      ],
      recusa: null,
      gruposSemEfeito: [],
    },
    {
      painelId: 11,
      nomePainel: 'Ticket Médio por Canal',
      podeAbrir: false,
      motivos: [],
      papeisRls: [],
      recusa: SEM_VINCULO,
      gruposSemEfeito: [],
    },
    {
      painelId: 1,
      nomePainel: 'Fluxo de Caixa Mensal',
      podeAbrir: true,
      motivos: [{ tipo: 'grupo', grupo: COMERCIAL, via: ['Comercial'] }],
      papeisRls: [],
      recusa: null,
      gruposSemEfeito: [],
    },
    {
      painelId: 6,
      nomePainel: 'Custos por Centro de Custo',
      podeAbrir: false,
      motivos: [{ tipo: 'direto' }],
      papeisRls: [],
      recusa: SEM_PAPEL,
      gruposSemEfeito: [],
    },
  ],
};

const ALVARO: AcessoPessoa = {
  pessoa: { id: 'u-alvaro', nome: 'Álvaro Nunes', email: 'alvaro@empresa.com.br', administrador: true, ativo: false },
  paineis: [
    {
      painelId: 8,
      nomePainel: 'Vendas por Região',
      podeAbrir: true,
      motivos: [{ tipo: 'administrador' }],
      papeisRls: [],
      recusa: null,
      gruposSemEfeito: [],
    },
  ],
};

/** Serves the directory and each person's access; returns the ids asked about. */
function serve(people: Record<string, AcessoPessoa> = { 'u-bruno': BRUNO, 'u-alvaro': ALVARO }) {
  const asked: string[] = [];
  server.use(
    http.get('/api/usuarios365/ativos', () => HttpResponse.json(DIRECTORY)),
    http.get('/api/usuarios365/:id/acesso', ({ params }) => {
      const id = String(params.id);
      asked.push(id);
      const access = people[id];
      return access
        ? HttpResponse.json(access)
        : HttpResponse.json({ message: 'Usuário não encontrado.' }, { status: 404 });
    }),
  );
  return asked;
}

const section = (name: string | RegExp) => screen.getByRole('region', { name });

describe("/acessos: 'Acessos'", () => {
  it('asks for a person first, and asks the server nothing yet', async () => {
    signIn(ADMIN);
    const asked = serve();
    renderApp('/acessos');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acessos' })).toBeInTheDocument();
    expect(
      screen.getByText('Escolha uma pessoa para ver os painéis que ela pode abrir e por quê.'),
    ).toBeInTheDocument();
    expect(CHOOSE_PERSON).toBe('Escolha uma pessoa para ver os painéis que ela pode abrir e por quê.');
    const search = screen.getByRole('combobox', { name: 'Buscar pessoa' });
    expect(search).toHaveAttribute('placeholder', 'Buscar por nome ou e-mail...');
    expect(asked).toEqual([]);
  });

  it('finds a person ignoring accents, and choosing one puts ?pessoa= in the address and shows both sections', async () => {
    signIn(ADMIN);
    serve();
    const { user, location } = renderApp('/acessos');
    const search = await screen.findByRole('combobox', { name: 'Buscar pessoa' });
    await user.type(search, 'demonstracao');
    const listbox = screen.getByRole('listbox', { name: 'Pessoas encontradas' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Bruno Demonstraçãodemo.usuario@empresa.com.br']);
    expect(screen.getByText('1 pessoa encontrada.')).toBeInTheDocument();
    await user.click(within(listbox).getByRole('option'));
    expect(location().pathname).toBe('/acessos');
    expect(location().search).toBe('?pessoa=u-bruno');
    expect(search).toHaveValue('');

    expect(await screen.findByRole('heading', { level: 2, name: 'Bruno Demonstração' })).toBeInTheDocument();
    expect(screen.getByText('demo.usuario@empresa.com.br')).toBeInTheDocument();
    expect(screen.queryByText('Administrador')).not.toBeInTheDocument();
    expect(screen.queryByText('Desativado')).not.toBeInTheDocument();
    expect(screen.queryByText(CHOOSE_PERSON)).not.toBeInTheDocument();

    const open = section('Painéis que pode abrir (2)');
    expect(
      within(open)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Painel', 'Motivo', 'Papéis RLS']);
    expect(dataRows(within(open).getByRole('table'))).toEqual([
      [
        'Vendas por Região',
        'Vínculo diretoGrupo: Comercial (Comercial → Comercial - Sul)',
        'Gerente Regional: E-mail no papelSul: Grupo: Comercial',
      ],
      ['Fluxo de Caixa Mensal', 'Grupo: Comercial', '—'],
    ]);
    expect(section('Painéis que não pode abrir (2)')).toBeInTheDocument();
  });

  it('writes each RLS role with its name and its reasons', async () => {
    signIn(ADMIN);
    serve();
    renderApp('/acessos?pessoa=u-bruno');
    const open = await screen.findByRole('region', { name: 'Painéis que pode abrir (2)' });
    const vendas = within(open).getByText('Vendas por Região').closest('tr')!;
    const roles = within(vendas)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(roles).toEqual(['Gerente Regional: E-mail no papel', 'Sul: Grupo: Comercial']);
    // Each of the panel's reasons on a line of its own.
    expect(within(vendas).getByText('Vínculo direto')).toBeInTheDocument();
    expect(within(vendas).getByText('Grupo: Comercial (Comercial → Comercial - Sul)')).toBeInTheDocument();
  });

  it('marks a reason through a public group, and names the public groups that grant the person nothing', async () => {
    const projeto = grupoVinculado({ id: 'g-projeto', nome: 'Projeto Expansão', publico: true });
    const viaProjeto = { grupo: projeto, via: ['Projeto Expansão'] };
    const noLink = `${SEM_VINCULO} ${PUBLIC_GROUP_GRANTS_NO_PANEL}: Projeto Expansão.`;
    const caio: AcessoPessoa = {
      pessoa: { id: 'u-caio', nome: 'Caio Prado', email: 'caio@empresa.com.br', administrador: false, ativo: true },
      paineis: [
        {
          painelId: 8,
          nomePainel: 'Vendas por Região',
          podeAbrir: true,
          motivos: [{ tipo: 'grupo', ...viaProjeto }],
          papeisRls: [{ papel: 'Sul', motivos: [{ tipo: 'email' }] }],
          recusa: null,
          gruposSemEfeito: [{ ...viaProjeto, papel: 'Vendedor', motivo: PUBLIC_GROUP_GRANTS_NO_ROLE }],
        },
        {
          painelId: 11,
          nomePainel: 'Ticket Médio por Canal',
          podeAbrir: false,
          motivos: [],
          papeisRls: [],
          recusa: noLink,
          gruposSemEfeito: [{ ...viaProjeto, papel: null, motivo: PUBLIC_GROUP_GRANTS_NO_PANEL }],
        },
      ],
    };
    signIn(ADMIN);
    serve({ 'u-caio': caio });
    const { user } = renderApp('/acessos?pessoa=u-caio');
    const open = await screen.findByRole('region', { name: 'Painéis que pode abrir (1)' });
    const vendas = within(open).getByText('Vendas por Região').closest('tr')!;
    expect(within(vendas).getByText('Grupo: Projeto Expansão')).toHaveTextContent(PUBLIC_GROUP_NOTE);
    expect(
      within(within(vendas).getByRole('list', { name: IGNORED_GROUPS_TITLE })).getByRole('listitem'),
    ).toHaveTextContent(`Projeto Expansão (papel Vendedor): ${PUBLIC_GROUP_GRANTS_NO_ROLE}`);
    const refused = screen.getByRole('region', { name: 'Painéis que não pode abrir (1)' });
    await user.selectOptions(within(refused).getByRole('combobox'), 'Ticket Médio por Canal');
    expect(within(refused).getByText(noLink)).toBeInTheDocument();
  });

  it('tells why a panel cannot be opened, for the panel picked', async () => {
    signIn(ADMIN);
    serve();
    const { user } = renderApp('/acessos?pessoa=u-bruno');
    const refused = await screen.findByRole('region', { name: 'Painéis que não pode abrir (2)' });
    const select = within(refused).getByRole('combobox', { name: 'Por que não pode abrir…' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Escolha um painel', 'Ticket Médio por Canal', 'Custos por Centro de Custo']);
    expect(within(refused).queryByText(SEM_VINCULO)).not.toBeInTheDocument();
    await user.selectOptions(select, 'Ticket Médio por Canal');
    expect(within(refused).getByText(SEM_VINCULO, { exact: false })).toBeInTheDocument();
    await user.selectOptions(select, 'Custos por Centro de Custo');
    expect(within(refused).getByText(SEM_PAPEL, { exact: false })).toBeInTheDocument();
    expect(within(refused).queryByText(SEM_VINCULO, { exact: false })).not.toBeInTheDocument();
  });

  it("badges an administrator 'Administrador' and a person no longer active 'Desativado'", async () => {
    signIn(ADMIN);
    serve();
    renderApp('/acessos?pessoa=u-alvaro');
    expect(await screen.findByRole('heading', { level: 2, name: /Álvaro Nunes/ })).toBeInTheDocument();
    expect(screen.getByText('Administrador', { selector: '.badge' })).toBeInTheDocument();
    expect(screen.getByText('Desativado', { selector: '.badge' })).toBeInTheDocument();
    expect(dataRows(within(section('Painéis que pode abrir (1)')).getByRole('table'))).toEqual([
      ['Vendas por Região', 'Administrador', '—'],
    ]);
    expect(screen.getByText('Nenhum: esta pessoa pode abrir todos os painéis.')).toBeInTheDocument();
  });

  it("shows the server's message for a person it does not know", async () => {
    signIn(ADMIN);
    serve();
    renderApp('/acessos?pessoa=desconhecida');
    expect(await screen.findByText('Usuário não encontrado.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Painéis que/ })).not.toBeInTheDocument();
  });

  it('is usable from the keyboard: arrows move through the matches, Enter chooses, Escape closes the list', async () => {
    signIn(ADMIN);
    const asked = serve();
    const { user, location } = renderApp('/acessos');
    const search = await screen.findByRole('combobox', { name: 'Buscar pessoa' });
    await user.click(search);
    await user.keyboard('b');
    // Álvaro (by his e-mail's 'empresa.com.br'), Beatriz and Bruno, in the directory's order.
    const options = () =>
      within(screen.getByRole('listbox', { hidden: true })).getAllByRole('option', { hidden: true });
    expect(search).toHaveAttribute('aria-expanded', 'true');
    expect(options().map((o) => o.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
    await user.keyboard('{ArrowDown}');
    expect(search).toHaveAttribute('aria-activedescendant', options()[1]!.id);
    await user.keyboard('{Escape}');
    expect(search).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowDown}');
    expect(search).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}{Enter}');
    expect(location().search).toBe('?pessoa=u-bia');
    await waitFor(() => expect(asked).toEqual(['u-bia']));
  });

  it('goes back to the previous person with the back button', async () => {
    signIn(ADMIN);
    serve();
    const { user, router, location } = renderApp('/acessos?pessoa=u-alvaro');
    await screen.findByRole('heading', { level: 2, name: 'Álvaro Nunes' });
    await user.type(screen.getByRole('combobox', { name: 'Buscar pessoa' }), 'bruno');
    await user.click(screen.getByRole('option', { name: /Bruno Demonstração/ }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Bruno Demonstração' })).toBeInTheDocument();
    await router.navigate(-1);
    await waitFor(() => expect(location().search).toBe('?pessoa=u-alvaro'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Álvaro Nunes' })).toBeInTheDocument();
  });

  it('shows at most 50 people, saying how many more match', async () => {
    signIn(ADMIN);
    const many = Array.from({ length: 3_000 }, (_, i) => ({
      id: `p${i}`,
      displayName: `Pessoa ${i}`,
      email: `pessoa${i}@empresa.com.br`,
      department: null,
    }));
    server.use(http.get('/api/usuarios365/ativos', () => HttpResponse.json(many)));
    const { user } = renderApp('/acessos');
    await user.type(await screen.findByRole('combobox', { name: 'Buscar pessoa' }), 'pessoa');
    expect(screen.getAllByRole('option')).toHaveLength(50);
    expect(
      screen.getByText('Mostrando 50 de 3.000 pessoas. Continue digitando para refinar a busca.'),
    ).toBeInTheDocument();
  });

  it('is for administrators only: a user is sent to the list', async () => {
    signIn(USER);
    server.use(
      http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
      http.get('/api/classificacoes', () => HttpResponse.json([])),
    );
    const { location } = renderApp('/acessos?pessoa=u-bruno');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'Acessos' })).not.toBeInTheDocument();
  });

  it("is reached from the admin's navigation link 'Acessos'", async () => {
    signIn(ADMIN);
    serve();
    server.use(
      http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
      http.get('/api/classificacoes', () => HttpResponse.json([])),
    );
    const { user, location } = renderApp('/');
    await user.click(await screen.findByRole('link', { name: 'Acessos' }));
    expect(location().pathname).toBe('/acessos');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acessos' })).toBeInTheDocument();
  });
});
