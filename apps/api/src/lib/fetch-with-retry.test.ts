import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './fetch-with-retry.ts';

describe('reading a Retry-After', () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);

  it('reads delay-seconds, however large, and HTTP-dates, as a wait from now', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('31536000', now)).toBe(31_536_000_000);
    expect(retryAfterMs('Tue, 01 Jan 2030 12:00:30 GMT', now)).toBe(30_000);
    // A date already past asks for no wait at all.
    expect(retryAfterMs('Tue, 01 Jan 2030 11:00:00 GMT', now)).toBe(0);
  });

  it('gives nothing for an absent or unreadable header, so the backoff applies', () => {
    for (const header of [null, '', '  ', '-5', '1.5', 'depois', '10s']) expect(retryAfterMs(header, now)).toBeNull();
  });
});
