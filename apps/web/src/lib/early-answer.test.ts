import { describe, expect, it, vi } from 'vitest';
import { earlyAnswer } from './early-answer.ts';

describe('earlyAnswer', () => {
  it('hands the early answer to the first request for the same key, and only to it', async () => {
    const early = earlyAnswer<string>();
    const first = vi.fn(() => Promise.resolve('cedo'));
    const later = vi.fn(() => Promise.resolve('depois'));
    await early.prefetch('a', first);
    expect(await early.takeOrAsk('a', later)).toBe('cedo');
    expect(await early.takeOrAsk('a', later)).toBe('depois');
    expect(first).toHaveBeenCalledTimes(1);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('asks anew for another key, and drops the early answer', async () => {
    const early = earlyAnswer<string>();
    await early.prefetch('a', () => Promise.resolve('a'));
    expect(await early.takeOrAsk('b', () => Promise.resolve('b'))).toBe('b');
    expect(await early.takeOrAsk('a', () => Promise.resolve('de novo'))).toBe('de novo');
  });

  it('asks again when the early request failed, so the error is the screen’s own', async () => {
    const early = earlyAnswer<string>();
    void early.prefetch('a', () => Promise.reject(new Error('rede')));
    const again = vi.fn(() => Promise.reject(new Error('401')));
    await expect(early.takeOrAsk('a', again)).rejects.toThrow('401');
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('gives the arrived answer once, and nothing before it arrives', async () => {
    const early = earlyAnswer<string>();
    let arrive!: (value: string) => void;
    const answer = early.prefetch('a', () => new Promise((resolve) => (arrive = resolve)));
    expect(early.takeArrived('a')).toBeUndefined();
    arrive('pronto');
    await answer;
    expect(early.takeArrived('b')).toBeUndefined();
    expect(early.takeArrived('a')).toBe('pronto');
    expect(early.takeArrived('a')).toBeUndefined();
  });
});
