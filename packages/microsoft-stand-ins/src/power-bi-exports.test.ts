import JSZip from 'jszip';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pagesOf } from './power-bi.ts';
import { encodeReportState, formatos, regionFigures } from './report-state.ts';
import { powerBiStandIns, testReport, vendas, WORKSPACE } from './test-helpers.ts';
import type { StandInReport, StandIns } from './types.ts';

const financeiro = testReport(2, { name: 'Financeiro — Diretoria', rls: true });
const ANA = 'ana.souza@contoso.com.br';

function json(response: Response): Promise<any> {
  return response.json();
}

async function pdfPages(bytes: ArrayBuffer): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return text;
}

/** The text runs of each slide, in slide order. */
async function slideTexts(bytes: ArrayBuffer): Promise<string[]> {
  const zip = await JSZip.loadAsync(bytes);
  const slides = Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
  const texts: string[] = [];
  for (const name of slides) {
    const xml = await zip.file(name)!.async('string');
    const runs = [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => match[1]!);
    texts.push(runs.join('\n').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
  }
  return texts;
}

describe('Power BI export to file', () => {
  let s: StandIns;
  let token: string;

  beforeAll(async () => {
    ({ s, token } = await powerBiStandIns([vendas, financeiro]));
  });
  afterAll(() => s.close());
  beforeEach(() => {
    s.powerBi.reset();
    // Short jobs keep the suite quick; the default (1.5 s) is checked once below.
    s.powerBi.setExportDuration(300);
  });

  function call(method: string, path: string, body?: unknown, bearer: string | null = token): Promise<Response> {
    return fetch(`${s.powerBiApiUrl}/v1.0/myorg${path}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }

  const reportPath = (report: StandInReport) => `/groups/${report.workspaceId}/reports/${report.reportId}`;
  const exportTo = (report: StandInReport, body: unknown, bearer?: string | null) =>
    call('POST', `${reportPath(report)}/ExportTo`, body, bearer);
  const status = (report: StandInReport, id: string) =>
    call('GET', `${reportPath(report)}/exports/${encodeURIComponent(id)}`);

  async function expectError(response: Response, httpStatus: number, code: string, message?: RegExp): Promise<void> {
    expect(response.status).toBe(httpStatus);
    const body = await json(response);
    expect(body).toEqual({ error: { code, message: expect.any(String) } });
    if (message) expect(body.error.message).toMatch(message);
  }

  /** Polls as a client must: again after Retry-After seconds while the answer is 202. Returns every answer body. */
  async function poll(report: StandInReport, id: string): Promise<any[]> {
    const seen: any[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await status(report, id);
      const body = await json(response);
      seen.push(body);
      if (response.status === 200) return seen;
      expect(response.status).toBe(202);
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      // The stand-in says 1 s; the tests run 300 ms jobs, so a tenth of what it asks is enough.
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 100));
    }
    throw new Error('the export never finished');
  }

  async function exportAndDownload(report: StandInReport, body: unknown): Promise<{ file: Response; job: any }> {
    const started = await exportTo(report, body);
    expect(started.status).toBe(202);
    const job = await json(started);
    const finished = (await poll(report, job.id)).at(-1);
    expect(finished.status).toBe('Succeeded');
    const file = await fetch(finished.resourceLocation, { headers: { authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    return { file, job: finished };
  }

  it('runs a job NotStarted → Running → Succeeded with Retry-After, in the Export shape', async () => {
    s.powerBi.setExportDuration(1500);
    const started = await exportTo(vendas, { format: 'PDF' });
    expect(started.status).toBe(202);
    const job = await json(started);
    expect(job).toMatchObject({
      id: expect.any(String),
      reportId: vendas.reportId,
      reportName: 'Vendas',
      status: 'NotStarted',
      percentComplete: 0,
      createdDateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/),
      lastActionDateTime: expect.any(String),
    });
    expect(job).not.toHaveProperty('resourceLocation');
    // Power BI's ids are base64 text, not GUIDs.
    expect(job.id).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(job.id, 'base64').toString()).toContain(vendas.reportId.toUpperCase());

    const answers = await poll(vendas, job.id);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toContain('Running');
    expect(statuses.at(-1)).toBe('Succeeded');
    const running = answers.filter((answer) => answer.status === 'Running').map((answer) => answer.percentComplete);
    expect(
      running.every((percent, index) => percent > 0 && percent < 100 && percent >= (running[index - 1] ?? 0)),
    ).toBe(true);
    expect(answers.at(-1)).toMatchObject({
      id: job.id,
      status: 'Succeeded',
      percentComplete: 100,
      resourceLocation: `${s.powerBiApiUrl}/v1.0/myorg/groups/${WORKSPACE}/reports/${vendas.reportId}/exports/${job.id}/file`,
      resourceFileExtension: '.pdf',
      expirationTime: expect.any(String),
    });
    expect(s.powerBi.exports).toEqual([
      expect.objectContaining({ id: job.id, format: 'PDF', status: 'Succeeded', regiao: 'Todas', identity: null }),
    ]);
  }, 15_000);

  it('exports a PDF of the visible pages with the effective identity, roles and the bookmark region as text', async () => {
    const pages = pagesOf(financeiro);
    const state = encodeReportState({ pagina: pages[1]!.name, regiao: 'Sul' });
    const { file } = await exportAndDownload(financeiro, {
      format: 'PDF',
      powerBIReportConfiguration: {
        defaultBookmark: { state },
        identities: [{ username: ANA, roles: ['Vendedor', 'Gerente'], datasets: [financeiro.datasetId] }],
        settings: { locale: 'pt-BR' },
      },
    });
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Financeiro — Diretoria.pdf')}`,
    );
    const text = await pdfPages(await file.arrayBuffer());
    const visible = pages.filter((page) => page.visibility === 0);
    expect(text).toHaveLength(visible.length);
    visible.forEach((page, index) => {
      const pageText = text[index]!;
      expect(pageText).toContain(`${page.displayName} — Financeiro — Diretoria`);
      expect(pageText).toContain(`Página: ${page.displayName} (${page.name})`);
      expect(pageText).toContain('Região: Sul');
      expect(pageText).toContain(`Identidade: ${ANA}`);
      expect(pageText).toContain('Papéis: Vendedor, Gerente');
      // The region's share of the figures, as the embed host page draws them for the same state.
      const revenue = formatos.money.format(regionFigures(page.name, 'Sul').revenue);
      expect(pageText.replace(/\s/g, ' ')).toContain(`Receita: ${revenue.replace(/\s/g, ' ')}`);
    });
    expect(text.join('\n')).not.toContain('Notas internas');
  });

  it('exports a PPTX of only the pages asked for, without an identity for a dataset without RLS', async () => {
    const pages = pagesOf(vendas);
    const { file, job } = await exportAndDownload(vendas, {
      format: 'PPTX',
      powerBIReportConfiguration: { pages: [{ pageName: pages[2]!.name }, { pageName: pages[3]!.name }] },
    });
    expect(job.resourceFileExtension).toBe('.pptx');
    expect(file.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    );
    const slides = await slideTexts(await file.arrayBuffer());
    expect(slides).toHaveLength(2);
    expect(slides[0]).toContain(`Página: Tendências (${pages[2]!.name})`);
    // A hidden page is exported when asked for by name.
    expect(slides[1]).toContain(`Página: Notas internas (${pages[3]!.name})`);
    for (const slide of slides) {
      expect(slide).toContain('Sem identidade efetiva (sem RLS)');
      expect(slide).toContain('Região: Todas');
      expect(slide).not.toContain('Identidade:');
    }
    expect(s.powerBi.exports[0]).toMatchObject({ format: 'PPTX', pages: [pages[2]!.name, pages[3]!.name] });
  });

  it('ends a job in Failed when told to, with no file', async () => {
    s.powerBi.failNextExport();
    const job = await json(await exportTo(vendas, { format: 'PDF' }));
    const finished = (await poll(vendas, job.id)).at(-1);
    expect(finished).toMatchObject({ status: 'Failed' });
    expect(finished).not.toHaveProperty('resourceLocation');
    await expectError(await call('GET', `${reportPath(vendas)}/exports/${job.id}/file`), 404, 'PowerBIEntityNotFound');
    // Only the next one.
    const next = await json(await exportTo(vendas, { format: 'PDF' }));
    expect((await poll(vendas, next.id)).at(-1).status).toBe('Succeeded');
  });

  it('ends a job in a transient Failed when told to: 200 with Retry-After, which a lasting failure has not', async () => {
    s.powerBi.setExportDuration(0);
    s.powerBi.failNextExportTransiently(7);
    s.powerBi.failNextExport();
    const transient = await json(await exportTo(vendas, { format: 'PDF' }));
    const lasting = await json(await exportTo(vendas, { format: 'PDF' }));
    const first = await status(vendas, transient.id);
    expect(first.status).toBe(200);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(await json(first)).toMatchObject({ status: 'Failed', percentComplete: 100 });
    const second = await status(vendas, lasting.id);
    expect(second.status).toBe(200);
    expect(second.headers.get('retry-after')).toBeNull();
    expect(await json(second)).toMatchObject({ status: 'Failed' });
    // Started again, the export succeeds: the failures were for those two jobs only.
    const again = await json(await exportTo(vendas, { format: 'PDF' }));
    const done = await status(vendas, again.id);
    expect(done.status).toBe(200);
    expect(done.headers.get('retry-after')).toBeNull();
    expect(await json(done)).toMatchObject({ status: 'Succeeded' });
  });

  it('refuses to export where Power BI does: tenant setting, capacity, PPU, sensitivity label, RLS without Write', async () => {
    const rlsIdentity = { username: ANA, roles: ['Vendedor'], datasets: [financeiro.datasetId] };
    const withIdentity = { format: 'PDF', powerBIReportConfiguration: { identities: [rlsIdentity] } };
    const variant = (report: StandInReport, more: Partial<StandInReport>, n: number): StandInReport => ({
      ...report,
      ...more,
      reportId: `bbbbbbbb-0000-4000-8000-00000000010${n}`,
    });
    const shared = variant(vendas, { capacity: 'Shared' }, 1);
    const ppu = variant(vendas, { capacity: 'PremiumPerUser' }, 2);
    const labelled = variant(vendas, { sensitivityLabel: 'Confidencial' }, 3);
    const readOnly = { ...financeiro, datasetWritePermission: false };
    const premium = variant(vendas, { capacity: 'Premium' }, 4);
    const fabric = variant(vendas, { capacity: 'Fabric' }, 5);
    const readOnlyWithoutRls = variant(vendas, { datasetWritePermission: false }, 6);
    s.powerBi.setReports([vendas, readOnly, shared, ppu, labelled, premium, fabric, readOnlyWithoutRls]);
    try {
      await expectError(await exportTo(shared, { format: 'PDF' }), 403, 'ExportToFileRequiresCapacity', /Premium/);
      await expectError(await exportTo(ppu, { format: 'PPTX' }), 403, 'ExportToFileNotSupportedOnPremiumPerUser');
      await expectError(
        await exportTo(labelled, { format: 'PDF' }),
        403,
        'ExportToFileBlockedBySensitivityLabel',
        /Confidencial/,
      );
      await expectError(
        await exportTo(readOnly, withIdentity),
        403,
        'ExportToFileRequiresDatasetWritePermission',
        new RegExp(financeiro.datasetId),
      );
      // Write matters only for an export with an effective identity.
      for (const report of [readOnlyWithoutRls, premium, fabric]) {
        expect((await exportTo(report, { format: 'PDF' })).status).toBe(202);
      }

      s.powerBi.setExportTenantSetting(false);
      await expectError(await exportTo(vendas, { format: 'PDF' }), 403, 'ExportToFileDisabledByTenantSetting');
      s.powerBi.setExportTenantSetting(true);
      expect((await exportTo(vendas, { format: 'PDF' })).status).toBe(202);
      s.powerBi.setExportTenantSetting(false);
      s.powerBi.reset();
      expect((await exportTo(vendas, { format: 'PDF' })).status).toBe(202);
      expect(s.powerBi.exports).toHaveLength(1);
    } finally {
      s.powerBi.setReports([vendas, financeiro]);
    }
  });

  it('refuses more than 50 pages in one request, and exports one page of such a report', async () => {
    const pages = Array.from({ length: 51 }, (_, i) => ({
      name: `ReportSection${String(i).padStart(3, '0')}`,
      displayName: `Página ${i + 1}`,
      visibility: 0 as const,
    }));
    const big: StandInReport = { ...vendas, reportId: 'bbbbbbbb-0000-4000-8000-000000000051', pages };
    s.powerBi.setReports([vendas, big]);
    try {
      await expectError(await exportTo(big, { format: 'PDF' }), 400, 'ExportToFileTooManyPages', /51/);
      const named = { format: 'PDF', powerBIReportConfiguration: { pages: pages.map((p) => ({ pageName: p.name })) } };
      await expectError(await exportTo(big, named), 400, 'ExportToFileTooManyPages');
      expect(s.powerBi.exports).toEqual([]);
      const fifty = {
        format: 'PDF',
        powerBIReportConfiguration: { pages: named.powerBIReportConfiguration.pages.slice(1) },
      };
      expect((await exportTo(big, fifty)).status).toBe(202);
      const one = { format: 'PDF', powerBIReportConfiguration: { pages: [{ pageName: pages[7]!.name }] } };
      expect((await exportTo(big, one)).status).toBe(202);
      expect(s.powerBi.exports.map((job) => job.pages.length)).toEqual([50, 1]);
    } finally {
      s.powerBi.setReports([vendas, financeiro]);
    }
  });

  it('answers 429 with Retry-After beyond the concurrent exports of a capacity, counting only running jobs', async () => {
    const elsewhere: StandInReport = {
      ...vendas,
      reportId: 'bbbbbbbb-0000-4000-8000-000000000061',
      capacityId: 'outra-capacidade',
    };
    s.powerBi.setReports([vendas, financeiro, elsewhere]);
    try {
      s.powerBi.setConcurrentExportLimit(2, 9);
      s.powerBi.setExportDuration(60_000);
      expect((await exportTo(vendas, { format: 'PDF' })).status).toBe(202);
      expect((await exportTo(vendas, { format: 'PPTX' })).status).toBe(202);
      const busy = await exportTo(vendas, { format: 'PDF' });
      expect(busy.headers.get('retry-after')).toBe('9');
      await expectError(busy, 429, 'TooManyRequests');
      // Another capacity has its own count.
      expect((await exportTo(elsewhere, { format: 'PDF' })).status).toBe(202);
      // Finished jobs free their place.
      s.powerBi.reset();
      s.powerBi.setConcurrentExportLimit(1);
      s.powerBi.setExportDuration(0);
      const done = await json(await exportTo(vendas, { format: 'PDF' }));
      expect((await json(await status(vendas, done.id))).status).toBe('Succeeded');
      expect((await exportTo(vendas, { format: 'PDF' })).status).toBe(202);
      s.powerBi.setExportDuration(60_000);
      expect((await exportTo(vendas, { format: 'PDF' })).status).toBe(202);
      const defaultWait = await exportTo(vendas, { format: 'PDF' });
      expect(defaultWait.headers.get('retry-after')).toBe('30');
      await expectError(defaultWait, 429, 'TooManyRequests');
    } finally {
      s.powerBi.setReports([vendas, financeiro]);
    }
  });

  it('answers 404 for an unknown export, one of another report, and a file before it is ready', async () => {
    await expectError(await status(vendas, 'TWkvQ0FGRQ=='), 404, 'PowerBIEntityNotFound');
    s.powerBi.setExportDuration(60_000);
    const job = await json(await exportTo(vendas, { format: 'PDF' }));
    await expectError(await status(financeiro, job.id), 404, 'PowerBIEntityNotFound');
    await expectError(
      await call('GET', `/groups/dddddddd-0000-4000-8000-000000000000/reports/${vendas.reportId}/exports/${job.id}`),
      404,
      'PowerBIEntityNotFound',
    );
    await expectError(
      await call('GET', `${reportPath(vendas)}/exports/${job.id}/file`),
      404,
      'PowerBIEntityNotFound',
      /NotStarted|Running/,
    );
    await expectError(
      await exportTo({ ...vendas, reportId: 'bbbbbbbb-0000-4000-8000-00000000ffff' }, { format: 'PDF' }),
      404,
      'PowerBIEntityNotFound',
    );
  });

  it('refuses bad formats, bodies, pages, bookmark states and identities with 400 InvalidRequest', async () => {
    const rlsIdentity = { username: ANA, roles: ['Vendedor'], datasets: [financeiro.datasetId] };
    const refused: [StandInReport, unknown, RegExp?][] = [
      [vendas, '{"format":', undefined],
      [vendas, [], undefined],
      [vendas, {}, /format/],
      [vendas, { format: 'XLSX' }, /XLSX/],
      [vendas, { format: 42 }, /format/],
      [vendas, { format: 'PDF', powerBIReportConfiguration: 'tudo' }, undefined],
      [
        vendas,
        { format: 'PDF', powerBIReportConfiguration: { pages: [{ pageName: 'ReportSectionNenhuma' }] } },
        /ReportSectionNenhuma/,
      ],
      [vendas, { format: 'PDF', powerBIReportConfiguration: { pages: ['x'] } }, /pageName/],
      [vendas, { format: 'PDF', powerBIReportConfiguration: { defaultBookmark: { state: 'H4sIAAAAlixo' } } }, /state/],
      [vendas, { format: 'PDF', powerBIReportConfiguration: { defaultBookmark: { name: 'Bookmark1' } } }, /Bookmark1/],
      [
        vendas,
        {
          format: 'PDF',
          powerBIReportConfiguration: { identities: [{ ...rlsIdentity, datasets: [vendas.datasetId] }] },
        },
        /shouldn't have effective identity/,
      ],
      [financeiro, { format: 'PDF' }, /requires effective identity/],
      [
        financeiro,
        { format: 'PDF', powerBIReportConfiguration: { identities: [{ ...rlsIdentity, roles: [] }] } },
        /requires roles/,
      ],
      [
        financeiro,
        {
          format: 'PDF',
          powerBIReportConfiguration: { identities: [{ ...rlsIdentity, datasets: [vendas.datasetId] }] },
        },
        /does not use/,
      ],
      [financeiro, { format: 'PDF', powerBIReportConfiguration: { identities: {} } }, /identities/],
    ];
    for (const [report, body, message] of refused) {
      await expectError(await exportTo(report, body), 400, 'InvalidRequest', message);
    }
    expect(s.powerBi.exports).toEqual([]);
  });

  it('needs a Power BI access token, and logs its calls; faults apply to export calls too', async () => {
    await expectError(await exportTo(vendas, { format: 'PDF' }, null), 403, 'PowerBINotAuthorizedException');
    s.powerBi.failNext(503);
    await expectError(await exportTo(vendas, { format: 'PDF' }), 503, 'ServiceUnavailable');
    const started = await exportTo(vendas, { format: 'PDF' });
    expect(started.status).toBe(202);
    const job = await json(started);
    await status(vendas, job.id);
    const exportPath = `/v1.0/myorg${reportPath(vendas)}/ExportTo`;
    expect(s.powerBi.requests.map(({ method, path, status: code }) => ({ method, path, status: code }))).toEqual([
      { method: 'POST', path: exportPath, status: 403 },
      { method: 'POST', path: exportPath, status: 503 },
      { method: 'POST', path: exportPath, status: 202 },
      { method: 'GET', path: `/v1.0/myorg${reportPath(vendas)}/exports/${encodeURIComponent(job.id)}`, status: 202 },
    ]);
    expect(s.powerBi.requests[2]!.body).toEqual({ format: 'PDF' });
    // A 200 a client must not take for a finished export.
    s.powerBi.garbageNext('wrong-shape');
    const garbage = await status(vendas, job.id);
    expect(garbage.status).toBe(200);
    expect(await json(garbage)).toMatchObject({ id: 7, status: 'Pronto' });
    s.powerBi.reset();
    expect(s.powerBi.exports).toEqual([]);
    await expectError(await status(vendas, job.id), 404, 'PowerBIEntityNotFound');
  });
});
