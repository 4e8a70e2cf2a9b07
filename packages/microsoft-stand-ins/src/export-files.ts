import PDFDocument from 'pdfkit';
import PptxGenJS from 'pptxgenjs';
import { formatos, MESES, regionFigures, type Regiao } from './report-state.ts';
import type { StandInReport } from './types.ts';

/** What one export job renders: the report's pages, with the default bookmark's region and the effective identity. */
export interface ExportContent {
  report: Pick<StandInReport, 'name' | 'reportId'>;
  pages: { name: string; displayName: string }[];
  regiao: Regiao;
  identity: { username: string; roles: string[] } | null;
  exportedAt: Date;
}

export type ExportFormat = 'PDF' | 'PPTX';

export const EXPORT_FILE_TYPES: Record<ExportFormat, { extension: string; contentType: string }> = {
  PDF: { extension: '.pdf', contentType: 'application/pdf' },
  PPTX: {
    extension: '.pptx',
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
};

/** The lines every exported page carries as text, so tests (and people) can read what was applied. */
function pageLines(content: ExportContent, page: ExportContent['pages'][number]): string[] {
  const figures = regionFigures(page.name, content.regiao);
  const identity = content.identity
    ? [`Identidade: ${content.identity.username}`, `Papéis: ${content.identity.roles.join(', ')}`]
    : ['Sem identidade efetiva (sem RLS)'];
  return [
    `Página: ${page.displayName} (${page.name})`,
    `Região: ${content.regiao}`,
    ...identity,
    `Receita: ${formatos.money.format(figures.revenue)}`,
    `Pedidos: ${formatos.whole.format(figures.orders)}`,
    `Margem: ${formatos.percent.format(figures.margin)}%`,
  ];
}

const footer = (content: ExportContent) =>
  `Simulação local do Power BI — exportado em ${content.exportedAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}`;

/** 16:9 like a Power BI page (1280 × 720 px), in points. */
const PDF_SIZE: [number, number] = [960, 540];

function renderPdf(content: ExportContent): Promise<Buffer> {
  // Standard PDF fonts write WinAnsi text, which covers Portuguese; the text stays extractable.
  const doc = new PDFDocument({
    size: PDF_SIZE,
    margin: 40,
    autoFirstPage: false,
    info: { Title: content.report.name, Creator: 'Power BI (simulação local)' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const page of content.pages) {
    doc.addPage();
    doc.font('Helvetica-Bold').fontSize(22).fillColor('#252423').text(`${page.displayName} — ${content.report.name}`);
    doc.moveDown(0.5).font('Helvetica').fontSize(13);
    for (const line of pageLines(content, page)) doc.text(line);
    drawPdfBars(doc, regionFigures(page.name, content.regiao).bars);
    doc
      .fontSize(9)
      .fillColor('#8a8886')
      .text(footer(content), 40, PDF_SIZE[1] - 40, { lineBreak: false });
  }
  doc.end();
  return done;
}

function drawPdfBars(doc: PDFKit.PDFDocument, bars: number[]): void {
  const left = 520;
  const baseline = 380;
  doc.fontSize(11).fillColor('#605e5c').text('Vendas por mês (mil unidades)', left, 120, { lineBreak: false });
  bars.forEach((value, index) => {
    const x = left + index * 64;
    const height = value * 2;
    doc.rect(x, baseline - height, 44, height).fill('#118dff');
    doc
      .fillColor('#605e5c')
      .fontSize(10)
      .text(`${MESES[index]}: ${value}`, x - 4, baseline + 6, { width: 52, align: 'center', lineBreak: false });
  });
}

async function renderPptx(content: ExportContent): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_16x9';
  pptx.title = content.report.name;
  pptx.company = 'Power BI (simulação local)';
  for (const page of content.pages) {
    const slide = pptx.addSlide();
    slide.addText(`${page.displayName} — ${content.report.name}`, {
      x: 0.4,
      y: 0.3,
      w: 9.2,
      h: 0.6,
      fontSize: 24,
      bold: true,
      color: '252423',
    });
    slide.addText(
      pageLines(content, page).map((line) => ({ text: line, options: { breakLine: true } })),
      { x: 0.4, y: 1.0, w: 4.6, h: 3.4, fontSize: 14, color: '252423', valign: 'top' },
    );
    slide.addChart(
      pptx.ChartType.bar,
      [{ name: 'Vendas (mil unidades)', labels: MESES, values: regionFigures(page.name, content.regiao).bars }],
      { x: 5.2, y: 1.0, w: 4.4, h: 3.4, chartColors: ['118DFF'], showTitle: true, title: 'Vendas por mês' },
    );
    slide.addText(footer(content), { x: 0.4, y: 5.0, w: 9.2, h: 0.4, fontSize: 10, color: '8A8886' });
  }
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}

/** The exported file, made in memory. */
export function renderExportFile(format: ExportFormat, content: ExportContent): Promise<Buffer> {
  return format === 'PDF' ? renderPdf(content) : renderPptx(content);
}
