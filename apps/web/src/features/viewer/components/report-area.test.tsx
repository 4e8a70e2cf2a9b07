import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { PainelComEmbed } from '@paineis/contract/panels';
import { FakeEmbedder, painelComEmbed } from '../../../test/data-generators.ts';
import { server } from '../../../test/server.ts';
import { fakeToken } from '../../../test/session.ts';
import {
  EmbedderError,
  POWER_BI_MODELS_MISSING,
  POWER_BI_UNAVAILABLE,
  REPORT_INIT_ERROR,
  type ReportPage,
} from '../embedding/report-embedder.ts';
import { LOADED_MARK } from '../embedding/report-loading.ts';
import { REPORT_NOT_LOADED, ReportArea } from './report-area.tsx';

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const painel = painelComEmbed;
const PAGES: ReportPage[] = [
  { name: 'ReportSectionOculta', displayName: 'Rascunho', visibility: 1 },
  { name: 'ReportSection1', displayName: 'Visão geral', visibility: 0 },
  { name: 'ReportSection2', displayName: 'Detalhes', visibility: 0 },
];

function renderArea(
  props: Partial<PainelComEmbed> = {},
  refreshMarginMs?: number,
  more: Partial<Parameters<typeof ReportArea>[0]> = {},
) {
  const fake = new FakeEmbedder({ pages: PAGES });
  const createEmbedder = vi.fn(() => fake);
  const view = render(
    <ReportArea painel={painel(props)} createEmbedder={createEmbedder} refreshMarginMs={refreshMarginMs} {...more} />,
  );
  return { fake, createEmbedder, ...view };
}

/** Answers GET /api/paineis/7/token with new tokens and counts the calls. */
function tokenEndpoint(expiration = inAnHour) {
  const calls: number[] = [];
  server.use(
    http.get('/api/paineis/7/token', () => {
      calls.push(Date.now());
      return HttpResponse.json({
        embedToken: `novo-token-${calls.length}`,
        embedUrl: painel().embedUrl,
        tokenExpiration: expiration(),
      });
    }),
  );
  return calls;
}

const pagesNav = () => screen.getByRole('navigation', { name: 'Páginas do relatório' });

describe('ReportArea', () => {
  it('embeds the report with its id, URL and token, showing a loading overlay until the loaded event', async () => {
    const { fake, createEmbedder } = renderArea();
    expect(screen.getByRole('status')).toHaveTextContent('Carregando...');
    expect(createEmbedder).toHaveBeenCalledTimes(1);
    expect(fake.loads).toEqual([
      { reportId: painel().reportId, embedUrl: painel().embedUrl, accessToken: 'token-de-embed', exportData: true },
    ]);
    fake.emit('loaded');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(await within(pagesNav()).findByRole('button', { name: 'Visão geral' })).toBeInTheDocument();
  });

  it("marks the report's loaded event for the benchmark (docs/requirements.md#report-loading)", () => {
    performance.clearMarks();
    const { fake } = renderArea();
    expect(performance.getEntriesByName(LOADED_MARK)).toHaveLength(0);
    fake.emit('loaded');
    expect(performance.getEntriesByName(LOADED_MARK)).toHaveLength(1);
  });

  it('lists only the visible pages in the 220 px sidebar and selects the first visible one', async () => {
    const { fake } = renderArea();
    fake.emit('loaded');
    const first = await within(pagesNav()).findByRole('button', { name: 'Visão geral' });
    expect(pagesNav()).toHaveClass('report-pages'); // 220 px in styles/theme.css
    expect(
      within(pagesNav())
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Visão geral', 'Detalhes']);
    expect(screen.queryByText('Rascunho')).not.toBeInTheDocument();
    await waitFor(() => expect(first).toHaveAttribute('aria-current', 'page'));
    expect(fake.setPage).toHaveBeenCalledWith('ReportSection1');
    expect(screen.getByRole('button', { name: 'Detalhes' })).not.toHaveAttribute('aria-current');
  });

  it('switches the report page when a page is clicked', async () => {
    const { fake } = renderArea();
    fake.emit('loaded');
    const first = await screen.findByRole('button', { name: 'Visão geral' });
    await waitFor(() => expect(first).toHaveAttribute('aria-current', 'page'));
    await userEvent.click(screen.getByRole('button', { name: 'Detalhes' }));
    expect(fake.setPage).toHaveBeenLastCalledWith('ReportSection2');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Detalhes' })).toHaveAttribute('aria-current', 'page'),
    );
    expect(first).not.toHaveAttribute('aria-current');
  });

  it('follows page changes made inside the report', async () => {
    const { fake } = renderArea();
    fake.emit('loaded');
    const first = await screen.findByRole('button', { name: 'Visão geral' });
    await waitFor(() => expect(first).toHaveAttribute('aria-current', 'page'));
    fake.emit('pageChanged', { newPage: { name: 'ReportSection2', displayName: 'Detalhes' } });
    expect(screen.getByRole('button', { name: 'Detalhes' })).toHaveAttribute('aria-current', 'page');
  });

  it('renews the token on a TokenExpired error without reloading the report', async () => {
    const calls = tokenEndpoint();
    const { fake, createEmbedder } = renderArea();
    fake.emit('loaded');
    fake.emit('error', { message: 'TokenExpired', detailedMessage: 'Access token has expired' });
    await waitFor(() => expect(fake.setAccessToken).toHaveBeenCalledWith('novo-token-1'));
    expect(calls).toHaveLength(1);
    expect(createEmbedder).toHaveBeenCalledTimes(1);
    expect(fake.loads).toHaveLength(1);
    expect(fake.destroy).not.toHaveBeenCalled();
  });

  it('only logs other report errors once the report has loaded', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { fake } = renderArea();
    fake.emit('loaded');
    await within(pagesNav()).findByRole('button', { name: 'Visão geral' });
    const error = { message: 'VisualRenderFailed', detailedMessage: 'Could not render a visual' };
    fake.emit('error', error);
    expect(warn).toHaveBeenCalledWith(expect.any(String), error);
    expect(fake.setAccessToken).not.toHaveBeenCalled();
    expect(screen.queryByRole('heading', { name: 'Erro ao carregar relatório' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: REPORT_NOT_LOADED })).not.toBeInTheDocument();
  });

  it('renews the token the margin before it expires, and schedules the next renewal from the new expiry', async () => {
    const calls = tokenEndpoint();
    // A 2 s token with a 600 ms margin: renewed at 1.4 s.
    const { fake } = renderArea({ tokenExpiration: new Date(Date.now() + 2000).toISOString() }, 600);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(fake.setAccessToken).not.toHaveBeenCalled();
    await waitFor(() => expect(fake.setAccessToken).toHaveBeenCalledWith('novo-token-1'), { timeout: 3000 });
    // The new token lives an hour: nothing more for now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toHaveLength(1);
    expect(fake.loads).toHaveLength(1);
  });

  it('renews a short-lived token half-way through its life, not at once, and never in a tight loop', async () => {
    // Every token lives 2 s, less than twice the default five-minute margin.
    const calls = tokenEndpoint(() => new Date(Date.now() + 2000).toISOString());
    const { fake } = renderArea({ tokenExpiration: new Date(Date.now() + 2000).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls).toHaveLength(0);
    await waitFor(() => expect(fake.setAccessToken).toHaveBeenCalledWith('novo-token-1'), { timeout: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it('leaves renewal to the expiry event when the token looks expired by this browser’s clock', async () => {
    const calls = tokenEndpoint();
    const { fake } = renderArea({ tokenExpiration: new Date(Date.now() - 60_000).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toHaveLength(0);
    fake.emit('loaded');
    fake.emit('error', { message: 'TokenExpired' });
    await waitFor(() => expect(fake.setAccessToken).toHaveBeenCalledWith('novo-token-1'));
  });

  it('asks renewed tokens for the RLS role the admin previews the panel as', async () => {
    const roles: (string | null)[] = [];
    server.use(
      http.get('/api/paineis/7/token', ({ request }) => {
        roles.push(new URL(request.url).searchParams.get('papel'));
        return HttpResponse.json({ embedToken: 'novo', embedUrl: painel().embedUrl, tokenExpiration: inAnHour() });
      }),
    );
    const fake = new FakeEmbedder({ pages: PAGES });
    render(<ReportArea painel={painel({ usaRls: true })} papel="Gerente Regional" createEmbedder={() => fake} />);
    fake.emit('loaded');
    fake.emit('error', { message: 'TokenExpired' });
    await waitFor(() => expect(fake.setAccessToken).toHaveBeenCalledWith('novo'));
    expect(roles).toEqual(['Gerente Regional']);
  });

  it('renews a token that expired while the tab was hidden when the tab becomes visible again', async () => {
    const calls = tokenEndpoint();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { fake } = renderArea();
      document.dispatchEvent(new Event('visibilitychange'));
      expect(calls).toHaveLength(0);
      vi.setSystemTime(Date.now() + 2 * 3_600_000);
      document.dispatchEvent(new Event('visibilitychange'));
      await waitFor(() => expect(fake.setAccessToken).toHaveBeenCalledWith('novo-token-1'));
      expect(calls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([POWER_BI_UNAVAILABLE, POWER_BI_MODELS_MISSING, REPORT_INIT_ERROR])(
    "shows '%s' in the report error panel when embedding fails so",
    async (message) => {
      const fake = new FakeEmbedder({ pages: PAGES });
      fake.loadError = new EmbedderError(message);
      render(<ReportArea painel={painel()} createEmbedder={() => fake} />);
      expect(await screen.findByRole('heading', { name: 'Erro ao carregar relatório' })).toBeInTheDocument();
      expect(screen.getByText(message)).toBeInTheDocument();
      expect(screen.getByText(painel().reportId)).toBeInTheDocument();
    },
  );

  it("shows 'Token de embed não fornecido' without embedding when there is no token", () => {
    const { createEmbedder } = renderArea({ embedToken: '' });
    expect(screen.getByRole('heading', { name: 'Erro ao carregar relatório' })).toBeInTheDocument();
    expect(screen.getByText('Token de embed não fornecido')).toBeInTheDocument();
    expect(createEmbedder).not.toHaveBeenCalled();
  });

  it('destroys the embed and stops renewing on unmount', async () => {
    tokenEndpoint();
    const { fake, unmount } = renderArea({ tokenExpiration: new Date(Date.now() + 5 * 60_000 + 100).toISOString() });
    unmount();
    expect(fake.destroy).toHaveBeenCalledTimes(1);
    document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.setAccessToken).not.toHaveBeenCalled();
  });

  it('marks the demonstration when the API names a demo page, and hands that page to the embedder', () => {
    const demoEmbedUrl = 'http://127.0.0.1:4010/reportEmbed?reportId=22222222-2222-4222-8222-222222222222';
    const { unmount, createEmbedder } = renderArea({ demoEmbedUrl });
    expect(within(pagesNav()).getByText('Demonstração')).toBeInTheDocument();
    expect(createEmbedder).toHaveBeenCalledWith(expect.objectContaining({ demoEmbedUrl }));
    unmount();
    // A stand-in's token alone does not make a demonstration: only the API says so.
    renderArea({ embedToken: fakeToken({ iss: 'http://127.0.0.1:4010' }) });
    expect(screen.queryByText('Demonstração')).not.toBeInTheDocument();
  });

  it('opens on the page asked for, reports every page shown, and hands over the report once on it', async () => {
    const pagesShown: string[] = [];
    const onReady = vi.fn();
    const { fake } = renderArea({}, undefined, {
      initialPage: 'ReportSection2',
      onPageChange: (name) => pagesShown.push(name),
      onReady,
    });
    expect(fake.loads[0]).toMatchObject({ pageName: 'ReportSection2' });
    fake.emit('loaded');
    await waitFor(() => expect(onReady).toHaveBeenCalledWith(fake));
    expect(fake.setPage).toHaveBeenCalledWith('ReportSection2');
    expect(within(pagesNav()).getByRole('button', { name: 'Detalhes' })).toHaveAttribute('aria-current', 'page');
    expect(pagesShown).toEqual(['ReportSection2']);

    fake.emit('pageChanged', { newPage: { name: 'ReportSection1' } });
    expect(pagesShown).toEqual(['ReportSection2', 'ReportSection1']);
  });

  it('opens on the first visible page when the page asked for is not one', async () => {
    const onReady = vi.fn();
    const { fake } = renderArea({}, undefined, { initialPage: 'ReportSectionOculta', onReady });
    fake.emit('loaded');
    await waitFor(() => expect(onReady).toHaveBeenCalledWith(fake));
    expect(fake.setPage).toHaveBeenCalledWith('ReportSection1');
    expect(fake.setPage).not.toHaveBeenCalledWith('ReportSectionOculta');
  });

  describe('never hangs on a report Power BI does not load', () => {
    /** A new fake per embed, as the real factory makes a new embedder each time; each kept in `fakes`. */
    function renderStalling(props: Partial<PainelComEmbed> = {}, loadTimeoutMs = 100) {
      const fakes: FakeEmbedder[] = [];
      const createEmbedder = vi.fn(() => {
        const fake = new FakeEmbedder({ pages: PAGES });
        fakes.push(fake);
        return fake;
      });
      render(<ReportArea painel={painel(props)} createEmbedder={createEmbedder} loadTimeoutMs={loadTimeoutMs} />);
      return { fakes, createEmbedder };
    }
    const notLoaded = () => screen.findByRole('heading', { name: REPORT_NOT_LOADED }, { timeout: 2_000 });

    it("replaces the loading overlay with a message when no 'loaded' comes in time, and 'Tentar novamente' embeds again", async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const { fakes, createEmbedder } = renderStalling({}, 150);
      expect(screen.getByRole('status')).toHaveTextContent('Carregando...');
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(screen.queryByRole('heading', { name: REPORT_NOT_LOADED })).not.toBeInTheDocument();

      const heading = await notLoaded();
      expect(heading.closest('[role="alert"]')).toHaveTextContent('O Power BI não abriu o relatório em');
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
      // Logged as Power BI's errors are (docs/requirements.md#error-catalogue).
      expect(warn).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ message: 'LoadTimeout' }));

      await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
      expect(fakes[0]!.destroy).toHaveBeenCalledTimes(1);
      expect(createEmbedder).toHaveBeenCalledTimes(2);
      // The token in hand is good for an hour: embedded again with it, no new one asked for (msw would refuse it).
      expect(fakes[1]!.loads).toEqual([expect.objectContaining({ accessToken: 'token-de-embed' })]);
      expect(screen.queryByRole('heading', { name: REPORT_NOT_LOADED })).not.toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent('Carregando...');
      fakes[1]!.emit('loaded');
      expect(await within(pagesNav()).findByRole('button', { name: 'Visão geral' })).toBeInTheDocument();
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
      // Loaded: the time limit is over for this embed.
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(screen.queryByRole('heading', { name: REPORT_NOT_LOADED })).not.toBeInTheDocument();
    });

    it('tells at once when an error event comes before the report has loaded, and logs it', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const { fakes, createEmbedder } = renderStalling({}, 60_000);
      const error = { message: 'LoadReportFailed', detailedMessage: 'Could not resolve cluster' };
      fakes[0]!.emit('error', error);
      const heading = screen.getByRole('heading', { name: REPORT_NOT_LOADED });
      expect(heading.closest('[role="alert"]')).toHaveTextContent('O Power BI informou um erro ao abrir o relatório.');
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
      expect(warn).toHaveBeenCalledWith(expect.any(String), error);

      await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
      expect(createEmbedder).toHaveBeenCalledTimes(2);
      expect(fakes[1]!.loads).toHaveLength(1);
      fakes[1]!.emit('loaded');
      expect(await within(pagesNav()).findByRole('button', { name: 'Visão geral' })).toBeInTheDocument();
    });

    it('asks for a new token before embedding again when the one in hand has expired', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const calls = tokenEndpoint();
      const { fakes } = renderStalling({ tokenExpiration: new Date(Date.now() - 60_000).toISOString() }, 60_000);
      fakes[0]!.emit('error', { message: 'LoadReportFailed' });
      expect(calls).toHaveLength(0);
      await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
      await waitFor(() => expect(fakes[1]?.loads).toEqual([expect.objectContaining({ accessToken: 'novo-token-1' })]));
      expect(calls).toHaveLength(1);
    });

    it('shows the report when it loads after all, past the time limit', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const { fakes, createEmbedder } = renderStalling({}, 50);
      await notLoaded();
      fakes[0]!.emit('loaded');
      expect(await within(pagesNav()).findByRole('button', { name: 'Visão geral' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: REPORT_NOT_LOADED })).not.toBeInTheDocument();
      expect(createEmbedder).toHaveBeenCalledTimes(1);
    });
  });
});
