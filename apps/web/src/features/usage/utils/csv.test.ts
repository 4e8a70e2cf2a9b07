import { describe, expect, it } from 'vitest';
import { csvDateTime, csvDay, parseDay, toCsv, type CsvColumn } from './csv.ts';

interface Linha {
  nome: string;
  n: number | null;
}
const columns: CsvColumn<Linha>[] = [
  { header: 'Nome', value: (l) => l.nome },
  { header: 'Número', value: (l) => l.n },
];

describe('toCsv: a CSV as pt-BR Excel opens it', () => {
  it('starts with a BOM, separates with ; and ends lines with CRLF', () => {
    expect(toCsv(columns, [{ nome: 'Região Sul', n: 1234 }])).toBe('\uFEFFNome;Número\r\nRegião Sul;1234');
  });

  it('quotes separators, quotes and line breaks, and leaves empty values empty', () => {
    const csv = toCsv(columns, [
      { nome: 'Vendas; Metas', n: null },
      { nome: 'O "melhor"', n: 0 },
      { nome: 'duas\nlinhas', n: 2 },
    ]);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Nome;Número',
      '"Vendas; Metas";',
      '"O ""melhor""";0',
      '"duas\nlinhas";2',
    ]);
  });

  it('escapes values that Excel would run as a formula', () => {
    const csv = toCsv(columns, [{ nome: '=HIPERLINK("http://x")', n: 1 }]);
    expect(csv.slice(1).split('\r\n')[1]).toBe(`"'=HIPERLINK(""http://x"")";1`);
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(columns, [])).toBe('\uFEFFNome;Número\r\n');
  });
});

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
