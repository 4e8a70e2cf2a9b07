import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_GROUP_NOTE } from '@paineis/contract/group-constants';
import type { Grupo365 } from '@paineis/contract/groups';
import { ASSINATURA_MESSAGES, FALHAS_ENVIO } from '@paineis/contract/subscription-constants';
import type { Assinatura, AssinaturaBody } from '@paineis/contract/subscriptions';
import type { Usuario365 } from '@paineis/contract/users';
import { formatDateMinutes } from '../../../lib/format.ts';
import { browserTimeZone } from '../utils/subscription-schedule.ts';
import {
  assinatura,
  assinaturaAposAtualizacao,
  assinaturaMensal,
  configuracao,
  grupo365,
  grupoPublico,
  mensagemDemonstracao,
  painel,
} from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn } from '../../../test/session.ts';
import { dataRows } from '../../../test/table.ts';

// The reader's own zone is not written after the hour: the schedules read as this test's browser reads them.
const zone = browserTimeZone();

const BRUNO = { id: 'user-1', displayName: 'Bruno Usuário', email: 'bruno@empresa.com.br' };
const CARLA = { id: 'user-2', displayName: 'Carla Gestora', email: 'carla@empresa.com.br' };
const DIEGO = { id: 'user-3', displayName: 'Diego Analista', email: 'diego@empresa.com.br' };

/** Bruno's own weekly subscription, sent once. */
const PROPRIA = assinatura({ fusoHorario: zone, ultimoEnvio: '2026-11-23T10:00:00.000Z' });
/** Ana's, for two people and a group, monthly on the 5th, whose last delivery failed. */
const DA_ADMIN = assinaturaMensal({
  fusoHorario: zone,
  dono: { id: 'admin-1', displayName: 'Ana Admin', email: 'ana.admin@empresa.com.br' },
  destinatarios: { usuarios: [CARLA, DIEGO], grupos: [{ id: 'g-logistica', displayName: 'Logística' }] },
});
/** Carla's, paused. */
const PAUSADA = assinatura({
  id: '55555555-5555-4555-8555-555555555555',
  frequencia: 'diaria',
  diaSemana: null,
  fusoHorario: zone,
  ativa: false,
  situacao: 'pausada',
  proximoEnvio: null,
  dono: CARLA,
});

/**
 * Serves GET /api/assinaturas/todas with `list` (read again on every call); in demo mode, the server says so of its
 * configuration and its outbox answers.
 */
function serveSubscriptions(list: () => Assinatura[], { demo = false } = {}) {
  server.use(http.get('/api/assinaturas/todas', () => HttpResponse.json({ assinaturas: list() })));
  if (demo) {
    server.use(
      http.get('/api/configuracao', () => HttpResponse.json(configuracao({ demonstracao: true }))),
      http.get('/api/demonstracao/caixa-de-saida', () => HttpResponse.json({ mensagens: [mensagemDemonstracao()] })),
    );
  }
}

// The route loads the page lazily: its first transform is done here, not inside a test's wait.
beforeAll(async () => {
  await import('./all-subscriptions-page.tsx');
}, 30_000);

beforeEach(() => {
  // jsdom lays nothing out; the list needs a height for the virtualiser to show rows.
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(560);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(1100);
});

async function openPage() {
  signIn();
  const view = renderApp('/assinaturas/todas');
  expect(await screen.findByRole('heading', { level: 1, name: 'Assinaturas' })).toBeInTheDocument();
  return view;
}

const count = () => screen.getByText(/de \d+ assinaturas?$/);

describe('/assinaturas/todas: Assinaturas', () => {
  it('lists every subscription: panel, owner, recipients, schedule, deliveries, status and the last failure', async () => {
    serveSubscriptions(() => [PROPRIA, DA_ADMIN, PAUSADA]);
    await openPage();
    await screen.findByText('Estoque Diário');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Painel',
      'Dono',
      'Destinatários',
      'Agenda',
      'Próximo envio',
      'Último envio',
      'Situação',
      'Ações',
    ]);
    expect(dataRows()).toEqual([
      [
        'Vendas por Região PDF',
        'Bruno Usuáriobruno@empresa.com.br',
        'Só o dono',
        'Toda segunda-feira às 07:00',
        formatDateMinutes(new Date('2026-11-30T10:00:00.000Z')),
        formatDateMinutes(new Date('2026-11-23T10:00:00.000Z')),
        'Ativa',
        'PausarExcluir',
      ],
      [
        'Estoque Diário PowerPoint',
        'Ana Adminana.admin@empresa.com.br',
        // The names are in the page (hidden until expanded), so a screen reader's list reads them too.
        '2 pessoas, 1 grupoCarla GestoraDiego AnalistaGrupo: Logística',
        'Todo dia 5 às 07:00',
        formatDateMinutes(new Date('2026-11-30T10:00:00.000Z')),
        '—',
        `Ativa` +
          `Falha em ${formatDateMinutes(new Date('2026-11-05T10:02:00.000Z'))}: O Power BI não conseguiu exportar o relatório.`,
        'PausarExcluir',
      ],
      [
        'Vendas por Região PDF',
        'Carla Gestoracarla@empresa.com.br',
        'Só o dono',
        'Diária às 07:00',
        '—',
        '—',
        'Pausada',
        'RetomarExcluir',
      ],
    ]);
    expect(screen.getByText(/^Falha em/)).toHaveClass('text-danger');
    expect(count()).toHaveTextContent('3 de 3 assinaturas');
  });

  it('draws only the rows in view of a long list', async () => {
    const many = Array.from({ length: 500 }, (_, i) =>
      assinatura({ id: `id-${i}`, nomePainel: `Painel ${i + 1}`, fusoHorario: zone }),
    );
    serveSubscriptions(() => many);
    // Every row 58 px high, as drawn.
    await openPage();
    await screen.findByText('Painel 1');
    expect(count()).toHaveTextContent('500 de 500 assinaturas');
    const drawn = screen.getAllByRole('row').length - 1;
    expect(drawn).toBeGreaterThan(5);
    expect(drawn).toBeLessThan(40);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '501');
    expect(screen.queryByText('Painel 500')).not.toBeInTheDocument();
  });

  it("names the recipients on hover (the button's title) and when expanded", async () => {
    serveSubscriptions(() => [DA_ADMIN]);
    const { user } = await openPage();
    const button = await screen.findByRole('button', { name: '2 pessoas, 1 grupo' });
    expect(button).toHaveAttribute('title', 'Carla Gestora\nDiego Analista\nGrupo: Logística');
    const names = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(names).not.toBeVisible();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(names).toBeVisible();
    expect(
      within(names)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Carla Gestora', 'Diego Analista', 'Grupo: Logística']);
  });

  it("filters by panel or person (ignoring accents and case), and 'Somente com falha'", async () => {
    serveSubscriptions(() => [PROPRIA, DA_ADMIN, PAUSADA]);
    const { user } = await openPage();
    await screen.findByText('Estoque Diário');
    const search = screen.getByPlaceholderText('Buscar por painel ou pessoa...');

    await user.type(search, 'VENDAS POR REGIAO');
    expect(count()).toHaveTextContent('2 de 3 assinaturas');
    expect(screen.queryByText('Estoque Diário')).not.toBeInTheDocument();

    // A recipient's e-mail finds the subscriptions they receive, and the owner's name their own.
    await user.clear(search);
    await user.type(search, 'diego@');
    expect(count()).toHaveTextContent('1 de 3 assinaturas');
    expect(screen.getByText('Estoque Diário')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'carla');
    expect(count()).toHaveTextContent('2 de 3 assinaturas');
    // A group's name too.
    await user.clear(search);
    await user.type(search, 'logistica');
    expect(count()).toHaveTextContent('1 de 3 assinaturas');

    await user.clear(search);
    await user.click(screen.getByRole('checkbox', { name: 'Somente com falha' }));
    expect(count()).toHaveTextContent('1 de 3 assinaturas');
    expect(dataRows().map((cells) => cells[0])).toEqual(['Estoque Diário PowerPoint']);

    await user.type(search, 'bruno');
    expect(count()).toHaveTextContent('0 de 3 assinaturas');
    expect(screen.getByText('Nenhuma assinatura encontrada.')).toBeInTheDocument();
  });

  it("shows the server's message when the list does not load, and tries again", async () => {
    let fail = true;
    server.use(
      http.get('/api/assinaturas/todas', () =>
        fail
          ? HttpResponse.json({ message: 'Somente administradores.' }, { status: 403 })
          : HttpResponse.json({ assinaturas: [PROPRIA] }),
      ),
    );
    const { user } = await openPage();
    expect(await screen.findByText('Somente administradores.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Vendas por Região')).toBeInTheDocument();
  });

  it("says under 'Sem acesso' why nothing is sent, whole in its title, and gives the row the room for it", async () => {
    /** Ana's for others, stopped since she lost her role, and whose last delivery failed too. */
    const PARADA = assinatura({
      ...DA_ADMIN,
      situacao: 'sem-acesso',
      motivoSituacao: ASSINATURA_MESSAGES.donoNaoAdministrador,
    });
    /** Carla's own, which nobody may open now. */
    const SEM_ACESSO = assinatura({
      ...PAUSADA,
      ativa: true,
      situacao: 'sem-acesso',
      motivoSituacao: ASSINATURA_MESSAGES.donoSemAcesso,
    });
    serveSubscriptions(() => [PROPRIA, SEM_ACESSO, PARADA]);
    await openPage();
    await screen.findByText('Estoque Diário');
    const situacao = dataRows().map((cells) => cells[6]);
    expect(situacao).toEqual([
      'Ativa',
      `Sem acesso${ASSINATURA_MESSAGES.donoSemAcesso}`,
      `Sem acesso${ASSINATURA_MESSAGES.donoNaoAdministrador}` +
        `Falha em ${formatDateMinutes(new Date('2026-11-05T10:02:00.000Z'))}: ${FALHAS_ENVIO.exportacao}`,
    ]);
    const reason = screen.getByText(ASSINATURA_MESSAGES.donoNaoAdministrador);
    expect(reason).toHaveClass('small');
    expect(reason).toHaveAttribute('title', ASSINATURA_MESSAGES.donoNaoAdministrador);
    // Each text under the badge takes two small lines at most: the row is tall enough for all it holds.
    const heights = screen
      .getAllByRole('row')
      .slice(1)
      .map((tr) => tr.style.height);
    expect(heights).toEqual(['57px', '78px', '120px']);
  });

  it("describes a subscription sent after each refresh: 'Quando os dados forem atualizados', 'após a próxima atualização'", async () => {
    const limited = assinaturaAposAtualizacao({ fusoHorario: zone });
    const every = assinaturaAposAtualizacao({
      id: 'id-2',
      nomePainel: 'Metas',
      intervaloHoras: null,
      fusoHorario: zone,
    });
    const paused = assinaturaAposAtualizacao({ ...PAUSADA, id: 'id-3', frequencia: 'apos-atualizacao', hora: null });
    serveSubscriptions(() => [limited, every, paused]);
    await openPage();
    await screen.findByText('Metas');
    expect(dataRows().map((cells) => cells.slice(3, 5))).toEqual([
      ['Quando os dados forem atualizados, no máximo uma vez a cada 6 horas', 'após a próxima atualização'],
      ['Quando os dados forem atualizados', 'após a próxima atualização'],
      // Paused: as any paused subscription.
      ['Quando os dados forem atualizados', '—'],
    ]);
  });

  it("writes 'Próximo envio' and 'Último envio' in the subscription's zone, named on a line of its own", async () => {
    // 2026-12-04 22:00 UTC is 07:00 on the 5th in Tokyo, whatever this browser's zone.
    const other = zone === 'Asia/Tokyo' ? 'America/Sao_Paulo' : 'Asia/Tokyo';
    const tokyo = assinaturaMensal({
      fusoHorario: other,
      ultimaFalha: null,
      proximoEnvio: '2026-12-04T22:00:00.000Z',
      ultimoEnvio: '2026-11-04T22:00:00.000Z',
    });
    serveSubscriptions(() => [tokyo, PROPRIA]);
    await openPage();
    await screen.findByText('Estoque Diário');
    const [first, second] = dataRows();
    const expected =
      other === 'Asia/Tokyo' ? ['05/12/2026 07:00', '05/11/2026 07:00'] : ['04/12/2026 19:00', '04/11/2026 19:00'];
    expect(first!.slice(4, 6)).toEqual(expected.map((when) => `${when}(${other})`));
    // The browser's own zone is not named.
    expect(second!.slice(4, 6)).toEqual([
      formatDateMinutes(new Date('2026-11-30T10:00:00.000Z')),
      formatDateMinutes(new Date('2026-11-23T10:00:00.000Z')),
    ]);
    // The zone is never broken mid-word: one line of its own, cut with an ellipsis if it must, whole in its title.
    const zones = screen.getAllByText(`(${other})`);
    expect(zones).toHaveLength(2);
    for (const name of zones) {
      expect(name).toHaveClass('text-truncate');
      expect(name).toHaveAttribute('title', `(${other})`);
      expect(name.previousElementSibling).toHaveClass('text-nowrap');
    }
  });

  it("gives 'Painel' the width the other columns leave, 'Ações' only its buttons'", async () => {
    serveSubscriptions(() => [PROPRIA]);
    await openPage();
    await screen.findByText('Vendas por Região');
    const widths = [...document.querySelectorAll('table col')].map((col) => (col as HTMLElement).style.width);
    expect(widths).toHaveLength(8);
    // 'Painel' has no width of its own: it takes what is left; every other column is sized.
    expect(widths[0]).toBe('');
    expect(widths.slice(1).every((width) => width !== '')).toBe(true);
    // The name wraps onto a second line rather than being cut on the first; whole in the title with its format.
    const name = screen.getByText('Vendas por Região');
    expect(name).not.toHaveClass('text-truncate');
    expect(name.parentElement).toHaveAttribute('title', 'Vendas por Região\nPDF');
  });

  it("links to 'Caixa de saída (demonstração)' in demo mode only", async () => {
    serveSubscriptions(() => [PROPRIA], { demo: true });
    const { user, location } = await openPage();
    const link = await screen.findByRole('link', { name: 'Caixa de saída (demonstração)' });
    await user.click(link);
    expect(location().pathname).toBe('/caixa-de-saida');
  });

  it('has no outbox link outside demo mode, as the server says of its configuration', async () => {
    let asked = false;
    serveSubscriptions(() => [PROPRIA]);
    server.use(
      http.get('/api/configuracao', () => {
        asked = true;
        return HttpResponse.json(configuracao({ demonstracao: false }));
      }),
    );
    await openPage();
    await screen.findByText('Vendas por Região');
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByRole('link', { name: 'Caixa de saída (demonstração)' })).not.toBeInTheDocument();
  });
});

const PESSOAS: Usuario365[] = [
  { ...BRUNO, department: 'Vendas' },
  { ...CARLA, department: 'Gestão' },
  { ...DIEGO, department: null },
];
const GRUPOS: Grupo365[] = [
  grupo365(),
  grupo365({ id: 'g-logistica', nome: 'Logística', descricao: 'Centro de distribuição', membros: 30 }),
  grupoPublico({ id: 'g-expansao', nome: 'Projeto Expansão' }),
];

/** The pickers' lists, and POST /api/assinaturas answered by `answer`; returns the bodies received. */
function serveCreation(answer: (body: AssinaturaBody) => Response) {
  const bodies: AssinaturaBody[] = [];
  server.use(
    http.get('/api/paineis', () =>
      HttpResponse.json([painel(), painel({ id: 9, nomePainel: 'Estoque Diário', classificacaoNome: 'Logística' })]),
    ),
    http.get('/api/usuarios365/ativos', () => HttpResponse.json(PESSOAS)),
    http.get('/api/grupos365', () => HttpResponse.json(GRUPOS)),
    http.post('/api/assinaturas', async ({ request }) => {
      const body = (await request.json()) as AssinaturaBody;
      bodies.push(body);
      return answer(body);
    }),
  );
  return bodies;
}

// Typing into the pickers, a key at a time, takes a few seconds in jsdom.
describe("/assinaturas/todas: 'Nova assinatura para pessoas e grupos'", { timeout: 20_000 }, () => {
  async function openModal() {
    const view = await openPage();
    await view.user.click(screen.getByRole('button', { name: 'Nova assinatura' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova assinatura para pessoas e grupos' });
    return { ...view, dialog };
  }

  /** Types into a picker and chooses the option named `option`. */
  async function choose(user: ReturnType<typeof renderApp>['user'], picker: string, typed: string, option: RegExp) {
    const box = screen.getByRole('combobox', { name: picker });
    await waitFor(() => expect(box).toBeEnabled());
    await user.type(box, typed);
    await user.click(await screen.findByRole('option', { name: option }));
  }

  it('sends the panel, the people, the groups and the schedule, then the list shows the new subscription', async () => {
    const list = [PROPRIA];
    const bodies = serveCreation(() => {
      list.push(DA_ADMIN);
      return HttpResponse.json(DA_ADMIN, { status: 201 });
    });
    serveSubscriptions(() => list);
    const { user, dialog } = await openModal();

    await choose(user, 'Painel', 'estoque', /Estoque Diário/);
    expect(within(dialog).getByText('Estoque Diário')).toBeInTheDocument();
    await choose(user, 'Pessoas', 'carla', /Carla Gestora/);
    await choose(user, 'Pessoas', 'diego@', /Diego Analista/);
    // Someone chosen is not offered again.
    await user.type(screen.getByRole('combobox', { name: 'Pessoas' }), 'carla');
    expect(screen.queryByRole('option', { name: /Carla Gestora/ })).not.toBeInTheDocument();
    await user.clear(screen.getByRole('combobox', { name: 'Pessoas' }));
    await choose(user, 'Grupos', 'logis', /Logística/);
    await choose(user, 'Grupos', 'comercial', /Comercial/);
    // Changed one's mind about a group.
    await user.click(within(dialog).getByRole('button', { name: 'Remover Comercial' }));

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Formato' }), 'PowerPoint');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Frequência' }), 'Mensal');
    expect(within(dialog).queryByRole('combobox', { name: 'Dia da semana' })).not.toBeInTheDocument();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Dia do mês' }), '5');
    const hour = within(dialog).getByLabelText('Hora');
    await user.clear(hour);
    await user.type(hour, '06:30');
    const zones = within(dialog).getByRole('combobox', { name: 'Fuso horário' });
    expect(zones).toHaveDisplayValue('Padrão do portal');
    await user.selectOptions(zones, 'America/Manaus');

    await user.click(within(dialog).getByRole('button', { name: 'Criar assinatura' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([
      {
        painelId: 9,
        formato: 'PPTX',
        frequencia: 'mensal',
        hora: '06:30',
        diaMes: 5,
        fusoHorario: 'America/Manaus',
        destinatarios: { usuarios: ['user-2', 'user-3'], grupos: ['g-logistica'] },
      },
    ]);
    expect(screen.getByText('Assinatura criada.')).toBeInTheDocument();
    // The list was asked again and shows it.
    expect(await screen.findByText('Estoque Diário')).toBeInTheDocument();
    expect(count()).toHaveTextContent('2 de 2 assinaturas');
  });

  it('marks a public Microsoft 365 group among the groups offered and chosen', async () => {
    serveCreation(() => HttpResponse.json(DA_ADMIN, { status: 201 }));
    serveSubscriptions(() => [PROPRIA]);
    const { user, dialog } = await openModal();
    const box = screen.getByRole('combobox', { name: 'Grupos' });
    await waitFor(() => expect(box).toBeEnabled());
    await user.type(box, 'proj');
    const option = await screen.findByRole('option', { name: /Projeto Expansão/ });
    expect(option).toHaveTextContent(PUBLIC_GROUP_NOTE);
    await user.click(option);
    const chosen = within(dialog).getByRole('list', { name: 'Grupos escolhidos' });
    expect(within(chosen).getByTitle(PUBLIC_GROUP_NOTE)).toHaveTextContent('Público');
    await user.type(box, 'logis');
    expect(await screen.findByRole('option', { name: /Logística/ })).not.toHaveTextContent(PUBLIC_GROUP_NOTE);
  });

  it("sends a weekly schedule with its weekday and no zone for 'Padrão do portal'", async () => {
    const bodies = serveCreation(() => HttpResponse.json(PROPRIA, { status: 201 }));
    serveSubscriptions(() => [PROPRIA]);
    const { user, dialog } = await openModal();
    await choose(user, 'Painel', 'vendas', /Vendas por Região/);
    await choose(user, 'Grupos', 'comercial', /Comercial/);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Dia da semana' }), 'sexta-feira');
    await user.click(within(dialog).getByRole('button', { name: 'Criar assinatura' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      painelId: 7,
      formato: 'PDF',
      frequencia: 'semanal',
      hora: '07:00',
      diaSemana: 5,
      destinatarios: { usuarios: [], grupos: ['g-comercial'] },
    });
  });

  it('asks for a panel and a recipient before sending anything', async () => {
    const bodies = serveCreation(() => HttpResponse.json(PROPRIA, { status: 201 }));
    serveSubscriptions(() => [PROPRIA]);
    const { user, dialog } = await openModal();
    const create = within(dialog).getByRole('button', { name: 'Criar assinatura' });
    await user.click(create);
    expect(within(dialog).getByText('Escolha um painel.')).toBeInTheDocument();
    await choose(user, 'Painel', 'vendas', /Vendas por Região/);
    await user.click(create);
    expect(within(dialog).getByText('Escolha ao menos uma pessoa ou um grupo.')).toBeInTheDocument();
    await choose(user, 'Grupos', 'comercial', /Comercial/);
    await user.clear(within(dialog).getByLabelText('Hora'));
    await user.click(create);
    expect(within(dialog).getByLabelText('Hora')).toHaveClass('is-invalid');
    expect(within(dialog).getByText('Informe a hora no formato HH:MM.')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it("shows the server's refusal and stays open to correct it", async () => {
    const bodies = serveCreation(() =>
      HttpResponse.json(
        { message: 'A exportação está desativada para este painel, e a assinatura depende dela.' },
        { status: 403 },
      ),
    );
    serveSubscriptions(() => [PROPRIA]);
    const { user, dialog } = await openModal();
    await choose(user, 'Painel', 'vendas', /Vendas por Região/);
    await choose(user, 'Pessoas', 'bruno', /Bruno Usuário/);
    await user.click(within(dialog).getByRole('button', { name: 'Criar assinatura' }));
    expect(
      await within(dialog).findByText('A exportação está desativada para este painel, e a assinatura depende dela.'),
    ).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.queryByText('Assinatura criada.')).not.toBeInTheDocument();
  });

  it('says when the people could not be loaded, and loads them again', async () => {
    serveCreation(() => HttpResponse.json(PROPRIA, { status: 201 }));
    let fail = true;
    server.use(
      http.get('/api/usuarios365/ativos', () =>
        fail ? HttpResponse.json({ message: 'Falha no diretório.' }, { status: 500 }) : HttpResponse.json(PESSOAS),
      ),
    );
    serveSubscriptions(() => [PROPRIA]);
    const { user, dialog } = await openModal();
    expect(await within(dialog).findByText('Falha no diretório.')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Pessoas' })).toBeDisabled();
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Tentar novamente' }));
    await choose(user, 'Pessoas', 'carla', /Carla Gestora/);
    expect(within(dialog).getByRole('list', { name: 'Pessoas escolhidas' })).toHaveTextContent('Carla Gestora');
  });
});

/**
 * GET /api/assinaturas/todas answers the list as it is now, and how many times it was asked; each change the page asks
 * for is recorded and applied as the server would for an administrator.
 */
function serveChanges(initial: Assinatura[]) {
  let list = initial;
  const reads = { count: 0 };
  const calls: { method: string; path: string; body?: unknown }[] = [];
  server.use(
    http.get('/api/assinaturas/todas', () => {
      reads.count += 1;
      return HttpResponse.json({ assinaturas: list });
    }),
    http.patch('/api/assinaturas/:id', async ({ request, params }) => {
      const body = (await request.json()) as { ativa: boolean };
      calls.push({ method: 'PATCH', path: new URL(request.url).pathname, body });
      list = list.map((a) =>
        a.id === params.id
          ? {
              ...a,
              ativa: body.ativa,
              situacao: body.ativa ? 'ativa' : 'pausada',
              proximoEnvio: body.ativa ? '2026-11-30T10:00:00.000Z' : null,
            }
          : a,
      );
      return HttpResponse.json(list.find((a) => a.id === params.id));
    }),
    http.delete('/api/assinaturas/:id', ({ request, params }) => {
      calls.push({ method: 'DELETE', path: new URL(request.url).pathname });
      list = list.filter((a) => a.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { calls, reads, remove: (id: string) => (list = list.filter((a) => a.id !== id)) };
}

/** The cells of the row of this panel and owner. */
const rowOf = (panel: string, owner: string) =>
  screen.getAllByRole('row').find((tr) => tr.textContent.includes(panel) && tr.textContent.includes(owner))!;

describe("/assinaturas/todas: 'Pausar', 'Retomar' and 'Excluir' anyone's subscription", () => {
  it("resumes and pauses another person's subscription, and the list is read again after each", async () => {
    const { calls, reads } = serveChanges([PROPRIA, PAUSADA]);
    const { user } = await openPage();
    await screen.findByText('Carla Gestora');
    // Named for screen readers by panel and owner: the panel alone does not tell the rows apart.
    expect(
      screen.getByRole('button', { name: 'Pausar a assinatura de Vendas por Região de Bruno Usuário' }),
    ).toBeVisible();
    expect(
      screen.getByRole('button', { name: 'Excluir a assinatura de Vendas por Região de Bruno Usuário' }),
    ).toBeVisible();

    const before = reads.count;
    await user.click(
      screen.getByRole('button', { name: 'Retomar a assinatura de Vendas por Região de Carla Gestora' }),
    );
    const pause = await screen.findByRole('button', {
      name: 'Pausar a assinatura de Vendas por Região de Carla Gestora',
    });
    expect(within(rowOf('Vendas por Região', 'Carla Gestora')).getByText('Ativa')).toBeInTheDocument();
    await waitFor(() => expect(reads.count).toBe(before + 1));

    await user.click(pause);
    await screen.findByRole('button', { name: 'Retomar a assinatura de Vendas por Região de Carla Gestora' });
    expect(within(rowOf('Vendas por Região', 'Carla Gestora')).getByText('Pausada')).toBeInTheDocument();
    await waitFor(() => expect(reads.count).toBe(before + 2));
    expect(calls).toEqual([
      { method: 'PATCH', path: `/api/assinaturas/${PAUSADA.id}`, body: { ativa: true } },
      { method: 'PATCH', path: `/api/assinaturas/${PAUSADA.id}`, body: { ativa: false } },
    ]);
    // Bruno's was left alone.
    expect(within(rowOf('Vendas por Região', 'Bruno Usuário')).getByText('Ativa')).toBeInTheDocument();
  });

  it("deletes another person's subscription once confirmed, naming its panel and owner", async () => {
    const { calls } = serveChanges([PROPRIA, PAUSADA]);
    const { user } = await openPage();
    await screen.findByText('Carla Gestora');
    await user.click(
      screen.getByRole('button', { name: 'Excluir a assinatura de Vendas por Região de Carla Gestora' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Excluir assinatura' });
    expect(dialog).toHaveTextContent(
      'A assinatura de Vendas por Região de Carla Gestora será excluída e não será mais enviada.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));

    await waitFor(() => expect(screen.queryByText('Carla Gestora')).not.toBeInTheDocument());
    expect(count()).toHaveTextContent('1 de 1 assinatura');
    expect(calls).toEqual([{ method: 'DELETE', path: `/api/assinaturas/${PAUSADA.id}` }]);
  });

  it("shows the server's refusal (or says the change failed), and the list as it is now when it was gone", async () => {
    const { remove } = serveChanges([PROPRIA, PAUSADA]);
    server.use(
      http.patch('/api/assinaturas/:id', () => new HttpResponse(null, { status: 502 })),
      http.delete('/api/assinaturas/:id', () =>
        HttpResponse.json({ message: ASSINATURA_MESSAGES.naoEncontrada }, { status: 404 }),
      ),
    );
    const { user } = await openPage();
    await screen.findByText('Carla Gestora');
    await user.click(
      screen.getByRole('button', { name: 'Retomar a assinatura de Vendas por Região de Carla Gestora' }),
    );
    // No message of the server's: the page's own.
    expect(await screen.findByText('Não foi possível alterar a assinatura.')).toBeInTheDocument();
    expect(within(rowOf('Vendas por Região', 'Carla Gestora')).getByText('Pausada')).toBeInTheDocument();

    // Deleted by its owner meanwhile.
    remove(PAUSADA.id);
    await user.click(
      screen.getByRole('button', { name: 'Excluir a assinatura de Vendas por Região de Carla Gestora' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Excluir assinatura' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText(ASSINATURA_MESSAGES.naoEncontrada)).toBeInTheDocument();
    expect(screen.queryByText('Não foi possível alterar a assinatura.')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Carla Gestora')).not.toBeInTheDocument());
  });
});
