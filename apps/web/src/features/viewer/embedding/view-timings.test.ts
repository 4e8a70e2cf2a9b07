import { describe, expect, it, vi } from 'vitest';
import { errorText, trackViewTimings } from './view-timings.ts';

describe('trackViewTimings (requirements: usage)', () => {
  it('leaves out a time the API would refuse (over an hour: a tab asleep, a clock gone wrong)', () => {
    let now = 1_000;
    const send = vi.fn();
    const timings = trackViewTimings({ id: 'v', askedAt: 1_000 }, send, { now: () => now });
    now += 1_234.4;
    timings.loaded();
    now += 3_600_000;
    timings.rendered();
    expect(send).toHaveBeenCalledExactlyOnceWith({ carregadoMs: 1_234 });
  });

  it('sends what is known as the page is left (closing the tab unmounts nothing), and once', () => {
    const send = vi.fn();
    const timings = trackViewTimings({ id: 'v', askedAt: performance.now() }, send);
    window.dispatchEvent(new Event('pagehide'));
    expect(send).not.toHaveBeenCalled();
    timings.loaded();
    window.dispatchEvent(new Event('pagehide'));
    expect(send).toHaveBeenCalledExactlyOnceWith({ carregadoMs: expect.any(Number) as number });
    timings.rendered();
    timings.close();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('no longer listens for the page being left once closed', () => {
    const send = vi.fn();
    const timings = trackViewTimings({ id: 'v', askedAt: performance.now() }, send);
    timings.close();
    timings.loaded();
    window.dispatchEvent(new Event('pagehide'));
    expect(send).not.toHaveBeenCalled();
  });

  it("reports a view once, even when its report's events are watched again", () => {
    const view = { id: 'v', askedAt: performance.now() };
    const send = vi.fn();
    const first = trackViewTimings(view, send);
    first.loaded();
    first.rendered();
    first.close();
    const again = trackViewTimings(view, send);
    again.loaded();
    again.rendered();
    again.close();
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('errorText', () => {
  it("is the detail's message, else the detail as text, at most 500 characters", () => {
    expect(errorText({ message: 'TokenExpired', detailedMessage: 'Access token has expired' })).toBe('TokenExpired');
    expect(errorText({ errorCode: 'X1', message: '' })).toBe('{"errorCode":"X1","message":""}');
    expect(errorText('Falhou')).toBe('Falhou');
    expect(errorText(null)).toBe('null');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText({ message: 'é'.repeat(501) })).toHaveLength(500);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(errorText(cyclic)).toBe('[object Object]');
  });
});
