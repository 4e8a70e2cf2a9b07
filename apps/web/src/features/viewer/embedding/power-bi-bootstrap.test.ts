import { afterEach, describe, expect, it, vi } from 'vitest';
import { PowerBiEmbedder, preloadPowerBi } from './power-bi-embedder.ts';

const EMBED_URL =
  'https://app.powerbi.com/reportEmbed?reportId=22222222-2222-4222-8222-222222222222&groupId=11111111-1111-4111-8111-111111111111';
const target = { reportId: '22222222-2222-4222-8222-222222222222', embedUrl: EMBED_URL, accessToken: 'token' };
const library = () => import('powerbi-client');

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const iframeOf = (container: HTMLElement) => {
  const frames = container.querySelectorAll('iframe');
  expect(frames).toHaveLength(1);
  return frames[0]!;
};

describe('PowerBiEmbedder.bootstrap (docs/requirements.md#report-loading)', () => {
  it("puts Power BI's iframe in the container, in the locale, before the token; load() then reuses it", async () => {
    const powerbi = await library();
    const bootstrap = vi.spyOn(powerbi.service.Service.prototype, 'bootstrap');
    const embed = vi.spyOn(powerbi.service.Service.prototype, 'embed');
    const container = document.body.appendChild(document.createElement('div'));
    const embedder = new PowerBiEmbedder(library);

    embedder.bootstrap(container, 'en-US');
    await vi.waitFor(() => expect(bootstrap).toHaveBeenCalled());
    expect(bootstrap).toHaveBeenCalledWith(container, {
      type: 'report',
      hostname: 'https://app.powerbi.com',
      settings: { localeSettings: { language: 'en-US', formatLocale: 'en-US' } },
    });
    const booted = iframeOf(container);
    const src = new URL(booted.src);
    expect(src.origin + src.pathname).toBe('https://app.powerbi.com/reportEmbed');
    expect(src.searchParams.get('language')).toBe('en-US');
    expect(src.searchParams.get('formatLocale')).toBe('en-US');

    await embedder.load(container, { ...target, locale: 'en-US' });
    // The same iframe: the report loads into the page that was already downloading Power BI's scripts.
    expect(iframeOf(container)).toBe(booted);
    expect(embed).toHaveBeenCalledWith(
      container,
      expect.objectContaining({
        id: target.reportId,
        accessToken: 'token',
        settings: expect.objectContaining({ localeSettings: { language: 'en-US', formatLocale: 'en-US' } }),
      }),
    );
    embedder.destroy();
    expect(container.querySelector('iframe')).toBeNull();
  });

  it('embeds afresh when the panel turns out to have another language than the one bootstrapped', async () => {
    const powerbi = await library();
    const reset = vi.spyOn(powerbi.service.Service.prototype, 'reset');
    const container = document.body.appendChild(document.createElement('div'));
    const embedder = new PowerBiEmbedder(library);
    embedder.bootstrap(container, 'pt-BR');
    await vi.waitFor(() => expect(container.querySelector('iframe')).not.toBeNull());
    const booted = iframeOf(container);

    await embedder.load(container, { ...target, locale: 'en-US' });
    expect(reset).toHaveBeenCalledWith(container);
    const fresh = iframeOf(container);
    expect(fresh).not.toBe(booted);
    const src = new URL(fresh.src);
    expect(src.searchParams.get('reportId')).toBe(target.reportId);
    expect(src.searchParams.get('language')).toBe('en-US');
  });

  it('a load its embedder was destroyed during embeds nothing: the embedder that replaced it embeds alone', async () => {
    const container = document.body.appendChild(document.createElement('div'));
    const first = new PowerBiEmbedder(library);
    first.bootstrap(container, 'pt-BR');
    // The viewer's effect runs again (its locale became known) while the first load waits for the bootstrap.
    const abandoned = first.load(container, { ...target, locale: 'pt-BR' });
    first.destroy();
    const second = new PowerBiEmbedder(library);
    await second.load(container, { ...target, locale: 'pt-BR' });
    // Without the check, the first load embedded too, with a service of its own, and one of the two threw.
    await expect(abandoned).resolves.toBeUndefined();
    expect(new URL(iframeOf(container).src).searchParams.get('reportId')).toBe(target.reportId);
    second.destroy();
  });

  it('does not bootstrap a container whose embedder was destroyed before the library arrived', async () => {
    const container = document.body.appendChild(document.createElement('div'));
    let arrive: (value: Awaited<ReturnType<typeof library>>) => void = () => undefined;
    const embedder = new PowerBiEmbedder(() => new Promise((resolve) => (arrive = resolve)));
    embedder.bootstrap(container, 'pt-BR');
    embedder.destroy();
    arrive(await library());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(container.querySelector('iframe')).toBeNull();
  });
});

describe('preloadPowerBi', () => {
  it("adds powerbi-client's hidden iframe on Power BI's report page, which warms the browser cache", async () => {
    const iframe = await preloadPowerBi(library);
    expect(iframe?.parentElement).toBe(document.body);
    expect(iframe?.getAttribute('src')).toBe('https://app.powerbi.com/reportEmbed');
    expect(iframe?.getAttribute('style')).toBe('display:none;');
  });

  it('answers null rather than failing when the library cannot be had', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await preloadPowerBi(() => Promise.reject(new Error('chunk')))).toBeNull();
  });
});
