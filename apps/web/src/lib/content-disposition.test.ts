import { describe, expect, it } from 'vitest';
import { fileNameFrom } from './content-disposition.ts';

describe('fileNameFrom', () => {
  it('prefers the UTF-8 name (filename*) to the plain one, so accents survive', () => {
    expect(
      fileNameFrom(`attachment; filename="Vendas por Regiao.pdf"; filename*=UTF-8''Vendas%20por%20Regi%C3%A3o.pdf`),
    ).toBe('Vendas por Região.pdf');
  });

  it('reads a quoted or bare plain name', () => {
    expect(fileNameFrom('attachment; filename="Metas \\"2026\\".pptx"')).toBe('Metas "2026".pptx');
    expect(fileNameFrom('attachment; filename=relatorio.pdf')).toBe('relatorio.pdf');
  });

  it('never names a folder, and gives nothing for a header without a name', () => {
    expect(fileNameFrom('attachment; filename="../../etc/passwd"')).toBe('.._.._etc_passwd');
    expect(fileNameFrom('attachment')).toBeUndefined();
    expect(fileNameFrom(null)).toBeUndefined();
    expect(fileNameFrom(`attachment; filename*=UTF-8''%E0%A4%A; filename="reserva.pdf"`)).toBe('reserva.pdf');
  });
});
