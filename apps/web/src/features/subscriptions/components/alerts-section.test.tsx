import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Alertas, AlertasBody } from '@paineis/contract/alerts';
import type { Grupo365 } from '@paineis/contract/groups';
import type { Usuario365 } from '@paineis/contract/users';
import { grupo365 } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn } from '../../../test/session.ts';
import { ALERTS_NEED_RECIPIENT, ALERTS_SAVED } from './alerts-section.tsx';

const CARLA = { id: 'user-2', displayName: 'Carla Gestora', email: 'carla@empresa.com.br' };
const PESSOAS = [CARLA, { id: 'user-3', displayName: 'Diego Analista', email: 'diego@empresa.com.br' }].map(
  (p) => ({ ...p, department: null, jobTitle: null }) as unknown as Usuario365,
);
const GRUPOS: Grupo365[] = [grupo365({ id: 'g-dados', nome: 'Time de Dados' })];

const EMPTY: Alertas = { eventos: [], destinatarios: { usuarios: [], grupos: [] }, abertos: [], encerrados: [] };
const OPEN: Alertas = {
  eventos: ['falha-atualizacao'],
  destinatarios: { usuarios: [CARLA], grupos: [] },
  abertos: [
    {
      id: 'i-1',
      evento: 'falha-atualizacao',
      titulo: 'Vendas, Metas',
      mensagem: 'As credenciais da fonte de dados SQL expiraram.',
      paineis: [
        { id: 1, nome: 'Vendas' },
        { id: 2, nome: 'Metas' },
      ],
      abertoEm: '2026-11-30T10:00:00.000Z',
      fechadoEm: null,
      avisoAberturaEm: '2026-11-30T10:00:05.000Z',
      avisoFechamentoEm: null,
    },
  ],
  encerrados: [],
};

/** GET /api/alertas answers `current`; PUT records the body and answers `answer`. */
function serveAlerts(current: Alertas, answer: (body: AlertasBody) => Response) {
  const bodies: AlertasBody[] = [];
  server.use(
    http.get('/api/assinaturas/todas', () => HttpResponse.json({ assinaturas: [] })),
    http.get('/api/alertas', () => HttpResponse.json(current)),
    http.put('/api/alertas', async ({ request }) => {
      const body = (await request.json()) as AlertasBody;
      bodies.push(body);
      return answer(body);
    }),
    http.get('/api/usuarios365/ativos', () => HttpResponse.json(PESSOAS)),
    http.get('/api/grupos365', () => HttpResponse.json(GRUPOS)),
  );
  return bodies;
}

beforeAll(async () => {
  await import('./all-subscriptions-page.tsx');
}, 30_000);

beforeEach(() => {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(560);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(1100);
});

async function openSection() {
  signIn();
  const view = renderApp('/assinaturas/todas');
  const heading = await screen.findByRole('heading', { level: 2, name: 'Alertas' });
  return { ...view, section: heading.closest('.card') as HTMLElement };
}

describe("/assinaturas/todas: 'Alertas'", { timeout: 20_000 }, () => {
  it('shows the events on, the recipients and the incidents open now', async () => {
    serveAlerts(OPEN, () => HttpResponse.json(OPEN));
    const { section } = await openSection();
    const open = await within(section).findByRole('list', { name: 'Incidentes abertos' });
    expect(open).toHaveTextContent('Falha na atualização dos dados: Vendas, Metas');
    expect(open).toHaveTextContent('As credenciais da fonte de dados SQL expiraram.');
    expect(section).toHaveTextContent('Eventos: Falha na atualização dos dados');
    expect(section).toHaveTextContent('Destinatários: Carla Gestora');
  });

  it('saves the events and the people and groups chosen, and says so', async () => {
    const bodies = serveAlerts(EMPTY, (body) =>
      HttpResponse.json({
        ...EMPTY,
        eventos: body.eventos,
        destinatarios: { usuarios: [CARLA], grupos: [{ id: 'g-dados', displayName: 'Time de Dados' }] },
      }),
    );
    const { user, section } = await openSection();
    expect(await within(section).findByText('Nenhum incidente aberto.')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Alterar alertas' }));
    await user.click(within(section).getByRole('checkbox', { name: 'Falha na atualização dos dados' }));
    await user.click(within(section).getByRole('checkbox', { name: 'Painel indisponível' }));

    // An event on needs someone to tell.
    await user.click(within(section).getByRole('button', { name: 'Salvar' }));
    expect(await within(section).findByText(ALERTS_NEED_RECIPIENT)).toBeInTheDocument();
    expect(bodies).toEqual([]);

    const people = within(section).getByRole('combobox', { name: 'Pessoas que recebem os alertas' });
    await waitFor(() => expect(people).toBeEnabled());
    await user.type(people, 'carla');
    await user.click(await screen.findByRole('option', { name: /Carla Gestora/ }));
    const groups = within(section).getByRole('combobox', { name: 'Grupos que recebem os alertas' });
    await waitFor(() => expect(groups).toBeEnabled());
    await user.type(groups, 'dados');
    await user.click(await screen.findByRole('option', { name: /Time de Dados/ }));
    await user.click(within(section).getByRole('button', { name: 'Salvar' }));

    expect(await within(section).findByText(ALERTS_SAVED)).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        eventos: ['falha-atualizacao', 'painel-indisponivel'],
        destinatarios: { usuarios: ['user-2'], grupos: ['g-dados'] },
      },
    ]);
    expect(section).toHaveTextContent('Destinatários: Carla Gestora, Time de Dados (grupo)');
  });

  it('shows the server’s refusal', async () => {
    serveAlerts(OPEN, () =>
      HttpResponse.json({ message: 'Uma das pessoas ou um dos grupos escolhidos não existe.' }, { status: 400 }),
    );
    const { user, section } = await openSection();
    await user.click(await within(section).findByRole('button', { name: 'Alterar alertas' }));
    await user.click(within(section).getByRole('button', { name: 'Salvar' }));
    expect(
      await within(section).findByText('Uma das pessoas ou um dos grupos escolhidos não existe.'),
    ).toBeInTheDocument();
  });
});
