import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ASSINATURA_MESSAGES, limiteEnviarAgora } from '@paineis/contract/subscription-constants';
import type { Assinatura } from '@paineis/contract/subscriptions';
import { formatDateMinutes } from '../../../lib/format.ts';
import { browserTimeZone } from '../utils/subscription-schedule.ts';
import { assinatura, assinaturaAposAtualizacao, assinaturaMensal } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';

// Written in the reader's own zone, a schedule carries no zone name.
const zone = browserTimeZone();

const VENDAS = assinatura({ fusoHorario: zone, ultimoEnvio: '2026-11-23T10:00:00.000Z' });
const ESTOQUE = assinaturaMensal({
  fusoHorario: 'Asia/Tokyo',
  visaoId: '5b0d7c1e-3f0a-4b8e-9d52-0c6a1e2f3a4b',
  nomeVisao: 'Só o Sul',
  ativa: false,
  situacao: 'pausada',
  proximoEnvio: null,
});
const METAS = assinatura({
  id: '55555555-5555-4555-8555-555555555555',
  painelId: 11,
  nomePainel: 'Metas',
  frequencia: 'diaria',
  diaSemana: null,
  fusoHorario: zone,
  situacao: 'sem-acesso',
  motivoSituacao: ASSINATURA_MESSAGES.donoSemAcesso,
});

/** GET /api/assinaturas answers the list as it is now; each change the page asks for is recorded and applied. */
function serve(initial: Assinatura[]) {
  let list = initial;
  const calls: { method: string; path: string; body?: unknown }[] = [];
  server.use(
    http.get('/api/assinaturas', () => HttpResponse.json({ assinaturas: list })),
    http.patch('/api/assinaturas/:id', async ({ request, params }) => {
      const body = (await request.json()) as Partial<Assinatura>;
      calls.push({ method: 'PATCH', path: new URL(request.url).pathname, body });
      list = list.map((a) =>
        a.id === params.id
          ? {
              ...a,
              ...body,
              ...(body.ativa === undefined ? {} : { situacao: body.ativa ? 'ativa' : 'pausada' }),
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
    http.post('/api/assinaturas/:id/enviar-agora', ({ request }) => {
      calls.push({ method: 'POST', path: new URL(request.url).pathname });
      return HttpResponse.json(
        { envioId: 'envio-1', estado: 'pendente', message: ASSINATURA_MESSAGES.envioSolicitado },
        { status: 202 },
      );
    }),
    http.get('/api/paineis/:id/visoes', () => HttpResponse.json([])),
  );
  return calls;
}

async function openPage() {
  signIn(USER);
  const view = renderApp('/assinaturas');
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Minhas assinaturas' }, { timeout: 10_000 }),
  ).toBeInTheDocument();
  return view;
}

const item = (name: string) => screen.getByRole('listitem', { name });
/** What one subscription says under each heading. */
function facts(name: string): Record<string, string> {
  const terms = within(item(name)).getAllByRole('term');
  return Object.fromEntries(terms.map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]));
}

describe("'Minhas assinaturas'", () => {
  it("says the next and last deliveries in the subscription's own time zone, named beside its schedule", async () => {
    // 'Todo dia 5 às 07:00 (Asia/Tokyo)': 2026-12-04 22:00 UTC is 07:00 on the 5th in Tokyo, whatever this browser's.
    const tokyo = {
      ...ESTOQUE,
      ativa: true,
      situacao: 'ativa' as const,
      ultimaFalha: null,
      proximoEnvio: '2026-12-04T22:00:00.000Z',
      ultimoEnvio: '2026-11-04T22:00:00.000Z',
    };
    serve([tokyo]);
    await openPage();
    await screen.findByRole('listitem', { name: tokyo.nomePainel });
    expect(facts(tokyo.nomePainel)).toMatchObject({
      'Próximo envio': zone === 'Asia/Tokyo' ? '05/12/2026 07:00' : '05/12/2026 07:00 (Asia/Tokyo)',
      'Último envio': zone === 'Asia/Tokyo' ? '05/11/2026 07:00' : '05/11/2026 07:00 (Asia/Tokyo)',
    });
  });

  it("says a subscription sent after each refresh waits for the data, and 'após a próxima atualização' while active", async () => {
    const limited = assinaturaAposAtualizacao({ fusoHorario: zone, ultimoEnvio: '2026-11-23T10:00:00.000Z' });
    const every = assinaturaAposAtualizacao({
      id: '66666666-6666-4666-8666-666666666666',
      nomePainel: 'Metas',
      intervaloHoras: null,
      fusoHorario: zone,
    });
    const paused = assinaturaAposAtualizacao({
      id: '77777777-7777-4777-8777-777777777777',
      nomePainel: 'Estoque Diário',
      fusoHorario: zone,
      ativa: false,
      situacao: 'pausada',
    });
    serve([limited, every, paused]);
    await openPage();
    await screen.findByRole('listitem', { name: 'Vendas por Região' });
    expect(facts('Vendas por Região')).toMatchObject({
      Agenda: 'Quando os dados forem atualizados, no máximo uma vez a cada 6 horas',
      'Próximo envio': 'após a próxima atualização',
      'Último envio': formatDateMinutes(new Date('2026-11-23T10:00:00.000Z')),
    });
    expect(facts('Metas')).toMatchObject({
      Agenda: 'Quando os dados forem atualizados',
      'Próximo envio': 'após a próxima atualização',
    });
    // Paused, as any paused subscription.
    expect(facts('Estoque Diário')).toMatchObject({ 'Próximo envio': '—', Situação: 'Pausada' });
  });

  it('lists each subscription with its panel, format, schedule, deliveries and state', async () => {
    serve([VENDAS, ESTOQUE, METAS]);
    await openPage();
    await screen.findByRole('listitem', { name: 'Vendas por Região' });

    expect(within(item('Vendas por Região')).getByRole('link', { name: 'Vendas por Região' })).toHaveAttribute(
      'href',
      '/visualizar/7',
    );
    expect(facts('Vendas por Região')).toEqual({
      Formato: 'PDF',
      Agenda: 'Toda segunda-feira às 07:00',
      'Próximo envio': formatDateMinutes(new Date('2026-11-30T10:00:00.000Z')),
      'Último envio': formatDateMinutes(new Date('2026-11-23T10:00:00.000Z')),
      Situação: 'Ativa',
    });
    expect(facts('Estoque Diário')).toEqual({
      Formato: 'PowerPoint',
      Agenda: 'Todo dia 5 às 07:00 (Asia/Tokyo)Visão salva: Só o Sul',
      'Próximo envio': '—',
      'Último envio': '—',
      Situação: `PausadaFalha em ${formatDateMinutes(new Date('2026-11-05T10:02:00.000Z'))}: O Power BI não conseguiu exportar o relatório.`,
    });
    // Why nothing is sent, under its badge.
    expect(facts('Metas')).toMatchObject({
      Agenda: 'Diária às 07:00',
      Situação: 'Sem acessoO dono não pode mais abrir este painel: a assinatura não é enviada.',
    });
    expect(within(item('Estoque Diário')).getByRole('button', { name: /^Retomar/ })).toBeInTheDocument();
    expect(within(item('Vendas por Região')).getByRole('button', { name: /^Pausar/ })).toBeInTheDocument();
  });

  it('says how to subscribe when there is nothing yet', async () => {
    serve([]);
    await openPage();
    expect(
      await screen.findByText('Você não tem assinaturas. Abra um painel e use Assinar para recebê-lo por e-mail.'),
    ).toBeInTheDocument();
  });

  it("shows the server's message when the list does not load, and tries again", async () => {
    let fail = true;
    server.use(
      http.get('/api/assinaturas', () =>
        fail
          ? HttpResponse.json({ message: 'Serviço indisponível.' }, { status: 503 })
          : HttpResponse.json({ assinaturas: [VENDAS] }),
      ),
    );
    const { user } = await openPage();
    expect(await screen.findByText('Serviço indisponível.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('listitem', { name: 'Vendas por Região' })).toBeInTheDocument();
  });

  it('pauses and resumes a subscription', async () => {
    const calls = serve([VENDAS]);
    const { user } = await openPage();
    await screen.findByRole('listitem', { name: 'Vendas por Região' });
    await user.click(within(item('Vendas por Região')).getByRole('button', { name: /^Pausar/ }));
    await waitFor(() => expect(facts('Vendas por Região').Situação).toBe('Pausada'));
    await user.click(within(item('Vendas por Região')).getByRole('button', { name: /^Retomar/ }));
    await waitFor(() => expect(facts('Vendas por Região').Situação).toBe('Ativa'));
    expect(calls).toEqual([
      { method: 'PATCH', path: `/api/assinaturas/${VENDAS.id}`, body: { ativa: false } },
      { method: 'PATCH', path: `/api/assinaturas/${VENDAS.id}`, body: { ativa: true } },
    ]);
  });

  it("sends now, and shows the server's message, or its refusal", async () => {
    const calls = serve([VENDAS, METAS]);
    const { user } = await openPage();
    await screen.findByRole('listitem', { name: 'Vendas por Região' });
    await user.click(within(item('Vendas por Região')).getByRole('button', { name: /^Enviar agora/ }));
    expect(await screen.findByText(ASSINATURA_MESSAGES.envioSolicitado)).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'POST', path: `/api/assinaturas/${VENDAS.id}/enviar-agora` }]);

    server.use(
      http.post(`/api/assinaturas/${METAS.id}/enviar-agora`, () =>
        HttpResponse.json({ message: ASSINATURA_MESSAGES.semAcesso }, { status: 409 }),
      ),
    );
    await user.click(within(item('Metas')).getByRole('button', { name: /^Enviar agora/ }));
    expect(await screen.findByText(ASSINATURA_MESSAGES.semAcesso)).toBeInTheDocument();
    expect(screen.queryByText(ASSINATURA_MESSAGES.envioSolicitado)).not.toBeInTheDocument();
  });

  it("says when the hour's 'Enviar agora' are used up, as the server words it (429)", async () => {
    const calls = serve([VENDAS]);
    server.use(
      http.post('/api/assinaturas/:id/enviar-agora', () =>
        HttpResponse.json({ message: limiteEnviarAgora(10, 42) }, { status: 429, headers: { 'Retry-After': '2520' } }),
      ),
    );
    const { user } = await openPage();
    await screen.findByRole('listitem', { name: 'Vendas por Região' });
    await user.click(within(item('Vendas por Região')).getByRole('button', { name: /^Enviar agora/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Você já pediu 10 envios imediatos na última hora, o máximo. Tente de novo em 42 minutos; os envios agendados seguem normalmente.',
    );
    expect(alert).toHaveClass('alert-danger');
    expect(calls).toEqual([]);
  });

  it('deletes a subscription once confirmed, naming its panel', async () => {
    const calls = serve([VENDAS, METAS]);
    const { user } = await openPage();
    await screen.findByRole('listitem', { name: 'Vendas por Região' });
    await user.click(within(item('Vendas por Região')).getByRole('button', { name: /^Excluir/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir assinatura' });
    expect(dialog).toHaveTextContent('A assinatura de Vendas por Região será excluída e não será mais enviada.');
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));

    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Vendas por Região' })).not.toBeInTheDocument());
    expect(item('Metas')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'DELETE', path: `/api/assinaturas/${VENDAS.id}` }]);
  });

  it("edits a subscription in 'Editar assinatura', and shows it changed", async () => {
    const calls = serve([VENDAS]);
    const { user } = await openPage();
    await screen.findByRole('listitem', { name: 'Vendas por Região' });
    await user.click(within(item('Vendas por Região')).getByRole('button', { name: /^Editar/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar assinatura' });
    expect(within(dialog).getByLabelText('Dia da semana')).toHaveDisplayValue('segunda-feira');
    await user.selectOptions(within(dialog).getByLabelText('Dia da semana'), 'quarta-feira');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([
      {
        method: 'PATCH',
        path: `/api/assinaturas/${VENDAS.id}`,
        body: {
          formato: 'PDF',
          frequencia: 'semanal',
          hora: '07:00',
          diaSemana: 3,
          diaMes: null,
          intervaloHoras: null,
          fusoHorario: zone,
          pagina: null,
          visaoId: null,
        },
      },
    ]);
    expect(facts('Vendas por Região').Agenda).toBe('Toda quarta-feira às 07:00');
    expect(screen.getByText('Assinatura salva.')).toBeInTheDocument();
  });
});
