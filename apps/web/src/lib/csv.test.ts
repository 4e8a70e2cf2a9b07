import { describe, expect, it } from 'vitest';
import { toCsv, type CsvColumn } from './csv.ts';

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
