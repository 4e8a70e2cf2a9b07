import { describe, expect, it } from 'vitest';
import { csvDateTime, csvDay, parseDay } from './csv.ts';

describe('dates in the CSV', () => {
  it('writes a moment as Excel reads a date, in local time', () => {
    const moment = new Date(2026, 10, 23, 14, 5, 9);
    expect(csvDateTime(moment.toISOString())).toBe('23/11/2026 14:05:09');
    expect(csvDateTime(null)).toBe('');
  });

  it('reads a day of the period as a local date', () => {
    expect(parseDay('2026-01-05').getDate()).toBe(5);
    expect(csvDay('2026-01-05')).toBe('05/01/2026');
  });
});
