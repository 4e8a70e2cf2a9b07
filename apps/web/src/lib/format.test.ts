import { describe, expect, it } from 'vitest';
import { formatDate, formatDateMinutes, formatDateTime, formatInteger } from './format.ts';

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
