import { describe, expect, it } from 'vitest';
import { formatDate, formatDateMinutes, formatDateTime, formatInteger, formatUpdatedAt } from './format.ts';

describe('formatInteger', () => {
  it.each([0, 1, 12, 999, 1_000, 1_234, 25_000, 100_000, 999_999, 1_000_000, 1_234_567_890, -1, -1_234, 7.9])(
    'writes %d as Intl does for pt-BR',
    (n) => {
      expect(formatInteger(n)).toBe(Math.trunc(n).toLocaleString('pt-BR'));
    },
  );
});

describe('dates', () => {
  const dates = [new Date(2026, 10, 23, 14, 5, 9), new Date(2001, 0, 2, 3, 4, 5), new Date(2026, 11, 31, 23, 59, 59)];

  it.each(dates)('writes %s as Intl does for pt-BR', (date) => {
    expect(formatDate(date)).toBe(date.toLocaleDateString('pt-BR'));
    expect(formatDateTime(date)).toBe(date.toLocaleString('pt-BR'));
    expect(formatDateMinutes(date)).toBe(
      `${date.toLocaleDateString('pt-BR')} ${date.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' })}`,
    );
  });
});

describe('formatUpdatedAt', () => {
  // Local times: the day and hour written are the browser's, whatever its time zone.
  const now = new Date(2026, 10, 27, 14, 30, 0).getTime();
  const ago = (ms: number) => new Date(now - ms);
  const MIN = 60_000;

  it.each([
    [0, 'Atualizado agora'],
    [59_999, 'Atualizado agora'],
    [-5 * MIN, 'Atualizado agora'], // a refresh this browser's clock puts in the future
    [MIN, 'Atualizado há 1 min'],
    [5 * MIN + 30_000, 'Atualizado há 5 min'],
    [59 * MIN + 59_999, 'Atualizado há 59 min'],
    [60 * MIN, 'Atualizado há 1 h'],
    [2 * 60 * MIN + 59 * MIN, 'Atualizado há 2 h'],
    [24 * 60 * MIN - 1, 'Atualizado há 23 h'],
  ])('writes a refresh %d ms ago as %s', (ms, text) => {
    expect(formatUpdatedAt(ago(ms), now)).toBe(text);
  });

  it('writes the local day and time from a day on, with the year only when it is not this year', () => {
    expect(formatUpdatedAt(ago(24 * 60 * MIN), now)).toBe('Atualizado em 26/11 14:30');
    expect(formatUpdatedAt(new Date(2026, 10, 3, 7, 15), now)).toBe('Atualizado em 03/11 07:15');
    expect(formatUpdatedAt(new Date(2025, 11, 31, 23, 5), now)).toBe('Atualizado em 31/12/2025 23:05');
  });
});
