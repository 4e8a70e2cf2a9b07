import { describe, expect, it, vi } from 'vitest';
import { fakeToken } from '../../../test/session.ts';
import { createReportEmbedder } from './create-report-embedder.ts';
import { DemoEmbedder } from './demo-embedder.ts';
import { PowerBiEmbedder } from './power-bi-embedder.ts';
import {
  POWER_BI_MODELS_MISSING,
  POWER_BI_UNAVAILABLE,
  REPORT_INIT_ERROR,
  reportConfiguration,
} from './report-embedder.ts';

const EMBED_URL =
  'https://app.powerbi.com/reportEmbed?reportId=22222222-2222-4222-8222-222222222222&groupId=11111111-1111-4111-8111-111111111111';
const target = { reportId: '22222222-2222-4222-8222-222222222222', embedUrl: EMBED_URL, accessToken: 'token' };

describe('choosing the embedder', () => {
  it('shows the demo page the API names in demo mode', () => {
    const demoEmbedUrl = `http://127.0.0.1:4010/reportEmbed?${EMBED_URL.split('?')[1]}`;
    const embedder = createReportEmbedder({ ...target, demoEmbedUrl });
    expect(embedder).toBeInstanceOf(DemoEmbedder);
    expect(embedder.demo).toBe(true);
  });

  it('uses powerbi-client whenever the API names no demo page, whoever issued the token', () => {
    for (const token of [fakeToken({ iss: 'http://127.0.0.1:4010' }), fakeToken(), 'não-é-jwt']) {
      const embedder = createReportEmbedder({ ...target, accessToken: token });
      expect(embedder).toBeInstanceOf(PowerBiEmbedder);
      expect(embedder.demo).toBe(false);
    }
  });
});

describe('PowerBiEmbedder errors (requirements: error-catalogue)', () => {
  const container = () => document.createElement('div');

  it('says Power BI is unavailable when the library cannot be loaded or has no service', async () => {
    await expect(
      new PowerBiEmbedder(() => Promise.reject(new Error('chunk'))).load(container(), target),
    ).rejects.toThrow(POWER_BI_UNAVAILABLE);
    await expect(new PowerBiEmbedder(() => Promise.resolve({})).load(container(), target)).rejects.toThrow(
      POWER_BI_UNAVAILABLE,
    );
  });

  it('says the models are missing when the library comes without them', async () => {
    const { service, factories } = await import('powerbi-client');
    await expect(
      new PowerBiEmbedder(() => Promise.resolve({ service, factories })).load(container(), target),
    ).rejects.toThrow(POWER_BI_MODELS_MISSING);
  });

  it('says the report could not be initialised when embedding throws', async () => {
    const library = await import('powerbi-client');
    vi.spyOn(library.service.Service.prototype, 'embed').mockImplementation(() => {
      throw new Error('Invalid embed URL');
    });
    await expect(new PowerBiEmbedder(() => Promise.resolve(library)).load(container(), target)).rejects.toThrow(
      REPORT_INIT_ERROR,
    );
  });
});

describe('PowerBiEmbedder', () => {
  it("hides Power BI's own 'Export data' command when the panel does not allow exporting data", async () => {
    const { models } = await import('powerbi-client');
    const types = { tokenType: models.TokenType.Embed, background: models.BackgroundType.Transparent };
    expect(reportConfiguration({ ...target, exportData: false }, types).settings).toMatchObject({
      commands: [{ exportData: { displayOption: models.CommandDisplayOption.Hidden } }],
    });
    for (const exportData of [true, undefined]) {
      expect(reportConfiguration({ ...target, exportData }, types).settings).not.toHaveProperty('commands');
    }
  });

  it('embeds with the required configuration and forwards event details (requirements: viewer-embed-settings)', async () => {
    const library = await import('powerbi-client');
    const on = vi.fn();
    const embed = vi
      .spyOn(library.service.Service.prototype, 'embed')
      .mockImplementation(() => ({ on }) as unknown as ReturnType<typeof embed>);
    const embedder = new PowerBiEmbedder(() => Promise.resolve(library));
    const loaded = vi.fn();
    embedder.on('loaded', loaded);
    const container = document.createElement('div');
    await embedder.load(container, target);
    expect(embed).toHaveBeenCalledWith(container, {
      type: 'report',
      id: target.reportId,
      embedUrl: EMBED_URL,
      accessToken: 'token',
      tokenType: library.models.TokenType.Embed,
      settings: {
        panes: { filters: { visible: true }, pageNavigation: { visible: false } },
        navContentPaneEnabled: false,
        bars: { actionBar: { visible: false } },
        background: library.models.BackgroundType.Transparent,
      },
    });
    const [[event, handler]] = on.mock.calls as [[string, (custom: { detail: unknown }) => void]];
    expect(event).toBe('loaded');
    handler({ detail: 'detalhe' });
    expect(loaded).toHaveBeenCalledWith('detalhe');
  });

  it("forwards the report's error events, which tell the viewer a report did not load", async () => {
    const library = await import('powerbi-client');
    const on = vi.fn();
    vi.spyOn(library.service.Service.prototype, 'embed').mockImplementation(
      () => ({ on }) as unknown as ReturnType<typeof library.service.Service.prototype.embed>,
    );
    const embedder = new PowerBiEmbedder(() => Promise.resolve(library));
    const failed = vi.fn();
    embedder.on('error', failed);
    await embedder.load(document.createElement('div'), target);
    const [[event, handler]] = on.mock.calls as [[string, (custom: { detail: unknown }) => void]];
    expect(event).toBe('error');
    handler({ detail: { message: 'LoadReportFailed' } });
    expect(failed).toHaveBeenCalledWith({ message: 'LoadReportFailed' });
  });

  it("opens on the page asked for, and captures, applies, prints and goes full screen through the library's report", async () => {
    const library = await import('powerbi-client');
    const report = {
      on: vi.fn(),
      bookmarksManager: {
        capture: vi.fn(() => Promise.resolve({ name: 'b', displayName: 'b', state: 'estado-capturado' })),
        applyState: vi.fn(() => Promise.resolve()),
      },
      print: vi.fn(() => Promise.resolve()),
      fullscreen: vi.fn(),
    };
    const embed = vi
      .spyOn(library.service.Service.prototype, 'embed')
      .mockImplementation(() => report as unknown as ReturnType<typeof embed>);
    const embedder = new PowerBiEmbedder(() => Promise.resolve(library));
    await embedder.load(document.createElement('div'), { ...target, pageName: 'ReportSection2' });
    expect(embed.mock.lastCall?.[1]).toMatchObject({ pageName: 'ReportSection2' });

    await expect(embedder.captureState()).resolves.toBe('estado-capturado');
    await embedder.applyState('estado-salvo');
    expect(report.bookmarksManager.applyState).toHaveBeenCalledWith('estado-salvo');
    await embedder.print();
    expect(report.print).toHaveBeenCalledTimes(1);
    embedder.fullscreen();
    expect(report.fullscreen).toHaveBeenCalledTimes(1);
  });
});

describe('DemoEmbedder', () => {
  it('speaks the powerbi-client protocol with the demo host iframe', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const embedder = new DemoEmbedder('http://127.0.0.1:4010/reportEmbed?reportId=r1&groupId=g1');
    const loaded = vi.fn();
    embedder.on('loaded', loaded);
    await embedder.load(container, target);
    const iframe = container.querySelector('iframe');
    if (!iframe?.contentWindow) throw new Error('no iframe');
    const host = iframe.contentWindow;
    const uid = new URL(iframe.src).searchParams.get('uid');
    expect(iframe.src).toMatch(/^http:\/\/127\.0\.0\.1:4010\/reportEmbed\?reportId=r1&groupId=g1&uid=/);
    const posted = vi.spyOn(host, 'postMessage').mockImplementation(() => undefined);
    const reply = (body: unknown) => {
      const [request] = posted.mock.lastCall as [{ headers: { id: string } }];
      window.dispatchEvent(
        new MessageEvent('message', {
          source: host,
          data: { statusCode: 200, headers: { id: request.headers.id }, body },
        }),
      );
    };

    iframe.dispatchEvent(new Event('load'));
    expect(posted).toHaveBeenLastCalledWith(
      {
        method: 'POST',
        url: '/report/load',
        headers: { id: expect.any(String) as string, uid },
        body: expect.objectContaining({
          id: target.reportId,
          accessToken: 'token',
          tokenType: 1,
          settings: expect.objectContaining({
            panes: { filters: { visible: true }, pageNavigation: { visible: false } },
          }) as object,
        }) as object,
      },
      '*',
    );
    reply(null);

    window.dispatchEvent(
      new MessageEvent('message', {
        source: host,
        data: { method: 'POST', url: `/reports/${uid}/events/loaded`, headers: { id: 'e1' }, body: null },
      }),
    );
    expect(loaded).toHaveBeenCalledTimes(1);

    const pages = embedder.getPages();
    expect(posted).toHaveBeenLastCalledWith(expect.objectContaining({ method: 'GET', url: '/report/pages' }), '*');
    reply([{ name: 'p1', displayName: 'Página 1', isActive: true, visibility: 0 }]);
    await expect(pages).resolves.toEqual([{ name: 'p1', displayName: 'Página 1', isActive: true, visibility: 0 }]);

    const page = embedder.setPage('p1');
    expect(posted).toHaveBeenLastCalledWith(
      expect.objectContaining({
        method: 'PUT',
        url: '/report/pages/active',
        body: expect.objectContaining({ name: 'p1' }) as object,
      }),
      '*',
    );
    reply(null);
    await page;

    const token = embedder.setAccessToken('novo');
    expect(posted).toHaveBeenLastCalledWith(
      expect.objectContaining({ method: 'POST', url: '/report/token', body: 'novo' }),
      '*',
    );
    reply(null);
    await token;

    const captured = embedder.captureState();
    expect(posted).toHaveBeenLastCalledWith(
      expect.objectContaining({ method: 'POST', url: '/report/bookmarks/capture', body: { options: {} } }),
      '*',
    );
    reply({ name: 'b1', displayName: 'Marcador', state: 'estado-demo' });
    await expect(captured).resolves.toBe('estado-demo');

    const applied = embedder.applyState('estado-salvo');
    expect(posted).toHaveBeenLastCalledWith(
      expect.objectContaining({ method: 'POST', url: '/report/bookmarks/applyState', body: { state: 'estado-salvo' } }),
      '*',
    );
    reply(null);
    await applied;

    const printed = embedder.print();
    expect(posted).toHaveBeenLastCalledWith(expect.objectContaining({ method: 'POST', url: '/report/print' }), '*');
    reply(null);
    await printed;

    const requestFullscreen = vi.fn(() => Promise.resolve());
    iframe.requestFullscreen = requestFullscreen;
    embedder.fullscreen();
    expect(requestFullscreen).toHaveBeenCalledTimes(1);

    embedder.destroy();
    expect(container.querySelector('iframe')).toBeNull();
    container.remove();
  });

  it("opens the demo host in the report's locale, as powerbi-client puts localeSettings in the address", async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const embedder = new DemoEmbedder('http://127.0.0.1:4010/reportEmbed?reportId=r1&groupId=g1');
    await embedder.load(container, { ...target, locale: 'en-US' });
    const src = new URL(container.querySelector('iframe')!.src);
    expect(src.searchParams.get('language')).toBe('en-US');
    expect(src.searchParams.get('formatLocale')).toBe('en-US');
    expect(src.searchParams.get('reportId')).toBe('r1');
    embedder.destroy();
    container.remove();
  });

  it('asks the demo host for the page of the address when it loads', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const embedder = new DemoEmbedder('http://127.0.0.1:4010/reportEmbed?reportId=r1&groupId=g1');
    await embedder.load(container, { ...target, pageName: 'ReportSection2' });
    const iframe = container.querySelector('iframe')!;
    const posted = vi.spyOn(iframe.contentWindow!, 'postMessage').mockImplementation(() => undefined);
    iframe.dispatchEvent(new Event('load'));
    expect(posted).toHaveBeenLastCalledWith(
      expect.objectContaining({ url: '/report/load', body: expect.objectContaining({ pageName: 'ReportSection2' }) }),
      '*',
    );
    embedder.destroy();
    container.remove();
  });

  it('raises an error event when the demo host refuses to load the report, and forwards the host’s own', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const container = document.createElement('div');
    document.body.append(container);
    const embedder = new DemoEmbedder('http://127.0.0.1:4010/reportEmbed?reportId=r1&groupId=g1');
    const failed = vi.fn();
    embedder.on('error', failed);
    await embedder.load(container, target);
    const iframe = container.querySelector('iframe')!;
    const host = iframe.contentWindow!;
    const uid = new URL(iframe.src).searchParams.get('uid');
    const posted = vi.spyOn(host, 'postMessage').mockImplementation(() => undefined);
    iframe.dispatchEvent(new Event('load'));
    const [request] = posted.mock.lastCall as [{ headers: { id: string } }];
    window.dispatchEvent(
      new MessageEvent('message', {
        source: host,
        data: { statusCode: 404, headers: { id: request.headers.id }, body: { message: 'Relatório não encontrado' } },
      }),
    );
    await vi.waitFor(() =>
      expect(failed).toHaveBeenCalledWith(expect.objectContaining({ message: 'LoadReportFailed' })),
    );

    window.dispatchEvent(
      new MessageEvent('message', {
        source: host,
        data: { method: 'POST', url: `/reports/${uid}/events/error`, headers: { id: 'e1' }, body: { message: 'X' } },
      }),
    );
    expect(failed).toHaveBeenLastCalledWith({ message: 'X' });
    embedder.destroy();
    container.remove();
  });
});
