import { describe, expect, it } from 'vitest';
import { csvRowCount, dataExportFileName, exportsData, powerBiReason, visualKind } from './data-export.ts';

describe('data export helpers', () => {
  it("names the file '<painel> - <página> - <visual>.csv', without what a file system refuses", () => {
    expect(dataExportFileName('Vendas por Região', 'Visão geral', 'Vendas por mês')).toBe(
      'Vendas por Região - Visão geral - Vendas por mês.csv',
    );
    expect(dataExportFileName('Metas: 2026/27', 'Página "1"?', 'a*b|c\\d<e>\u0007')).toBe(
      'Metas 2026 27 - Página 1 - a b c d e.csv',
    );
    expect(dataExportFileName('x'.repeat(300), 'p', 'v.')).toBe(`${'x'.repeat(180)}.csv`);
    expect(dataExportFileName('///', '', '...')).toBe('dados.csv');
  });

  it('counts the data rows of a CSV, header aside, a quoted line break inside one row', () => {
    expect(csvRowCount('Mês,Unidades\r\nJan,1\r\nFev,2\r\n')).toBe(2);
    expect(csvRowCount('Nota\r\n"linha 1\r\nlinha 2"\r\n')).toBe(1);
    expect(csvRowCount('Receita\r\n')).toBe(0);
    expect(csvRowCount('')).toBe(0);
  });

  it('leaves out custom, R and Python visuals, and names the kinds in Portuguese', () => {
    expect(
      ['card', 'PBI_CV_1234', 'scriptVisual', 'pythonVisual', 'tableEx'].filter((type) => exportsData({ type })),
    ).toEqual(['card', 'tableEx']);
    expect(visualKind('columnChart')).toBe('Gráfico de colunas');
    expect(visualKind('algumVisualNovo')).toBe('algumVisualNovo');
  });

  it("reads Power BI's reason from powerbi-client's IError or the demo host's error", () => {
    expect(powerBiReason({ message: 'ExportDataFailed', detailedMessage: 'Desativado.' })).toBe('Desativado.');
    expect(powerBiReason(Object.assign(new Error('{}'), { body: { message: 'ExportDataFailed' } }))).toBe(
      'ExportDataFailed',
    );
    expect(powerBiReason('texto')).toBeNull();
  });
});
