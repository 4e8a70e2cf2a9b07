import { sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeEach, describe, expect, it } from 'vitest';
import { MENSAGENS_EXPORTACAO, type Exportacao } from '@paineis/contract/personal';
import { pagesOf } from '@paineis/microsoft-stand-ins/power-bi-common';
import { encodeReportState } from '@paineis/microsoft-stand-ins/report-state';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { rows } from '../../db/client.ts';
import type { PowerBiEmbeddingService } from '../../integrations/power-bi/power-bi-embedding-service.ts';
import { POWER_BI_REFUSED, POWER_BI_UNAVAILABLE, RLS_WITHOUT_ROLES } from '../../plugins/microsoft-error-answers.ts';
import { RLS_SEM_PAPEL } from '../panels/panel-access.ts';
import { purgeOldExports } from './exports.ts';
import { exportFileName } from './exports.routes.ts';

const WORKSPACE = '0a0a0a0a-0000-4000-8000-000000000001';
const vendas: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-000000000021',
  name: 'Vendas',
  datasetId: '0c0c0c0c-0000-4000-8000-000000000021',
  rls: false,
};
const regional: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-000000000022',
  name: 'Vendas por Região',
  datasetId: '0c0c0c0c-0000-4000-8000-000000000022',
  rls: true,
};
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const NOT_FOUND = { message: 'Painel não encontrado.' };
const JOB_NOT_FOUND = { message: MENSAGENS_EXPORTACAO.naoEncontrada };

async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

describe('export to PDF and PowerPoint (docs/requirements.md#personal)', () => {
  const standIns = useStandIns({ people: [], reports: [vendas, regional] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { timeoutMs: 2000, sleep: async () => undefined },
  }));
  beforeEach(() => {
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports([vendas, regional]);
    // Done at the first status request, unless a test says otherwise.
    standIns.current.powerBi.setExportDuration(0);
    (ctx.app.embedding as PowerBiEmbeddingService).clear();
  });

  async function setup() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br' });
    const caio = await createUser(ctx.db, { email: 'caio@empresa.com.br' });
    const plain = await panel(ctx.db, { nomePainel: 'Vendas', workspaceId: WORKSPACE, reportId: vendas.reportId });
    const rls = await panel(ctx.db, {
      nomePainel: 'Vendas por Região',
      workspaceId: WORKSPACE,
      reportId: regional.reportId,
      usaRls: true,
      rlsConfigurations: [
        { roleName: 'Sul', userEmails: ['ana@empresa.com.br'] },
        { roleName: 'Norte', userEmails: ['bia@empresa.com.br'] },
        { roleName: 'Diretoria', userEmails: ['ana@empresa.com.br'] },
      ],
    });
    await link(ctx.db, plain.id, [ana.id, bia.id]);
    await link(ctx.db, rls.id, [ana.id, bia.id, caio.id]);
    return {
      admin: await ctx.tokenFor(admin),
      ana: await ctx.tokenFor(ana),
      bia: await ctx.tokenFor(bia),
      caio: await ctx.tokenFor(caio),
      plain,
      rls,
    };
  }
  const start = (token: string, painelId: number, body: Record<string, unknown>) =>
    ctx.request('POST', `/api/paineis/${painelId}/exportacoes`, { token, body });
  const jobs = async () => (await rows<{ n: number }>(ctx.db, sql`select count(*)::int as n from exportacoes`))[0]!.n;
  const exportToBodies = () => standIns.current.powerBi.exports.map((e) => e.body);

  it('exports with exactly the identity the embed token carries, the state as default bookmark and the page', async () => {
    const s = await setup();
    const page = pagesOf(regional)[1]!.name;
    const estado = encodeReportState({ pagina: page, regiao: 'Sul' });
    const res = await start(s.ana, s.rls.id, { formato: 'PDF', estado, pagina: page });
    expect(res.statusCode).toBe(202);
    const job = res.json<Exportacao>();
    expect(job).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      painelId: s.rls.id,
      formato: 'PDF',
      status: 'NotStarted',
      percentComplete: 0,
      aguardarSegundos: 1,
      arquivoUrl: null,
    });
    expect(res.headers['retry-after']).toBe('1');

    // The embed token's identity, for the same person and panel.
    expect((await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.ana })).statusCode).toBe(200);
    const tokenIdentity = standIns.current.powerBi.requests.find((r) => r.path === '/v1.0/myorg/GenerateToken')!.body;
    expect(exportToBodies()).toEqual([
      {
        format: 'PDF',
        powerBIReportConfiguration: {
          settings: { locale: 'pt-BR' },
          defaultBookmark: { state: estado },
          pages: [{ pageName: page }],
          identities: (tokenIdentity as { identities: unknown[] }).identities,
        },
      },
    ]);
    expect((tokenIdentity as { identities: unknown[] }).identities).toEqual([
      { username: 'ana@empresa.com.br', roles: ['Diretoria', 'Sul'], datasets: [regional.datasetId] },
    ]);

    const status = await ctx.request('GET', `/api/paineis/${s.rls.id}/exportacoes/${job.id}`, { token: s.ana });
    expect(status.statusCode).toBe(200);
    expect(status.headers['retry-after']).toBeUndefined();
    expect(status.json()).toEqual({
      ...job,
      status: 'Succeeded',
      percentComplete: 100,
      aguardarSegundos: null,
      arquivoUrl: `/api/paineis/${s.rls.id}/exportacoes/${job.id}/arquivo`,
    });

    const file = await ctx.app.inject({
      method: 'GET',
      url: `/api/paineis/${s.rls.id}/exportacoes/${job.id}/arquivo`,
      headers: { authorization: `Bearer ${s.ana}` },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Vendas por Regiao.pdf"; filename*=UTF-8''Vendas%20por%20Regi%C3%A3o.pdf`,
    );
    // The stand-in writes the identity it applied into the PDF: the person's RLS boundary travelled.
    const text = await pdfText(file.rawPayload);
    expect(text).toContain('Identidade: ana@empresa.com.br');
    expect(text).toContain('Papéis: Diretoria, Sul');
    expect(text).toContain('Região: Sul');
  });

  it('exports for an administrator with every role of the panel, as the embedding does', async () => {
    const s = await setup();
    expect((await start(s.admin, s.rls.id, { formato: 'PDF' })).statusCode).toBe(202);
    expect(exportToBodies()).toEqual([
      {
        format: 'PDF',
        powerBIReportConfiguration: {
          settings: { locale: 'pt-BR' },
          identities: [
            { username: 'admin@empresa.com.br', roles: ['Diretoria', 'Norte', 'Sul'], datasets: [regional.datasetId] },
          ],
        },
      },
    ]);
  });

  it('exports a panel without RLS to PowerPoint with no identity', async () => {
    const s = await setup();
    const job = (await start(s.ana, s.plain.id, { formato: 'PPTX' })).json<Exportacao>();
    expect(exportToBodies()).toEqual([
      { format: 'PPTX', powerBIReportConfiguration: { settings: { locale: 'pt-BR' } } },
    ]);
    await ctx.request('GET', `/api/paineis/${s.plain.id}/exportacoes/${job.id}`, { token: s.ana });
    const file = await ctx.app.inject({
      method: 'GET',
      url: `/api/paineis/${s.plain.id}/exportacoes/${job.id}/arquivo`,
      headers: { authorization: `Bearer ${s.ana}` },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe(PPTX);
    expect(file.headers['content-disposition']).toBe('attachment; filename=Vendas.pptx');
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK'); // a zip, as every .pptx is
  });

  it('passes on Power BI’s Retry-After while the job runs, and has no file before it succeeds', async () => {
    const s = await setup();
    standIns.current.powerBi.setExportDuration(600_000);
    const job = (await start(s.ana, s.plain.id, { formato: 'PDF' })).json<Exportacao>();
    const status = await ctx.request('GET', `/api/paineis/${s.plain.id}/exportacoes/${job.id}`, { token: s.ana });
    expect(status.statusCode).toBe(200);
    expect(status.headers['retry-after']).toBe('1');
    expect(status.json()).toMatchObject({ status: 'NotStarted', aguardarSegundos: 1, arquivoUrl: null });
    const file = await ctx.request('GET', `/api/paineis/${s.plain.id}/exportacoes/${job.id}/arquivo`, {
      token: s.ana,
    });
    expect(file.statusCode).toBe(409);
    expect(file.json()).toEqual({ message: MENSAGENS_EXPORTACAO.naoPronta });
  });

  it('reports a job Power BI failed, and refuses its file with the Portuguese message', async () => {
    const s = await setup();
    standIns.current.powerBi.failNextExport();
    const job = (await start(s.ana, s.plain.id, { formato: 'PDF' })).json<Exportacao>();
    const status = await ctx.request('GET', `/api/paineis/${s.plain.id}/exportacoes/${job.id}`, { token: s.ana });
    expect(status.json()).toMatchObject({ status: 'Failed', aguardarSegundos: null, arquivoUrl: null });
    const file = await ctx.request('GET', `/api/paineis/${s.plain.id}/exportacoes/${job.id}/arquivo`, {
      token: s.ana,
    });
    expect(file.statusCode).toBe(409);
    expect(file.json()).toEqual({ message: MENSAGENS_EXPORTACAO.falhou });
  });

  it('keeps a job to the person who started it: anyone else gets 404', async () => {
    const s = await setup();
    const job = (await start(s.ana, s.rls.id, { formato: 'PDF' })).json<Exportacao>();
    const url = `/api/paineis/${s.rls.id}/exportacoes/${job.id}`;
    for (const token of [s.bia, s.admin]) {
      expect((await ctx.request('GET', url, { token })).json()).toEqual(JOB_NOT_FOUND);
      expect((await ctx.request('GET', `${url}/arquivo`, { token })).json()).toEqual(JOB_NOT_FOUND);
    }
    // Under another panel the job is no job, even for its owner.
    const elsewhere = await ctx.request('GET', `/api/paineis/${s.plain.id}/exportacoes/${job.id}`, { token: s.ana });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual(JOB_NOT_FOUND);
    // Losing access to the panel loses the job too.
    await link(ctx.db, s.rls.id, []);
    expect((await ctx.request('GET', url, { token: s.ana })).json()).toEqual(NOT_FOUND);
    // Every one of them was refused before asking Power BI.
    expect(standIns.current.powerBi.requests.filter((r) => r.path.includes('/exports/'))).toHaveLength(0);
  });

  it('refuses a panel whose export an admin turned off (403), and one the person may not open (404)', async () => {
    const s = await setup();
    const admin = s.admin;
    const off = await ctx.request('PUT', `/api/paineis/${s.plain.id}`, {
      token: admin,
      body: { nomePainel: 'Vendas', workspaceId: WORKSPACE, reportId: vendas.reportId, permiteExportacao: false },
    });
    expect(off.statusCode).toBe(200);
    const refused = await start(s.ana, s.plain.id, { formato: 'PDF' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: MENSAGENS_EXPORTACAO.desativada });
    // Caio is not linked to it: as if it did not exist, export on or off.
    const outsider = await start(s.caio, s.plain.id, { formato: 'PDF' });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json()).toEqual(NOT_FOUND);
    expect(exportToBodies()).toEqual([]);
    expect(await jobs()).toBe(0);
  });

  it('refuses an RLS panel to a person in none of its roles, and one with no roles, without calling Power BI', async () => {
    const s = await setup();
    const noRole = await start(s.caio, s.rls.id, { formato: 'PDF' });
    expect(noRole.statusCode).toBe(403);
    expect(noRole.json()).toEqual({ message: RLS_SEM_PAPEL });
    await ctx.request('DELETE', `/api/paineis/${s.rls.id}/rls`, { token: s.admin });
    const none = await start(s.admin, s.rls.id, { formato: 'PDF' });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: RLS_WITHOUT_ROLES });
    expect(standIns.current.powerBi.requests).toEqual([]);
    expect(await jobs()).toBe(0);
  });

  it('answers Power BI’s refusals and outages in Portuguese, recording no job', async () => {
    const s = await setup();
    // A page the report does not have, a state that is none of its: Power BI's 400 is about what was sent.
    const badPage = await start(s.ana, s.plain.id, { formato: 'PDF', pagina: 'ReportSectionNenhuma' });
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json()).toEqual({ message: MENSAGENS_EXPORTACAO.estadoRecusado });
    const badState = await start(s.ana, s.plain.id, { formato: 'PDF', estado: 'não é um estado' });
    expect(badState.json()).toEqual({ message: MENSAGENS_EXPORTACAO.estadoRecusado });
    // Any other refusal is Power BI's.
    standIns.current.powerBi.failNext(403); // the report's details are cached: the next call is ExportTo
    const refused = await start(s.ana, s.plain.id, { formato: 'PDF' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({ message: POWER_BI_REFUSED });
    standIns.current.powerBi.failNext(503, 10);
    const down = await start(s.ana, s.plain.id, { formato: 'PDF' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ message: POWER_BI_UNAVAILABLE });
    expect(await jobs()).toBe(0);
  });

  it('answers a garbled or throttled status in Portuguese, and the job answers again afterwards', async () => {
    const s = await setup();
    const job = (await start(s.ana, s.plain.id, { formato: 'PDF' })).json<Exportacao>();
    const url = `/api/paineis/${s.plain.id}/exportacoes/${job.id}`;
    standIns.current.powerBi.garbageNext('wrong-shape');
    const garbled = await ctx.request('GET', url, { token: s.ana });
    expect(garbled.statusCode).toBe(503);
    expect(garbled.json()).toEqual({ message: POWER_BI_UNAVAILABLE });
    // A 429 with a short Retry-After is waited out and asked again.
    standIns.current.powerBi.throttleNext(1);
    const status = await ctx.request('GET', url, { token: s.ana });
    expect(status.statusCode).toBe(200);
    expect(status.json<Exportacao>().status).toBe('Succeeded');
  });

  it('refuses bad input in Portuguese', async () => {
    const s = await setup();
    const format = await start(s.ana, s.plain.id, { formato: 'DOCX' });
    expect(format.statusCode).toBe(400);
    expect(format.json()).toEqual({ message: 'O formato (formato) deve ser PDF ou PPTX.' });
    const id = await ctx.request('GET', `/api/paineis/${s.plain.id}/exportacoes/123`, { token: s.ana });
    expect(id.statusCode).toBe(400);
    expect(id.json()).toEqual({ message: 'O id da exportação (exportacaoId) deve ser um UUID.' });
  });

  it('purges jobs older than a day', async () => {
    const s = await setup();
    await start(s.ana, s.plain.id, { formato: 'PDF' });
    await start(s.ana, s.plain.id, { formato: 'PPTX' });
    await ctx.db.execute(sql`update exportacoes set criada_em = now() - interval '25 hours' where formato = 'PDF'`);
    await purgeOldExports(ctx.db);
    expect(await rows(ctx.db, sql`select formato from exportacoes`)).toEqual([{ formato: 'PPTX' }]);
  });

  it('names the file after the panel, without characters a file name cannot hold', () => {
    expect(exportFileName('Vendas/2025: "Norte" <Q1>', '.pdf')).toBe('Vendas 2025 Norte Q1.pdf');
    expect(exportFileName('Relatório Região Sul', '.pptx')).toBe('Relatório Região Sul.pptx');
    expect(exportFileName('../..', '.pdf')).toBe('painel.pdf');
  });
});
