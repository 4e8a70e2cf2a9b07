import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_GROUP_GRANTS_NO_ROLE, PUBLIC_GROUP_NOTE } from '@paineis/contract/group-constants';
import type { Grupo365 } from '@paineis/contract/groups';
import type { Painel } from '@paineis/contract/panels';
import type { RlsConfiguration } from '@paineis/contract/rls';
import type { UsuarioVinculado } from '@paineis/contract/users';
import { createQueryClient } from '../../../lib/query-client.ts';
import { grupo365, grupoPublico, painel } from '../../../test/data-generators.ts';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn } from '../../../test/session.ts';
import { RlsModal } from './rls-modal.tsx';

const PAINEL = painel({
  id: 9,
  nomePainel: 'Indicadores Financeiros',
  usaRls: true,
  classificacaoNome: 'Financeiro',
  ordem: 3,
});

const LINKED: UsuarioVinculado[] = [
  { id: 'u-ana', email: 'ana@empresa.com.br', displayName: 'Ana Costa' },
  { id: 'u-bruno', email: 'bruno@empresa.com.br', displayName: 'Bruno Dias' },
  { id: 'u-carla', email: 'carla@empresa.com.br', displayName: 'Carla Melo' },
];
const GROUPS: Grupo365[] = [
  grupo365({ id: 'g-com', nome: 'Comercial', descricao: 'Equipe comercial', membros: 1234 }),
  grupo365({ id: 'g-sul', nome: 'Comercial - Sul', descricao: 'Vendas da região Sul', membros: 1 }),
  grupo365({ id: 'g-dir', nome: 'Diretoria', descricao: null, tipo: 'microsoft365', membros: 5 }),
  grupo365({ id: 'g-fin', nome: 'Financeiro', descricao: 'Contas e orçamento', membros: 0 }),
];
const ROLES: RlsConfiguration[] = [
  { roleName: 'Gerentes', userEmails: ['ana@empresa.com.br'] },
  { roleName: 'Analistas', userEmails: ['bruno@empresa.com.br', 'antigo@empresa.com.br'] },
];

/** The directory's groups (GET /api/grupos365), and the groups linked to the panel (none unless said). */
const directory = (groups: Grupo365[] = GROUPS, linkedGroups: { id: string; nome: string }[] = []) => [
  http.get('/api/grupos365', () => HttpResponse.json(groups)),
  http.get('/api/paineis/9/grupos', () => HttpResponse.json(linkedGroups)),
];

/** Answers the three loads; returns the bodies of the POSTs. */
function api({
  rls = ROLES,
  linked = LINKED,
  linkedGroups = [],
  groups = GROUPS,
}: {
  rls?: RlsConfiguration[] | { configuracoes: RlsConfiguration[] };
  linked?: UsuarioVinculado[];
  linkedGroups?: { id: string; nome: string }[];
  groups?: Grupo365[];
} = {}) {
  const posts: unknown[] = [];
  server.use(
    ...directory(groups, linkedGroups),
    http.get('/api/paineis/9/rls', () => HttpResponse.json(rls)),
    http.get('/api/paineis/9/usuarios', () => HttpResponse.json(linked)),
    http.post('/api/paineis/9/rls', async ({ request }) => {
      const body = await request.json();
      posts.push(body);
      return HttpResponse.json(body as RlsConfiguration[]);
    }),
  );
  return { posts };
}

function renderModal(painel: Painel | null = PAINEL) {
  const onHide = vi.fn();
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RlsModal painel={painel} onHide={onHide} />
    </QueryClientProvider>,
  );
  return { user, onHide };
}

const dialog = () => screen.findByRole('dialog', { name: 'Configuração RLS - Indicadores Financeiros' });
const editorReady = () => screen.findByRole('button', { name: 'Salvar Configurações' });
/** The card of one role. */
const role = (name: string) =>
  screen.getByRole('button', { name: `Remover papel ${name}` }).closest('.card') as HTMLElement;
const roleNames = () =>
  screen.queryAllByRole('button', { name: /^Remover papel / }).map((b) => b.getAttribute('aria-label')!.slice(14));
const newRoleInput = () => screen.getByRole('textbox', { name: 'Novo papel' });
const options = (name: string) =>
  within(within(role(name)).getByRole('combobox', { name: `Usuário para adicionar ao papel ${name}` }))
    .getAllByRole('option')
    .map((o) => o.textContent);

async function save(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Salvar Configurações' }));
}

beforeEach(() => signIn(ADMIN));

describe('Configuração RLS', () => {
  it('is titled with the panel name and shows the spinner until both the roles and the linked users load', async () => {
    server.use(
      ...directory(),
      http.get('/api/paineis/9/rls', () => HttpResponse.json(ROLES)),
      http.get('/api/paineis/9/usuarios', async () => {
        await delay(80);
        return HttpResponse.json(LINKED);
      }),
    );
    renderModal();
    const modal = await dialog();
    expect(within(modal).getByText('Carregando...')).toBeInTheDocument();
    expect(within(modal).queryByText('Gerentes')).not.toBeInTheDocument();
    await editorReady();
    expect(within(modal).queryByText('Carregando...')).not.toBeInTheDocument();
    expect(roleNames()).toEqual(['Gerentes', 'Analistas']);
    expect(within(modal).getByRole('button', { name: 'Fechar' })).toBeInTheDocument();
  });

  it('is not shown without a panel', () => {
    renderModal(null);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows each role with its users: display names when known, e-mails always', async () => {
    api();
    renderModal();
    await editorReady();
    const gerentes = role('Gerentes');
    expect(within(gerentes).getByText('Ana Costa')).toBeInTheDocument();
    expect(within(gerentes).getByText('ana@empresa.com.br')).toBeInTheDocument();
    expect(within(gerentes).getByText('1 usuário')).toBeInTheDocument();
    const analistas = role('Analistas');
    expect(within(analistas).getByText('Bruno Dias')).toBeInTheDocument();
    expect(within(analistas).getByText('antigo@empresa.com.br')).toBeInTheDocument();
    expect(within(analistas).getByText('Não vinculado a este painel')).toBeInTheDocument();
    expect(within(analistas).getByText('2 usuários')).toBeInTheDocument();
    expect(screen.queryByText(/Nenhum usuário está vinculado/)).not.toBeInTheDocument();
  });

  it('accepts the other answer shape, an object with a configuracoes array', async () => {
    api({ rls: { configuracoes: [{ roleName: 'Diretoria', userEmails: ['carla@empresa.com.br'] }] } });
    renderModal();
    await editorReady();
    expect(roleNames()).toEqual(['Diretoria']);
    expect(within(role('Diretoria')).getByText('Carla Melo')).toBeInTheDocument();
  });

  it('warns when no user is linked to the panel', async () => {
    api({ rls: [], linked: [] });
    renderModal();
    await editorReady();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Nenhum usuário está vinculado a este painel. Vincule usuários antes de configurar o RLS.',
    );
    expect(screen.getByText('Nenhum papel RLS configurado.')).toBeInTheDocument();
  });

  it('does not warn when nobody is linked directly but a group is', async () => {
    api({ rls: [], linked: [], linkedGroups: [{ id: GROUPS[0]!.id, nome: GROUPS[0]!.nome }] });
    renderModal();
    await editorReady();
    expect(screen.queryByText(/Nenhum usuário está vinculado/)).not.toBeInTheDocument();
  });

  it('adds roles by button and by Enter, trimmed; ignores empty names and refuses duplicates', async () => {
    const { posts } = api();
    const { user, onHide } = renderModal();
    await editorReady();

    await user.type(newRoleInput(), '   Vendas Sul  ');
    await user.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(roleNames()).toEqual(['Gerentes', 'Analistas', 'Vendas Sul']);
    expect(newRoleInput()).toHaveValue('');

    await user.type(newRoleInput(), 'Diretoria{Enter}');
    expect(roleNames()).toEqual(['Gerentes', 'Analistas', 'Vendas Sul', 'Diretoria']);

    await user.type(newRoleInput(), '    ');
    await user.click(screen.getByRole('button', { name: 'Adicionar' }));
    await user.type(newRoleInput(), '{Enter}');
    expect(roleNames()).toHaveLength(4);
    expect(screen.queryByText('Já existe um papel com este nome.')).not.toBeInTheDocument();

    await user.clear(newRoleInput());
    await user.type(newRoleInput(), ' gerentes {Enter}');
    expect(roleNames()).toHaveLength(4);
    expect(newRoleInput()).toBeInvalid();
    expect(screen.getByText('Já existe um papel com este nome.')).toBeInTheDocument();
    // Typing again clears the message.
    await user.type(newRoleInput(), 'x');
    expect(newRoleInput()).toBeValid();
    expect(screen.queryByText('Já existe um papel com este nome.')).not.toBeInTheDocument();

    expect(posts).toEqual([]);
    await save(user);
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([
      [
        { roleName: 'Gerentes', userEmails: ['ana@empresa.com.br'], grupos: [] },
        { roleName: 'Analistas', userEmails: ['bruno@empresa.com.br', 'antigo@empresa.com.br'], grupos: [] },
        { roleName: 'Vendas Sul', userEmails: [], grupos: [] },
        { roleName: 'Diretoria', userEmails: [], grupos: [] },
      ],
    ]);
  });

  it('removes a role', async () => {
    const { posts } = api();
    const { user, onHide } = renderModal();
    await editorReady();
    await user.click(screen.getByRole('button', { name: 'Remover papel Gerentes' }));
    expect(roleNames()).toEqual(['Analistas']);
    await save(user);
    await waitFor(() => expect(onHide).toHaveBeenCalled());
    expect(posts).toEqual([
      [{ roleName: 'Analistas', userEmails: ['bruno@empresa.com.br', 'antigo@empresa.com.br'], grupos: [] }],
    ]);
  });

  it('offers only the linked users not yet in the role, and adds and removes users in it', async () => {
    const { posts } = api();
    const { user, onHide } = renderModal();
    await editorReady();

    expect(options('Gerentes')).toEqual([
      'Selecione um usuário vinculado...',
      'Bruno Dias (bruno@empresa.com.br)',
      'Carla Melo (carla@empresa.com.br)',
    ]);
    expect(options('Analistas')).toEqual([
      'Selecione um usuário vinculado...',
      'Ana Costa (ana@empresa.com.br)',
      'Carla Melo (carla@empresa.com.br)',
    ]);
    const addToGerentes = screen.getByRole('button', { name: 'Adicionar usuário ao papel Gerentes' });
    expect(addToGerentes).toBeDisabled();

    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Usuário para adicionar ao papel Gerentes' }),
      'carla@empresa.com.br',
    );
    await user.click(addToGerentes);
    expect(within(role('Gerentes')).getByText('Carla Melo')).toBeInTheDocument();
    expect(options('Gerentes')).toEqual(['Selecione um usuário vinculado...', 'Bruno Dias (bruno@empresa.com.br)']);

    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Usuário para adicionar ao papel Gerentes' }),
      'bruno@empresa.com.br',
    );
    await user.click(addToGerentes);
    expect(
      within(role('Gerentes')).getByText('Todos os usuários vinculados já estão neste papel.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remover ana@empresa.com.br do papel Gerentes' }));
    expect(within(role('Gerentes')).queryByText('Ana Costa')).not.toBeInTheDocument();
    expect(options('Gerentes')).toEqual(['Selecione um usuário vinculado...', 'Ana Costa (ana@empresa.com.br)']);

    await user.click(screen.getByRole('button', { name: 'Remover antigo@empresa.com.br do papel Analistas' }));

    await save(user);
    await waitFor(() => expect(onHide).toHaveBeenCalled());
    expect(posts).toEqual([
      [
        { roleName: 'Gerentes', userEmails: ['carla@empresa.com.br', 'bruno@empresa.com.br'], grupos: [] },
        { roleName: 'Analistas', userEmails: ['bruno@empresa.com.br'], grupos: [] },
      ],
    ]);
  });

  it('treats e-mails without regard to case: a linked user already in the role is not offered again', async () => {
    api({ rls: [{ roleName: 'Gerentes', userEmails: ['ANA@empresa.com.br'] }] });
    renderModal();
    await editorReady();
    expect(within(role('Gerentes')).getByText('Ana Costa')).toBeInTheDocument();
    expect(options('Gerentes')).toEqual([
      'Selecione um usuário vinculado...',
      'Bruno Dias (bruno@empresa.com.br)',
      'Carla Melo (carla@empresa.com.br)',
    ]);
  });

  it('Cancelar closes without sending anything', async () => {
    const { posts } = api();
    const { user, onHide } = renderModal();
    await editorReady();
    await user.click(screen.getByRole('button', { name: 'Remover papel Gerentes' }));
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onHide).toHaveBeenCalledTimes(1);
    expect(posts).toEqual([]);
  });

  it("shows 'Erro ao carregar configurações RLS' when a load fails, with a way to try again", async () => {
    let fail = true;
    server.use(
      ...directory(),
      http.get('/api/paineis/9/rls', () => (fail ? HttpResponse.json({}, { status: 500 }) : HttpResponse.json(ROLES))),
      http.get('/api/paineis/9/usuarios', () => HttpResponse.json(LINKED)),
    );
    const { user } = renderModal();
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao carregar configurações RLS');
    expect(screen.queryByRole('button', { name: 'Salvar Configurações' })).not.toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await editorReady();
    expect(roleNames()).toEqual(['Gerentes', 'Analistas']);
  });

  it("shows 'Erro ao carregar configurações RLS' when the linked users fail to load", async () => {
    server.use(
      ...directory(),
      http.get('/api/paineis/9/rls', () => HttpResponse.json(ROLES)),
      http.get('/api/paineis/9/usuarios', () => HttpResponse.json({}, { status: 500 })),
    );
    renderModal();
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao carregar configurações RLS');
  });

  it("warns of a stored configuration over Power BI's limits, listing each problem until it is fixed", async () => {
    const stored: RlsConfiguration[] = [
      ...Array.from({ length: 50 }, (_, i) => ({ roleName: `Papel ${i + 1}`, userEmails: [] })),
      { roleName: 'Norte,Sul', userEmails: ['ana@empresa.com.br'] },
      { roleName: `Diretoria ${'x'.repeat(45)}`, userEmails: [] },
    ];
    api({ rls: stored });
    const refusal =
      'Corpo da requisição: A configuração RLS tem 52 papéis; são aceitos no máximo 50, o limite do Power BI para uma identidade.';
    server.use(http.post('/api/paineis/9/rls', () => HttpResponse.json({ message: refusal }, { status: 400 })));
    const { user, onHide } = renderModal();
    await editorReady();
    const warning = screen.getByRole('alert', { name: 'Limites do Power BI' });
    expect(warning).toHaveTextContent(
      'O Power BI recusaria esta configuração RLS, e ela não pode ser salva assim. Remova ou substitua os papéis indicados:',
    );
    expect(
      within(warning)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'A configuração RLS tem 52 papéis; são aceitos no máximo 50, o limite do Power BI para uma identidade.',
      "O nome do papel RLS (roleName) 'Norte,Sul' contém vírgula, que o Power BI não aceita em nomes de papéis.",
      `O nome do papel RLS (roleName) 'Diretoria ${'x'.repeat(45)}' tem 55 caracteres; o Power BI aceita no máximo 50.`,
    ]);

    // Saving as it is: the server refuses, and the modal says why.
    await save(user);
    // The save error's alert, the one without a name of its own.
    const failed = await screen.findByRole('alert', { name: '' });
    expect(within(failed).getByText('Erro ao salvar configurações RLS')).toBeInTheDocument();
    expect(within(failed).getByText(refusal)).toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Remover papel Norte,Sul' }));
    expect(within(warning).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: `Remover papel Diretoria ${'x'.repeat(45)}` }));
    expect(screen.queryByRole('alert', { name: 'Limites do Power BI' })).not.toBeInTheDocument();
  }, 15_000);

  it("warns as soon as a role is added past Power BI's limits, and caps a new name at 50 characters", async () => {
    api({ rls: Array.from({ length: 50 }, (_, i) => ({ roleName: `Papel ${i + 1}`, userEmails: [] })) });
    const { user } = renderModal();
    await editorReady();
    expect(screen.queryByRole('alert', { name: 'Limites do Power BI' })).not.toBeInTheDocument();
    expect(newRoleInput()).toHaveAttribute('maxLength', '50');
    // Pasted, not typed: fifty role cards make every keystroke slow.
    await user.click(newRoleInput());
    await user.paste('Leste, Oeste');
    await user.keyboard('{Enter}');
    expect(
      within(screen.getByRole('alert', { name: 'Limites do Power BI' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'A configuração RLS tem 51 papéis; são aceitos no máximo 50, o limite do Power BI para uma identidade.',
      "O nome do papel RLS (roleName) 'Leste, Oeste' contém vírgula, que o Power BI não aceita em nomes de papéis.",
    ]);
  }, 15_000);

  it("shows 'Erro ao salvar configurações RLS' in the modal when saving fails, and stays open", async () => {
    api();
    server.use(
      http.post('/api/paineis/9/rls', () =>
        HttpResponse.json({ message: "userEmails: 'x' não é um e-mail válido." }, { status: 400 }),
      ),
    );
    const { user, onHide } = renderModal();
    await editorReady();
    await save(user);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Erro ao salvar configurações RLS')).toBeInTheDocument();
    expect(within(alert).getByText("userEmails: 'x' não é um e-mail válido.")).toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Salvar Configurações' })).toBeEnabled();
  });
});

describe('Configuração RLS: groups in a role', () => {
  const WITH_GROUPS: RlsConfiguration[] = [
    { roleName: 'Gerentes', userEmails: ['ana@empresa.com.br'], grupos: ['g-dir', 'g-apagado'] },
    { roleName: 'Regional', userEmails: [], grupos: ['g-sul'] },
  ];
  const combobox = (roleName: string) => screen.getByRole('combobox', { name: `Adicionar grupo ao papel ${roleName}` });
  /** The options of the list the role's combobox controls (the users' selects have options of their own). */
  const groupOptions = (roleName: string) =>
    within(document.getElementById(combobox(roleName).getAttribute('aria-controls')!)!).queryAllByRole('option');
  const optionNames = (roleName: string) => groupOptions(roleName).map((o) => o.textContent);

  it('shows each role’s groups with name and member count, and an unknown group by id with a hint', async () => {
    api({ rls: WITH_GROUPS });
    renderModal();
    await editorReady();
    const gerentes = role('Gerentes');
    expect(within(gerentes).getByText('Grupos')).toBeInTheDocument();
    expect(within(gerentes).getByText('2 grupos')).toBeInTheDocument();
    const diretoria = within(gerentes).getByRole('button', { name: 'Remover grupo Diretoria do papel Gerentes' });
    expect(diretoria.closest('li')).toHaveTextContent('Diretoria5 membros');
    const unknown = within(gerentes).getByRole('button', { name: 'Remover grupo g-apagado do papel Gerentes' });
    expect(unknown.closest('li')).toHaveTextContent('g-apagado(grupo não encontrado no diretório)');

    // A role of groups only: no e-mail at all.
    const regional = role('Regional');
    expect(within(regional).getByText('Nenhum usuário neste papel.')).toBeInTheDocument();
    expect(within(regional).getByText('1 grupo')).toBeInTheDocument();
    expect(within(regional).getByText('Comercial - Sul')).toBeInTheDocument();
    expect(within(regional).getByText('1 membro')).toBeInTheDocument();
  });

  it('removes groups, the unknown one too, and saves each role with its groups', async () => {
    const { posts } = api({ rls: WITH_GROUPS });
    const { user, onHide } = renderModal();
    await editorReady();
    await user.click(screen.getByRole('button', { name: 'Remover grupo g-apagado do papel Gerentes' }));
    expect(screen.queryByText('(grupo não encontrado no diretório)')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remover grupo Diretoria do papel Gerentes' }));
    expect(within(role('Gerentes')).getByText('Nenhum grupo neste papel.')).toBeInTheDocument();
    expect(within(role('Gerentes')).queryByText(/^\d+ grupos?$/)).not.toBeInTheDocument();
    await save(user);
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([
      [
        { roleName: 'Gerentes', userEmails: ['ana@empresa.com.br'], grupos: [] },
        { roleName: 'Regional', userEmails: [], grupos: ['g-sul'] },
      ],
    ]);
  });

  it('adds a group found by name or description, by keyboard, and sends it with the role', async () => {
    const { posts } = api({ rls: WITH_GROUPS });
    const { user, onHide } = renderModal();
    await editorReady();
    const input = combobox('Gerentes');
    expect(input).toHaveAttribute('aria-expanded', 'false');

    await user.type(input, 'comercial');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('listbox', { name: 'Adicionar grupo ao papel Gerentes' })).toBeInTheDocument();
    expect(optionNames('Gerentes')).toEqual(['Comercial1.234 membros', 'Comercial - Sul1 membro']);
    // The first match is the active one; the arrows move through the list.
    expect(groupOptions('Gerentes')[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    const sul = groupOptions('Gerentes')[1]!;
    expect(sul).toHaveAttribute('aria-selected', 'true');
    expect(input).toHaveAttribute('aria-activedescendant', sul.id);
    await user.keyboard('{Enter}');
    expect(input).toHaveValue('');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(
      within(role('Gerentes')).getByRole('button', { name: 'Remover grupo Comercial - Sul do papel Gerentes' }),
    ).toBeInTheDocument();

    // A group already in the role is not offered again; the search ignores case and accents, and reads descriptions.
    await user.type(input, 'REGIAO');
    expect(groupOptions('Gerentes')).toEqual([]);
    expect(screen.getByText('Nenhum grupo encontrado.')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'orçamento');
    expect(optionNames('Gerentes')).toEqual(['Financeiro0 membros']);
    await user.keyboard('{Enter}');

    await save(user);
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([
      [
        { roleName: 'Gerentes', userEmails: ['ana@empresa.com.br'], grupos: ['g-dir', 'g-apagado', 'g-sul', 'g-fin'] },
        { roleName: 'Regional', userEmails: [], grupos: ['g-sul'] },
      ],
    ]);
  });

  it('adds a group by mouse to a new role that has no e-mails, and Escape closes the list, not the modal', async () => {
    const { posts } = api();
    const { user, onHide } = renderModal();
    await editorReady();
    await user.type(newRoleInput(), 'Diretoria{Enter}');
    const input = combobox('Diretoria');
    await user.click(input);
    expect(optionNames('Diretoria')).toEqual([
      'Comercial1.234 membros',
      'Comercial - Sul1 membro',
      'Diretoria5 membros',
      'Financeiro0 membros',
    ]);
    await user.keyboard('{Escape}');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(onHide).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    await user.type(input, 'dir');
    await user.click(groupOptions('Diretoria')[0]!);
    expect(within(role('Diretoria')).getByText('5 membros')).toBeInTheDocument();

    await save(user);
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([
      [
        { roleName: 'Gerentes', userEmails: ['ana@empresa.com.br'], grupos: [] },
        { roleName: 'Analistas', userEmails: ['bruno@empresa.com.br', 'antigo@empresa.com.br'], grupos: [] },
        { roleName: 'Diretoria', userEmails: [], grupos: ['g-dir'] },
      ],
    ]);
  });

  it("shows 'Erro ao carregar configurações RLS' when the directory's groups fail to load", async () => {
    api();
    server.use(http.get('/api/grupos365', () => HttpResponse.json({}, { status: 500 })));
    renderModal();
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao carregar configurações RLS');
    expect(screen.queryByRole('button', { name: 'Salvar Configurações' })).not.toBeInTheDocument();
  });

  it('marks a public group, says where it gives no role, and names it in the search without offering it', async () => {
    const { posts } = api({
      groups: [...GROUPS, grupoPublico()],
      rls: [{ roleName: 'Gerentes', userEmails: [], grupos: ['g-projeto', 'g-sul'] }],
    });
    const { user, onHide } = renderModal();
    await editorReady();
    const item = (name: string) =>
      within(role('Gerentes'))
        .getByRole('button', { name: `Remover grupo ${name} do papel Gerentes` })
        .closest('li')!;
    // Listed before it became public: kept, marked, and said to give the role to nobody.
    expect(within(item('Projeto Expansão')).getByText(PUBLIC_GROUP_NOTE)).toBeInTheDocument();
    expect(within(item('Projeto Expansão')).getByTitle(PUBLIC_GROUP_NOTE)).toHaveTextContent(/^Público/);
    expect(within(item('Projeto Expansão')).getByText(PUBLIC_GROUP_GRANTS_NO_ROLE)).toBeInTheDocument();
    expect(within(item('Comercial - Sul')).queryByText(PUBLIC_GROUP_NOTE)).not.toBeInTheDocument();
    expect(within(item('Comercial - Sul')).queryByText(PUBLIC_GROUP_GRANTS_NO_ROLE)).not.toBeInTheDocument();

    // Taken out, it is not offered again: the search says why.
    await user.click(screen.getByRole('button', { name: 'Remover grupo Projeto Expansão do papel Gerentes' }));
    await user.type(combobox('Gerentes'), 'expansão');
    expect(groupOptions('Gerentes')).toEqual([]);
    expect(screen.getByText(`${PUBLIC_GROUP_GRANTS_NO_ROLE}: Projeto Expansão.`)).toBeInTheDocument();
    expect(screen.queryByText('Nenhum grupo encontrado.')).not.toBeInTheDocument();
    await user.clear(combobox('Gerentes'));
    await user.type(combobox('Gerentes'), 'comercial');
    expect(optionNames('Gerentes')).toEqual(['Comercial1.234 membros']);

    await save(user);
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([[{ roleName: 'Gerentes', userEmails: [], grupos: ['g-sul'] }]]);
  });

  it('offers a public group, marked, where it may give roles (PUBLIC_GROUPS_GRANT=all)', async () => {
    api({ groups: [...GROUPS, grupoPublico({ concede: { paineis: true, papeisRls: true } })] });
    const { user } = renderModal();
    await editorReady();
    await user.type(combobox('Gerentes'), 'expansão');
    const [option] = groupOptions('Gerentes');
    expect(groupOptions('Gerentes')).toHaveLength(1);
    expect(within(option!).getByText('Projeto Expansão')).toBeInTheDocument();
    expect(within(option!).getByText(PUBLIC_GROUP_NOTE)).toBeInTheDocument();
    await user.keyboard('{Enter}');
    const added = within(role('Gerentes'))
      .getByRole('button', { name: 'Remover grupo Projeto Expansão do papel Gerentes' })
      .closest('li')!;
    expect(within(added).getByText(PUBLIC_GROUP_NOTE)).toBeInTheDocument();
    expect(within(added).queryByText(PUBLIC_GROUP_GRANTS_NO_ROLE)).not.toBeInTheDocument();
  });
});
