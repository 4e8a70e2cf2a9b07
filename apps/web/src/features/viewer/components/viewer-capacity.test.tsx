import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CapacidadeIndisponivel } from '@paineis/contract/capacity';
import { painelComEmbed } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';

const painel = painelComEmbed({ usaRls: false });

/** The 503 of an opening while the capacity is paused (CapacidadeIndisponivel). */
const paused = (
  capacidade: Partial<CapacidadeIndisponivel['capacidade']>,
  retryAfter?: number,
): HttpResponse<CapacidadeIndisponivel> =>
  HttpResponse.json(
    {
      message: 'A capacidade do Power BI está pausada.',
      capacidade: { estado: 'pausada', podeRetomar: true, retomadaSegundos: 10, contato: null, ...capacidade },
    },
    { status: 503, headers: retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) } },
  );

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('/visualizar/{id} while the Power BI capacity is paused', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says the capacity is starting, waits Retry-After, asks again and embeds the report once it answers', async () => {
    // Timers run on their own as time passes (the screen's own work), and the test jumps over the waits.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    signIn(USER);
    const asked: number[] = [];
    server.use(
      http.get('/api/paineis/7', () => {
        asked.push(Date.now());
        if (asked.length === 1) return paused({ estado: 'pausada' }, 12);
        if (asked.length === 2) return paused({ estado: 'retomando' }, 5);
        return HttpResponse.json(painel);
      }),
    );
    renderApp('/visualizar/7');
    // The viewer is a chunk of its own, loaded on the first visit.
    expect(
      await screen.findByText('Iniciando o Power BI… isso leva cerca de 12 segundos', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Iniciando o Power BI… isso leva cerca de 12 segundos');

    await advance(11_000);
    expect(asked).toHaveLength(1);
    await advance(1_000);
    // Still starting: the new answer's wait counts.
    expect(await screen.findByText('Iniciando o Power BI… isso leva cerca de 5 segundos')).toBeInTheDocument();
    expect(asked).toHaveLength(2);

    await advance(5_000);
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Páginas do relatório' })).toBeInTheDocument();
    expect(screen.queryByText(/Iniciando o Power BI/)).not.toBeInTheDocument();
    expect(asked).toHaveLength(3);
  }, 20_000);

  it('waits about a resume when the answer has no Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    signIn(USER);
    let calls = 0;
    server.use(
      http.get('/api/paineis/7', () => {
        calls += 1;
        return calls === 1 ? paused({ retomadaSegundos: 8 }) : HttpResponse.json(painel);
      }),
    );
    renderApp('/visualizar/7');
    expect(await screen.findByText('Iniciando o Power BI… isso leva cerca de 8 segundos')).toBeInTheDocument();
    await advance(7_000);
    expect(calls).toBe(1);
    await advance(1_000);
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
  });

  it('says the reports are paused and whom to ask when the person may not wake it, and asks again only on request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    signIn(USER);
    let calls = 0;
    server.use(
      http.get('/api/paineis/7', () => {
        calls += 1;
        return calls === 1
          ? paused({ podeRetomar: false, retomadaSegundos: null, contato: 'a equipe de BI (bi@empresa.com.br)' })
          : HttpResponse.json(painel);
      }),
    );
    const { user } = renderApp('/visualizar/7');
    expect(
      await screen.findByRole('heading', { name: 'Os relatórios estão pausados fora do horário de uso.' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Para usá-los agora, fale com a equipe de BI (bi@empresa.com.br).')).toBeInTheDocument();
    expect(screen.queryByText(/Iniciando o Power BI/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar para Lista' })).toHaveAttribute('href', '/');

    // No retry loop: nothing is asked while the person waits.
    await advance(120_000);
    expect(calls).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('names nobody when the policy has no contact', async () => {
    signIn(USER);
    server.use(http.get('/api/paineis/7', () => paused({ podeRetomar: false, contato: null })));
    renderApp('/visualizar/7');
    expect(
      await screen.findByRole('heading', { name: 'Os relatórios estão pausados fora do horário de uso.' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/fale com/)).not.toBeInTheDocument();
  });
});
