import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Assinatura } from '@paineis/contract/subscriptions';
import { createQueryClient } from '../../../lib/query-client.ts';
import { browserTimeZone } from '../utils/subscription-schedule.ts';
import { assinatura, assinaturaAposAtualizacao, visaoSalva } from '../../../test/data-generators.ts';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';
import { SubscriptionModal } from './subscription-modal.tsx';

const VIEW_ID = '5b0d7c1e-3f0a-4b8e-9d52-0c6a1e2f3a4b';

/** The server's side: the panel's saved views, and every body the dialog sends (answered `answer`). */
function serve(answer: (body: unknown) => Response = () => HttpResponse.json(assinatura(), { status: 201 })) {
  const sent: { method: string; url: string; body: unknown }[] = [];
  server.use(
    http.get('/api/paineis/7/visoes', () => HttpResponse.json([visaoSalva({ id: VIEW_ID, nome: 'Só o Sul' })])),
    http.post('/api/assinaturas', async ({ request }) => {
      const body = await request.json();
      sent.push({ method: 'POST', url: new URL(request.url).pathname, body });
      return answer(body);
    }),
    http.patch('/api/assinaturas/:id', async ({ request }) => {
      const body = await request.json();
      sent.push({ method: 'PATCH', url: new URL(request.url).pathname, body });
      return answer(body);
    }),
  );
  return sent;
}

function renderModal(props: { paginaAtual?: string; editing?: Assinatura } = {}) {
  signIn(USER);
  const onSaved = vi.fn();
  const onHide = vi.fn();
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <SubscriptionModal show painelId={7} onSaved={onSaved} onHide={onHide} {...props} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: props.editing ? 'Editar assinatura' : 'Assinar por e-mail' });
  return { user, onSaved, onHide, dialog };
}

const field = (name: string) => screen.getByLabelText(name);
const AFTER_REFRESH = 'Após cada atualização dos dados';
const limit = () => screen.getByRole('checkbox', { name: 'Enviar no máximo uma vez a cada' });
const hours = () => screen.getByRole('spinbutton', { name: 'Intervalo mínimo entre envios, em horas' });

describe("'Assinar por e-mail'", () => {
  it('sends a weekly subscription with its weekday, and no zone when the portal’s default is kept', async () => {
    const sent = serve();
    const { user, onSaved } = renderModal({ paginaAtual: 'ReportSection2' });
    // The first field has the focus.
    expect(field('Formato')).toHaveFocus();
    expect(field('Fuso horário')).toHaveDisplayValue('Padrão do portal');
    await user.selectOptions(field('Formato'), 'PowerPoint');
    await user.selectOptions(field('Frequência'), 'Semanal');
    expect(screen.queryByLabelText('Dia do mês')).not.toBeInTheDocument();
    await user.selectOptions(field('Dia da semana'), 'sexta-feira');
    await user.clear(field('Hora'));
    await user.type(field('Hora'), '18:30');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent).toEqual([
      {
        method: 'POST',
        url: '/api/assinaturas',
        body: { painelId: 7, formato: 'PPTX', frequencia: 'semanal', hora: '18:30', diaSemana: 5 },
      },
    ]);
  });

  it('sends a monthly subscription with its day of the month and the zone chosen', async () => {
    const sent = serve();
    const { user, onSaved } = renderModal();
    await user.selectOptions(field('Frequência'), 'Mensal');
    expect(screen.queryByLabelText('Dia da semana')).not.toBeInTheDocument();
    const days = within(field('Dia do mês')).getAllByRole('option');
    expect(days.map((o) => o.textContent)).toEqual(Array.from({ length: 28 }, (_, i) => String(i + 1)));
    await user.selectOptions(field('Dia do mês'), '15');
    await user.selectOptions(field('Fuso horário'), 'Asia/Tokyo');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent[0]!.body).toEqual({
      painelId: 7,
      formato: 'PDF',
      frequencia: 'mensal',
      hora: '07:00',
      diaMes: 15,
      fusoHorario: 'Asia/Tokyo',
    });
  });

  it("sends 'Após cada atualização dos dados' with no hour nor day, sent after every refresh", async () => {
    const sent = serve();
    const { user, onSaved } = renderModal();
    await user.selectOptions(field('Frequência'), AFTER_REFRESH);
    expect(screen.queryByLabelText('Hora')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Dia da semana')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Dia do mês')).not.toBeInTheDocument();
    // Not limited unless asked: the hours wait, greyed out.
    expect(limit()).not.toBeChecked();
    expect(hours()).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Assinar' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent[0]!.body).toEqual({
      painelId: 7,
      formato: 'PDF',
      frequencia: 'apos-atualizacao',
      intervaloHoras: null,
    });
  });

  it("sends 'Após cada atualização dos dados' at most once every N hours, refusing N out of 1 to 168", async () => {
    const sent = serve();
    const { user, onSaved } = renderModal();
    await user.selectOptions(field('Frequência'), AFTER_REFRESH);
    await user.click(limit());
    expect(hours()).toBeEnabled();
    await user.clear(hours());
    await user.type(hours(), '169');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByText('Informe um número inteiro de horas, de 1 a 168.')).toBeVisible();
    expect(hours()).toBeInvalid();
    expect(sent).toEqual([]);

    await user.clear(hours());
    await user.type(hours(), '12');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent[0]!.body).toEqual({
      painelId: 7,
      formato: 'PDF',
      frequencia: 'apos-atualizacao',
      intervaloHoras: 12,
    });
  });

  it('brings the hour back, as it was, when a kind with a clock is chosen again', async () => {
    const sent = serve();
    const { user, onSaved } = renderModal();
    await user.clear(field('Hora'));
    await user.type(field('Hora'), '18:30');
    await user.selectOptions(field('Frequência'), AFTER_REFRESH);
    await user.click(limit());
    await user.selectOptions(field('Frequência'), 'Diária');
    expect(field('Hora')).toHaveValue('18:30');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    // No quiet window for a daily subscription.
    expect(sent[0]!.body).toEqual({ painelId: 7, formato: 'PDF', frequencia: 'diaria', hora: '18:30' });
  });

  it("lists the portal's default first, then this browser's zone", () => {
    serve();
    renderModal();
    const zones = within(field('Fuso horário')).getAllByRole('option');
    expect(zones[0]).toHaveTextContent('Padrão do portal');
    expect(zones[0]).toHaveValue('');
    expect(zones[1]).toHaveValue(browserTimeZone());
    // Each zone once.
    const values = zones.map((o) => (o as HTMLOptionElement).value);
    expect(new Set(values).size).toBe(values.length);
  });

  it("sends the viewer's current page for 'Página atual', daily", async () => {
    const sent = serve();
    const { user, onSaved } = renderModal({ paginaAtual: 'ReportSection2' });
    await user.selectOptions(field('Frequência'), 'Diária');
    expect(screen.queryByLabelText('Dia da semana')).not.toBeInTheDocument();
    await user.selectOptions(field('Conteúdo'), 'Página atual');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent[0]!.body).toEqual({
      painelId: 7,
      formato: 'PDF',
      frequencia: 'diaria',
      hora: '07:00',
      pagina: 'ReportSection2',
    });
  });

  it("offers each of the person's saved views, and sends the one chosen", async () => {
    const sent = serve();
    const { user, onSaved } = renderModal();
    // No page shown in the viewer: no 'Página atual'.
    await waitFor(() =>
      expect(
        within(field('Conteúdo'))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Todas as páginas', 'Visão salva: Só o Sul']),
    );
    await user.selectOptions(field('Conteúdo'), 'Visão salva: Só o Sul');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent[0]!.body).toEqual({
      painelId: 7,
      formato: 'PDF',
      frequencia: 'semanal',
      hora: '07:00',
      diaSemana: 1,
      visaoId: VIEW_ID,
    });
  });

  it("shows the server's refusal in the dialog, which stays open to try again", async () => {
    const message = 'A exportação está desativada para este painel, e a assinatura depende dela.';
    const sent = serve(() => HttpResponse.json({ message }, { status: 403 }));
    const { user, onSaved, dialog } = renderModal();
    await user.click(screen.getByRole('button', { name: 'Assinar' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(onSaved).not.toHaveBeenCalled();
    expect(sent).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Assinar' })).toBeEnabled();
  });

  it('refuses an empty hour before asking the server', async () => {
    const sent = serve();
    const { user } = renderModal();
    await user.clear(field('Hora'));
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByText('Informe a hora no formato HH:MM.')).toBeVisible();
    expect(field('Hora')).toBeInvalid();
    expect(sent).toEqual([]);
  });

  it("'Cancelar' closes without sending", async () => {
    const sent = serve();
    const { user, onHide } = renderModal();
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onHide).toHaveBeenCalled();
    expect(sent).toEqual([]);
  });
});

describe("'Editar assinatura'", () => {
  it('starts from the subscription, and sends every field, clearing what no longer applies', async () => {
    const sent = serve(() => HttpResponse.json(assinatura()));
    const editing = assinatura({
      frequencia: 'semanal',
      diaSemana: 3,
      hora: '09:15',
      fusoHorario: 'Asia/Tokyo',
      visaoId: VIEW_ID,
      nomeVisao: 'Só o Sul',
    });
    const { user, onSaved } = renderModal({ editing });
    expect(field('Formato')).toHaveDisplayValue('PDF');
    expect(field('Frequência')).toHaveDisplayValue('Semanal');
    expect(field('Dia da semana')).toHaveDisplayValue('quarta-feira');
    expect(field('Hora')).toHaveValue('09:15');
    expect(field('Fuso horário')).toHaveDisplayValue('Asia/Tokyo');
    // A subscription has its zone already: 'Padrão do portal' would send nothing and change nothing.
    expect(within(field('Fuso horário')).queryByText('Padrão do portal')).not.toBeInTheDocument();
    expect(field('Conteúdo')).toHaveDisplayValue('Visão salva: Só o Sul');

    await user.selectOptions(field('Frequência'), 'Mensal');
    await user.selectOptions(field('Dia do mês'), '28');
    await user.selectOptions(field('Conteúdo'), 'Todas as páginas');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent).toEqual([
      {
        method: 'PATCH',
        url: `/api/assinaturas/${editing.id}`,
        body: {
          formato: 'PDF',
          frequencia: 'mensal',
          hora: '09:15',
          diaSemana: null,
          diaMes: 28,
          intervaloHoras: null,
          fusoHorario: 'Asia/Tokyo',
          pagina: null,
          visaoId: null,
        },
      },
    ]);
  });

  it('starts from a subscription sent after each refresh, and sends no hour while it stays one', async () => {
    const sent = serve(() => HttpResponse.json(assinatura()));
    const { user, onSaved } = renderModal({ editing: assinaturaAposAtualizacao() });
    expect(field('Frequência')).toHaveDisplayValue(AFTER_REFRESH);
    expect(screen.queryByLabelText('Hora')).not.toBeInTheDocument();
    expect(limit()).toBeChecked();
    expect(hours()).toHaveValue(6);
    // Every refresh, now.
    await user.click(limit());
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent[0]!.body).toEqual({
      formato: 'PDF',
      frequencia: 'apos-atualizacao',
      diaSemana: null,
      diaMes: null,
      intervaloHoras: null,
      fusoHorario: 'America/Sao_Paulo',
      pagina: null,
      visaoId: null,
    });
  });

  it('turns a subscription sent after each refresh into a weekly one at the default hour, its window cleared', async () => {
    const sent = serve(() => HttpResponse.json(assinatura()));
    const { user, onSaved } = renderModal({ editing: assinaturaAposAtualizacao() });
    await user.selectOptions(field('Frequência'), 'Semanal');
    expect(field('Hora')).toHaveValue('07:00');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent[0]!.body).toMatchObject({
      frequencia: 'semanal',
      hora: '07:00',
      diaSemana: 1,
      diaMes: null,
      intervaloHoras: null,
    });
  });

  it('keeps the page the subscription sends', async () => {
    const sent = serve(() => HttpResponse.json(assinatura()));
    const { user, onSaved } = renderModal({ editing: assinatura({ pagina: 'ReportSection2' }) });
    expect(field('Conteúdo')).toHaveDisplayValue('Página: ReportSection2');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(sent[0]!.body).toMatchObject({ pagina: 'ReportSection2', visaoId: null, diaSemana: 1, diaMes: null });
  });
});
