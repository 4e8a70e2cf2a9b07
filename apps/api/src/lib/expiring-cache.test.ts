import { describe, expect, it, vi } from 'vitest';
import { ExpiringCache } from './expiring-cache.ts';

const later = (ms: number) => Date.now() + ms;

describe('ExpiringCache', () => {
  it('keeps a value until its deadline, then loads it again', async () => {
    const cache = new ExpiringCache<number>();
    let loads = 0;
    const load = (until: number) => async () => ({ value: ++loads, until });
    expect(await cache.get('a', load(later(60_000)))).toBe(1);
    expect(await cache.get('a', load(later(60_000)))).toBe(1);
    expect(await cache.get('b', load(Date.now() - 1))).toBe(2);
    // Already past its deadline when it arrived: never served again.
    expect(await cache.get('b', load(later(60_000)))).toBe(3);
  });

  it('shares one load among callers arriving together', async () => {
    const cache = new ExpiringCache<string>();
    const load = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { value: 'token', until: later(60_000) };
    });
    const values = await Promise.all(Array.from({ length: 50 }, () => cache.get('k', load)));
    expect(new Set(values)).toEqual(new Set(['token']));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load, so the next caller tries again', async () => {
    const cache = new ExpiringCache<string>();
    await expect(cache.get('k', () => Promise.reject(new Error('falhou')))).rejects.toThrow('falhou');
    expect(cache.size).toBe(0);
    expect(await cache.get('k', async () => ({ value: 'ok', until: later(60_000) }))).toBe('ok');
  });

  it('never holds more than its maximum: expired entries go first, then the oldest', async () => {
    const cache = new ExpiringCache<number>(3);
    await cache.get('velho', async () => ({ value: 1, until: later(60_000) }));
    await cache.get('expirado', async () => ({ value: 2, until: Date.now() - 1 }));
    await cache.get('novo', async () => ({ value: 3, until: later(60_000) }));
    await cache.get('quarto', async () => ({ value: 4, until: later(60_000) }));
    expect(cache.size).toBe(3);
    // The expired one made room; the old one is still served.
    expect(await cache.get('velho', async () => ({ value: 99, until: later(60_000) }))).toBe(1);
    await cache.get('quinto', async () => ({ value: 5, until: later(60_000) }));
    expect(cache.size).toBe(3);
    expect(await cache.get('velho', async () => ({ value: 100, until: later(60_000) }))).toBe(100);
  });
});
