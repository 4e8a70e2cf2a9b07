import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Capacidade, MudancaCapacidade, PoliticaCapacidade } from '@paineis/contract/capacity';
import { MOTIVOS_CAPACIDADE } from '@paineis/contract/capacity-constants';
import { formatDateTime } from '../../../lib/format.ts';
import { capacidade, mudancaCapacidade } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';
import { dataRows } from '../../../test/table.ts';

/** Serves the capacity (the latest of `states`, one per GET, the last repeated) and its history; counts the GETs. */
function serve(states: Capacidade[], historico: MudancaCapacidade[] = []) {
  const asked = { capacity: 0, history: 0 };
  server.use(
    http.get('/api/capacidade', () => {
      const answer = states[Math.min(asked.capacity, states.length - 1)]!;
      asked.capacity += 1;
      return HttpResponse.json(answer);
    }),
    http.get('/api/capacidade/historico', () => {
      asked.history += 1;
      return HttpResponse.json(historico);
    }),
  );
  return asked;
}

/** Records each action's request: its method, path and body. */
function recordActions(answer: () => Response = () => new HttpResponse(null, { status: 202 })) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const record = async ({ request }: { request: Request }) => {
    const text = await request.text();
    calls.push({ method: request.method, path: new URL(request.url).pathname, body: text ? JSON.parse(text) : null });
    return answer();
  };
  server.use(
    http.post('/api/capacidade/pausar', record),
    http.post('/api/capacidade/retomar', record),
    http.put('/api/capacidade/sku', record),
    http.put('/api/capacidade/politica', record),
  );
  return calls;
}

const stateCard = () => screen.getByRole('region', { name: 'Estado' });
const button = (name: string) => within(stateCard()).getByRole('button', { name });

describe('/capacidade', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows 'Capacidade do Power BI' with the state, SKU and kind, and Azure's complaint as a warning", async () => {
    signIn(ADMIN);
    serve([
      capacidade({
        mensagem: 'AuthorizationFailed: o principal de serviço não tem permissão para suspender a capacidade.',
      }),
    ]);
    renderApp('/capacidade');
    // The screen's chunk (and the chart library) is fetched on the first visit: slow on a busy machine.
    const card = await screen.findByRole('region', { name: 'Estado' }, { timeout: 10_000 });
    expect(screen.getByRole('heading', { level: 1, name: 'Capacidade do Power BI' })).toBeInTheDocument();
    expect(within(card).getByText('Ativa')).toBeInTheDocument();
    expect(within(card).getByText('A1')).toBeInTheDocument();
    expect(within(card).getByText('Power BI Embedded')).toBeInTheDocument();
    expect(within(card).getByText('paineis-a1')).toBeInTheDocument();
    expect(within(card).getByText(formatDateTime(new Date('2026-11-28T13:05:09.000Z')))).toBeInTheDocument();
    expect(
      within(card).getByText(
        'AuthorizationFailed: o principal de serviço não tem permissão para suspender a capacidade.',
      ),
    ).toHaveClass('alert-warning');
    expect(screen.getByRole('link', { name: 'Capacidade' })).toHaveAttribute('aria-current', 'page');
  }, 20_000);

  it("names an F SKU's kind 'Fabric'", async () => {
    signIn(ADMIN);
    serve([capacidade({ tipo: 'fabric', sku: 'F64' })]);
    renderApp('/capacidade');
    const card = await screen.findByRole('region', { name: 'Estado' });
    expect(within(card).getByText('Fabric')).toBeInTheDocument();
    expect(within(card).getByText('F64')).toBeInTheDocument();
  });

  it('offers the actions the state allows: no Pausar when paused, none while Azure changes it', async () => {
    signIn(ADMIN);
    serve([capacidade({ estado: 'ativa' })]);
    const first = renderApp('/capacidade');
    await screen.findByRole('region', { name: 'Estado' });
    expect(button('Pausar')).toBeEnabled();
    expect(button('Retomar')).toBeDisabled();
    expect(button('Alterar SKU')).toBeEnabled();
    first.unmount();

    serve([capacidade({ estado: 'pausada' })]);
    const second = renderApp('/capacidade');
    expect(await screen.findByText('Pausada')).toBeInTheDocument();
    expect(button('Pausar')).toBeDisabled();
    expect(button('Retomar')).toBeEnabled();
    second.unmount();

    serve([capacidade({ estado: 'retomando' })]);
    renderApp('/capacidade');
    expect(await screen.findByText('Retomando…')).toBeInTheDocument();
    for (const name of ['Pausar', 'Retomar', 'Alterar SKU']) expect(button(name)).toBeDisabled();
  });

  it("confirms 'Pausar' in a dialog, sends the reason to POST /capacidade/pausar and shows the new state", async () => {
    signIn(ADMIN);
    serve([capacidade({ estado: 'ativa' }), capacidade({ estado: 'pausando' })]);
    const calls = recordActions();
    const { user } = renderApp('/capacidade');
    await screen.findByRole('region', { name: 'Estado' });

    // Cancelled: nothing is sent.
    await user.click(button('Pausar'));
    let dialog = await screen.findByRole('dialog', { name: 'Pausar a capacidade' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);

    await user.click(button('Pausar'));
    dialog = await screen.findByRole('dialog', { name: 'Pausar a capacidade' });
    expect(dialog).toHaveTextContent('os relatórios não abrem');
    await user.type(within(dialog).getByLabelText('Motivo (opcional)'), 'Feriado');
    await user.click(within(dialog).getByRole('button', { name: 'Pausar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([{ method: 'POST', path: '/api/capacidade/pausar', body: { motivo: 'Feriado' } }]);
    expect(await screen.findByText('Pausando…')).toBeInTheDocument();
  });

  it("confirms 'Retomar' with POST /capacidade/retomar, without a reason when none is given", async () => {
    signIn(ADMIN);
    serve([capacidade({ estado: 'pausada' })]);
    const calls = recordActions();
    const { user } = renderApp('/capacidade');
    await screen.findByText('Pausada');
    await user.click(button('Retomar'));
    const dialog = await screen.findByRole('dialog', { name: 'Retomar a capacidade' });
    expect(dialog).toHaveTextContent('cerca de 10 segundos');
    await user.click(within(dialog).getByRole('button', { name: 'Retomar' }));
    await waitFor(() =>
      expect(calls).toEqual([{ method: 'POST', path: '/api/capacidade/retomar', body: { motivo: null } }]),
    );
  });

  it("confirms 'Alterar SKU' with the SKU chosen among the kind's, and shows the server's refusal in the dialog", async () => {
    signIn(ADMIN);
    serve([capacidade({ sku: 'A1' })]);
    let refuse = true;
    const calls = recordActions(() =>
      refuse
        ? HttpResponse.json(
            { message: 'A capacidade está mudando de estado; tente de novo em instantes.' },
            { status: 409 },
          )
        : new HttpResponse(null, { status: 202 }),
    );
    const { user } = renderApp('/capacidade');
    await screen.findByRole('region', { name: 'Estado' });
    await user.click(button('Alterar SKU'));
    const dialog = await screen.findByRole('dialog', { name: 'Alterar o SKU da capacidade' });
    const select = within(dialog).getByLabelText('Novo SKU');
    expect([...select.querySelectorAll('option')].map((o) => o.value)).toEqual([
      'A1',
      'A2',
      'A3',
      'A4',
      'A5',
      'A6',
      'A7',
      'A8',
    ]);
    // The current SKU is no change.
    expect(within(dialog).getByRole('button', { name: 'Alterar SKU' })).toBeDisabled();
    await user.selectOptions(select, 'A2');
    await user.type(within(dialog).getByLabelText('Motivo (opcional)'), 'Fechamento do mês');
    await user.click(within(dialog).getByRole('button', { name: 'Alterar SKU' }));
    expect(
      await within(dialog).findByText('A capacidade está mudando de estado; tente de novo em instantes.'),
    ).toBeInTheDocument();
    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Alterar SKU' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.map((c) => c.body)).toEqual([
      { sku: 'A2', motivo: 'Fechamento do mês' },
      { sku: 'A2', motivo: 'Fechamento do mês' },
    ]);
    expect(calls.every((c) => c.method === 'PUT' && c.path === '/api/capacidade/sku')).toBe(true);
  });

  it('follows the state every few seconds while it changes, and every 30 s otherwise', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
      shouldAdvanceTime: true,
    });
    signIn(ADMIN);
    const asked = serve([
      capacidade({ estado: 'retomando' }),
      capacidade({ estado: 'retomando' }),
      capacidade({ estado: 'ativa' }),
    ]);
    renderApp('/capacidade');
    expect(await screen.findByText('Retomando…')).toBeInTheDocument();
    expect(asked.capacity).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    await waitFor(() => expect(asked.capacity).toBe(2));
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(await screen.findByText('Ativa')).toBeInTheDocument();
    expect(asked.capacity).toBe(3);
    // Steady now: nothing more for almost half a minute.
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(asked.capacity).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(asked.capacity).toBe(4));
  });

  it("refuses a policy that breaks the rules, in the contract's words, and sends nothing", async () => {
    signIn(ADMIN);
    serve([capacidade()]);
    const calls = recordActions();
    const { user } = renderApp('/capacidade');
    const form = await screen.findByRole('region', { name: 'Política' });
    fireEvent.change(within(form).getByLabelText('Fim da faixa 1'), { target: { value: '07:00' } });
    await user.clear(within(form).getByLabelText('Fuso horário'));
    await user.type(within(form).getByLabelText('Fuso horário'), 'Lua/Base_Alfa');
    await user.clear(within(form).getByLabelText('Pausar após minutos sem uso'));
    await user.type(within(form).getByLabelText('Pausar após minutos sem uso'), '3');
    await user.clear(within(form).getByLabelText('Preço por hora 1'));
    await user.type(within(form).getByLabelText('Preço por hora 1'), '-1');
    await user.click(within(form).getByRole('button', { name: 'Salvar política' }));

    expect(within(form).getByText('O início de cada faixa de horário deve vir antes do fim.')).toBeInTheDocument();
    expect(
      within(form).getByText('Fuso horário desconhecido: use um nome da IANA, como America/Sao_Paulo.'),
    ).toBeInTheDocument();
    expect(within(form).getByText('Pausar após ociosidade: no mínimo 5 minutos.')).toBeInTheDocument();
    expect(within(form).getByText('Preço por hora não pode ser negativo.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Fim da faixa 1')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toEqual([]);
  });

  it("saves the policy edited (stretches added and removed, idle pause off, who wakes it, prices, SKU, contact) with 'Salvar política'", async () => {
    signIn(ADMIN);
    serve([capacidade()]);
    const calls = recordActions();
    const { user } = renderApp('/capacidade');
    const form = await screen.findByRole('region', { name: 'Política' });
    // Friday's stretch goes; Saturday's morning comes after the last one.
    await user.click(within(form).getByRole('button', { name: 'Remover faixa 5' }));
    await user.click(within(form).getByRole('button', { name: 'Adicionar faixa' }));
    await user.selectOptions(within(form).getByLabelText('Dia da faixa 5'), 'Sábado');
    fireEvent.change(within(form).getByLabelText('Início da faixa 5'), { target: { value: '09:00' } });
    fireEvent.change(within(form).getByLabelText('Fim da faixa 5'), { target: { value: '13:00' } });
    await user.clear(within(form).getByLabelText('Pausar após minutos sem uso'));
    await user.click(within(form).getByRole('radio', { name: 'Somente administradores' }));
    await user.click(within(form).getByRole('button', { name: 'Remover preço 2' }));
    await user.click(within(form).getByRole('button', { name: 'Adicionar preço' }));
    await user.selectOptions(within(form).getByLabelText('SKU do preço 2'), 'A4');
    await user.type(within(form).getByLabelText('Preço por hora 2'), '8,06');
    await user.selectOptions(within(form).getByLabelText('SKU no horário de uso'), 'A4');
    await user.clear(within(form).getByLabelText('Contato'));
    await user.type(within(form).getByLabelText('Contato'), 'Carla (ramal 2040)');
    await user.click(within(form).getByRole('button', { name: 'Salvar política' }));

    expect(await within(form).findByText('Política salva.')).toBeInTheDocument();
    const expected: PoliticaCapacidade = {
      horario: [
        ...[1, 2, 3, 4].map((diaSemana) => ({ diaSemana, inicio: '08:00', fim: '19:00' })),
        { diaSemana: 6, inicio: '09:00', fim: '13:00' },
      ],
      fusoHorario: 'America/Sao_Paulo',
      pausarAposMinutosOcioso: null,
      quemRetomaAoAbrir: 'administradores',
      precoPorHora: { A1: 1.01, A4: 8.06 },
      skuHorario: 'A4',
      contato: 'Carla (ramal 2040)',
    };
    expect(calls).toEqual([{ method: 'PUT', path: '/api/capacidade/politica', body: expected }]);
  });

  it("shows the server's refusal of the policy as the other forms do", async () => {
    signIn(ADMIN);
    serve([capacidade()]);
    recordActions(() =>
      HttpResponse.json(
        { message: 'Fuso horário desconhecido: use um nome da IANA, como America/Sao_Paulo.' },
        { status: 400 },
      ),
    );
    const { user } = renderApp('/capacidade');
    const form = await screen.findByRole('region', { name: 'Política' });
    await user.click(within(form).getByRole('button', { name: 'Salvar política' }));
    expect(
      await within(form).findByText('Fuso horário desconhecido: use um nome da IANA, como America/Sao_Paulo.'),
    ).toHaveClass('alert-danger');
    expect(within(form).queryByText('Política salva.')).not.toBeInTheDocument();
  });

  it("shows the month's hours, cost against always-on and savings, with the days as a chart and as a table", async () => {
    signIn(ADMIN);
    serve([capacidade()]);
    renderApp('/capacidade');
    const month = await screen.findByRole('region', { name: 'Mês 11/2026' });
    const figure = (label: string) =>
      [...month.querySelectorAll('dt')].find((dt) => dt.textContent === label)?.nextElementSibling?.textContent;
    expect(figure('Horas ativa')).toBe('30,5 h');
    expect(figure('Horas pausada')).toBe('41,5 h');
    expect(figure('Custo estimado')).toBe('30,81');
    expect(figure('Custo sempre ativa')).toBe('72,72');
    expect(figure('Economia')).toBe('41,91');
    const table = within(month).getByRole('table', { name: 'Horas ativa e custo estimado por dia do mês' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['26/1111 h11,11', '27/1112,5 h12,63', '28/117 h7,07']);
  });

  it('lists the history with each reason in Portuguese, the person and the detail', async () => {
    signIn(ADMIN);
    const historico = MOTIVOS_CAPACIDADE.map((motivo, i) =>
      mudancaCapacidade({
        id: i + 1,
        motivo,
        estado: i % 2 ? 'pausada' : 'ativa',
        pessoa: motivo === 'abertura' ? 'bruno@empresa.com.br' : null,
        detalhe: motivo === 'externo' ? 'Pausada no portal do Azure' : null,
      }),
    );
    serve([capacidade()], historico);
    renderApp('/capacidade');
    const region = await screen.findByRole('region', { name: 'Histórico' });
    await within(region).findByRole('table');
    const when = formatDateTime(new Date('2026-11-28T12:00:00.000Z'));
    expect(dataRows(within(region).getByRole('table'))).toEqual([
      [when, 'Ativa', 'A1', 'Horário', '—', '—'],
      [when, 'Pausada', 'A1', 'Ociosidade', '—', '—'],
      [when, 'Ativa', 'A1', 'Abertura de painel', 'bruno@empresa.com.br', '—'],
      [when, 'Pausada', 'A1', 'Administrador', '—', '—'],
      [when, 'Ativa', 'A1', 'Envio de assinatura', '—', '—'],
      [when, 'Pausada', 'A1', 'Exportação', '—', '—'],
      [when, 'Ativa', 'A1', 'Atualização agendada', '—', '—'],
      [when, 'Pausada', 'A1', 'Fora do portal', '—', 'Pausada no portal do Azure'],
    ]);
  });

  it('explains that no capacity is configured (POWER_BI_CAPACITY_ID), with no actions, policy or history', async () => {
    signIn(ADMIN);
    const asked = serve([
      capacidade({ configurada: false, estado: 'desconhecida', nome: null, tipo: null, sku: null, lidoEm: null }),
    ]);
    renderApp('/capacidade');
    expect(await screen.findByRole('heading', { name: 'Nenhuma capacidade configurada' })).toBeInTheDocument();
    expect(screen.getByText('POWER_BI_CAPACITY_ID')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pausar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Política' })).not.toBeInTheDocument();
    expect(asked.history).toBe(0);
  });

  it('sends a user away to the list, as every admin screen', async () => {
    signIn(USER);
    server.use(
      http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
      http.get('/api/classificacoes', () => HttpResponse.json([])),
    );
    const { location } = renderApp('/capacidade');
    await waitFor(() => expect(location().pathname).toBe('/'));
  });
});
