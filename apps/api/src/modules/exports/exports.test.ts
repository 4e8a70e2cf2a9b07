import { sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Exportacao } from '@paineis/contract/personal';
import { pagesOf } from '@paineis/microsoft-stand-ins/power-bi-common';
import { encodeReportState } from '@paineis/microsoft-stand-ins/report-state';
import { createAdmin, createUser, link } from '../../../test/fixtures.ts';
import { salesPanels, salesReports, useSalesApp } from '../../../test/sales-reports.ts';
import { rows } from '../../db/client.ts';
import { purgeOldExports } from './exports.ts';
import { exportFileName } from './export-answers.ts';

const reports = salesReports(21);
const { vendas, regional } = reports;
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const NOT_FOUND = { message: 'Painel não encontrado.' };
const JOB_NOT_FOUND = { message: 'Exportação não encontrada.' };

async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

describe('export to PDF and PowerPoint (docs/requirements.md#personal)', () => {
  const { standIns, ctx } = useSalesApp(reports, { powerBiOptions: { timeoutMs: 2000, sleep: async () => undefined } });
  beforeEach(() => {
    // Done at the first status request, unless a test says otherwise.
    standIns.current.powerBi.setExportDuration(0);
  });

  async function setup() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br' });
    const caio = await createUser(ctx.db, { email: 'caio@empresa.com.br' });
    const { plain, rls } = await salesPanels(ctx.db, reports, [
      { roleName: 'Sul', userEmails: ['ana@empresa.com.br'] },
      { roleName: 'Norte', userEmails: ['bia@empresa.com.br'] },
      { roleName: 'Diretoria', userEmails: ['ana@empresa.com.br'] },
    ]);
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
  const poll = (token: string, painelId: number, id: string) =>
    ctx.request('GET', `/api/paineis/${painelId}/exportacoes/${id}`, { token });
  /** The job's file, with its bytes as sent. */
  const download = (token: string, painelId: number, id: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/paineis/${painelId}/exportacoes/${id}/arquivo`,
      headers: { authorization: `Bearer ${token}` },
    });
  /** What a status request answers once the job, started on that panel, is done. */
  const succeeded = (painelId: number, job: Exportacao) => ({
    ...job,
    status: 'Succeeded',
    percentComplete: 100,
    aguardarSegundos: null,
    arquivoUrl: `/api/paineis/${painelId}/exportacoes/${job.id}/arquivo`,
  });
  /** The job's attempts so far, and whether one is waiting for its time. */
  const attempts = async (id: string) =>
    (
      await rows<{ tentativas: number; pendente: boolean }>(
        ctx.db,
        sql`select tentativas, nova_tentativa_em is not null as pendente from exportacoes where id = ${id}`,
      )
    )[0];
  /** Power BI's delay passed: the next attempt is due now. */
  const dueNow = (id: string) =>
    ctx.db.execute(sql`update exportacoes set nova_tentativa_em = now() - interval '1 second' where id = ${id}`);
  const statusRequests = () =>
    standIns.current.powerBi.requests.filter((r) => r.method === 'GET' && r.path.includes('/exports/')).length;
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

    const status = await poll(s.ana, s.rls.id, job.id);
    expect(status.statusCode).toBe(200);
    expect(status.headers['retry-after']).toBeUndefined();
    expect(status.json()).toEqual(succeeded(s.rls.id, job));

    const file = await download(s.ana, s.rls.id, job.id);
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
    await poll(s.ana, s.plain.id, job.id);
    const file = await download(s.ana, s.plain.id, job.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe(PPTX);
    expect(file.headers['content-disposition']).toBe('attachment; filename=Vendas.pptx');
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK'); // a zip, as every .pptx is
  });

  it('passes on Power BI’s Retry-After while the job runs, and has no file before it succeeds', async () => {
    const s = await setup();
    standIns.current.powerBi.setExportDuration(600_000);
    const job = (await start(s.ana, s.plain.id, { formato: 'PDF' })).json<Exportacao>();
    const status = await poll(s.ana, s.plain.id, job.id);
    expect(status.statusCode).toBe(200);
    expect(status.headers['retry-after']).toBe('1');
    expect(status.json()).toMatchObject({ status: 'NotStarted', aguardarSegundos: 1, arquivoUrl: null });
    const file = await download(s.ana, s.plain.id, job.id);
    expect(file.statusCode).toBe(409);
    expect(file.json()).toEqual({ message: 'A exportação ainda não terminou.' });
  });

  it('reports a job Power BI failed, and refuses its file with the Portuguese message', async () => {
    const s = await setup();
    standIns.current.powerBi.failNextExport();
    const job = (await start(s.ana, s.plain.id, { formato: 'PDF' })).json<Exportacao>();
    const status = await poll(s.ana, s.plain.id, job.id);
    expect(status.json()).toMatchObject({ status: 'Failed', aguardarSegundos: null, arquivoUrl: null });
    const file = await download(s.ana, s.plain.id, job.id);
    expect(file.statusCode).toBe(409);
    expect(file.json()).toEqual({ message: 'O Power BI não conseguiu exportar o relatório. Tente novamente.' });
    // Without Retry-After the failure is final: asked again, it stays Failed and nothing starts again.
    const again = await poll(s.ana, s.plain.id, job.id);
    expect(again.json()).toMatchObject({ status: 'Failed' });
    expect(standIns.current.powerBi.exports).toHaveLength(1);
    expect(await attempts(job.id)).toEqual({ tentativas: 1, pendente: false });
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
    const elsewhere = await poll(s.ana, s.plain.id, job.id);
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
      body: {
        nomePainel: 'Vendas',
        workspaceId: vendas.workspaceId,
        reportId: vendas.reportId,
        permiteExportacao: false,
      },
    });
    expect(off.statusCode).toBe(200);
    const refused = await start(s.ana, s.plain.id, { formato: 'PDF' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'A exportação está desativada para este painel.' });
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
    expect(noRole.json()).toEqual({
      message:
        'Você não está em nenhum papel de segurança em nível de linha (RLS) deste painel. Peça acesso a um administrador.',
    });
    await ctx.request('DELETE', `/api/paineis/${s.rls.id}/rls`, { token: s.admin });
    const none = await start(s.admin, s.rls.id, { formato: 'PDF' });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: 'Este painel usa RLS, mas ainda não tem papéis configurados.' });
    expect(standIns.current.powerBi.requests).toEqual([]);
    expect(await jobs()).toBe(0);
  });

  it('answers Power BI’s refusals and outages in Portuguese, recording no job', async () => {
    const s = await setup();
    // A page the report does not have, a state that is none of its: Power BI's 400 is about what was sent.
    const badPage = await start(s.ana, s.plain.id, { formato: 'PDF', pagina: 'ReportSectionNenhuma' });
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json()).toEqual({
      message: 'O Power BI não aceitou o estado ou a página do relatório enviados para a exportação.',
    });
    const badState = await start(s.ana, s.plain.id, { formato: 'PDF', estado: 'não é um estado' });
    expect(badState.json()).toEqual({
      message: 'O Power BI não aceitou o estado ou a página do relatório enviados para a exportação.',
    });
    // Any other refusal is Power BI's.
    standIns.current.powerBi.failNext(404); // the report's details are cached: the next call is ExportTo
    const refused = await start(s.ana, s.plain.id, { formato: 'PDF' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({
      message: 'O Power BI recusou o acesso a este relatório. Verifique o workspace, o relatório e o RLS do painel.',
    });
    standIns.current.powerBi.failNext(503, 10);
    const down = await start(s.ana, s.plain.id, { formato: 'PDF' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ message: 'O Power BI está indisponível no momento. Tente novamente em instantes.' });
    expect(await jobs()).toBe(0);
  });

  it('answers a garbled or throttled status in Portuguese, and the job answers again afterwards', async () => {
    const s = await setup();
    const job = (await start(s.ana, s.plain.id, { formato: 'PDF' })).json<Exportacao>();
    const url = `/api/paineis/${s.plain.id}/exportacoes/${job.id}`;
    standIns.current.powerBi.garbageNext('wrong-shape');
    const garbled = await ctx.request('GET', url, { token: s.ana });
    expect(garbled.statusCode).toBe(503);
    expect(garbled.json()).toEqual({
      message: 'O Power BI está indisponível no momento. Tente novamente em instantes.',
    });
    // A 429 with a short Retry-After is waited out and asked again.
    standIns.current.powerBi.throttleNext(1);
    const status = await ctx.request('GET', url, { token: s.ana });
    expect(status.statusCode).toBe(200);
    expect(status.json<Exportacao>().status).toBe('Succeeded');
  });

  describe('a transient Failed (with Retry-After) is started again, as Power BI’s export guidance says', () => {
    it('answers Running until the delay passes, then starts the same export again, and the person gets the file', async () => {
      const s = await setup();
      const page = pagesOf(regional)[2]!.name;
      const estado = encodeReportState({ pagina: page, regiao: 'Norte' });
      standIns.current.powerBi.failNextExportTransiently(20);
      const job = (await start(s.ana, s.rls.id, { formato: 'PDF', estado, pagina: page })).json<Exportacao>();

      // Power BI says Failed with Retry-After: 20; to Ana the job is still under way, for at least that long.
      const first = await poll(s.ana, s.rls.id, job.id);
      expect(first.statusCode).toBe(200);
      expect(first.headers['retry-after']).toBe('20');
      expect(first.json()).toEqual({ ...job, status: 'Running', percentComplete: 0, aguardarSegundos: 20 });
      expect(standIns.current.powerBi.exports.map((e) => e.status)).toEqual(['Failed']);
      expect(await attempts(job.id)).toEqual({ tentativas: 1, pendente: true });

      // Before the delay passes, nothing is asked of Power BI, and there is no file yet.
      const asked = statusRequests();
      const early = await poll(s.ana, s.rls.id, job.id);
      expect(early.json<Exportacao>()).toMatchObject({ status: 'Running', arquivoUrl: null });
      expect(early.json<Exportacao>().aguardarSegundos).toBeGreaterThanOrEqual(19);
      expect(early.json<Exportacao>().aguardarSegundos).toBeLessThanOrEqual(20);
      const notYet = await download(s.ana, s.rls.id, job.id);
      expect(notYet.statusCode).toBe(409);
      expect(notYet.json()).toEqual({ message: 'A exportação ainda não terminou.' });
      expect(statusRequests()).toBe(asked);
      expect(standIns.current.powerBi.exports).toHaveLength(1);

      // Once due, the next poll starts it again: the same format, state and page, with Ana's identity.
      await dueNow(job.id);
      const restarted = await poll(s.ana, s.rls.id, job.id);
      expect(restarted.statusCode).toBe(200);
      expect(restarted.json()).toEqual({ ...job, status: 'NotStarted', percentComplete: 0, aguardarSegundos: 1 });
      const [failed, second] = standIns.current.powerBi.exports;
      expect(second!.body).toEqual(failed!.body);
      expect(second!.body).toMatchObject({
        format: 'PDF',
        powerBIReportConfiguration: {
          defaultBookmark: { state: estado },
          pages: [{ pageName: page }],
          identities: [{ username: 'ana@empresa.com.br', roles: ['Diretoria', 'Sul'], datasets: [regional.datasetId] }],
        },
      });
      expect(await attempts(job.id)).toEqual({ tentativas: 2, pendente: false });

      const done = await poll(s.ana, s.rls.id, job.id);
      expect(done.json()).toEqual(succeeded(s.rls.id, job));
      const file = await download(s.ana, s.rls.id, job.id);
      expect(file.statusCode).toBe(200);
      const text = await pdfText(file.rawPayload);
      expect(text).toContain('Identidade: ana@empresa.com.br');
      expect(text).toContain('Região: Norte');
      // The job follows Power BI's new export; its first one is forgotten.
      const [record] = await rows<{ power_bi_export_id: string }>(
        ctx.db,
        sql`select power_bi_export_id from exportacoes where id = ${job.id}`,
      );
      expect(record!.power_bi_export_id).toBe(second!.id);
    });

    it('makes three attempts at most, then answers the failure', async () => {
      const s = await setup();
      standIns.current.powerBi.failNextExportTransiently(5, 3);
      const job = (await start(s.ana, s.plain.id, { formato: 'PPTX' })).json<Exportacao>();
      for (const attempt of [2, 3]) {
        expect((await poll(s.ana, s.plain.id, job.id)).json()).toMatchObject({
          status: 'Running',
          aguardarSegundos: 5,
        });
        await dueNow(job.id);
        expect((await poll(s.ana, s.plain.id, job.id)).json()).toMatchObject({ status: 'NotStarted' });
        expect(await attempts(job.id)).toEqual({ tentativas: attempt, pendente: false });
      }
      // The third attempt failed transiently too: no fourth.
      const last = await poll(s.ana, s.plain.id, job.id);
      expect(last.headers['retry-after']).toBeUndefined();
      expect(last.json()).toMatchObject({ status: 'Failed', aguardarSegundos: null, arquivoUrl: null });
      expect(standIns.current.powerBi.exports.map((e) => e.status)).toEqual(['Failed', 'Failed', 'Failed']);
      expect(await attempts(job.id)).toEqual({ tentativas: 3, pendente: false });
      const file = await download(s.ana, s.plain.id, job.id);
      expect(file.statusCode).toBe(409);
      expect(file.json()).toEqual({ message: 'O Power BI não conseguiu exportar o relatório. Tente novamente.' });
    });

    /** Ana's PDF of the plain panel: its first attempt failed with Retry-After `seconds`, and the next is due now. */
    async function dueAfterTransientFailure(s: Awaited<ReturnType<typeof setup>>, seconds: number) {
      standIns.current.powerBi.failNextExportTransiently(seconds);
      const job = (await start(s.ana, s.plain.id, { formato: 'PDF' })).json<Exportacao>();
      await poll(s.ana, s.plain.id, job.id);
      await dueNow(job.id);
      return job;
    }

    it('starts one new job when two polls find the attempt due at once', async () => {
      const s = await setup();
      const job = await dueAfterTransientFailure(s, 3);
      const answers = await Promise.all([poll(s.ana, s.plain.id, job.id), poll(s.ana, s.plain.id, job.id)]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      // One started it; the other was told to ask again in a second.
      expect(answers.map((a) => a.json<Exportacao>().status).sort()).toEqual(['NotStarted', 'Running']);
      expect(standIns.current.powerBi.exports).toHaveLength(2);
      expect(await attempts(job.id)).toEqual({ tentativas: 2, pendente: false });
      expect((await poll(s.ana, s.plain.id, job.id)).json()).toMatchObject({ status: 'Succeeded' });
    });

    it('answers Power BI’s refusal of the new attempt, and the job can still be tried again', async () => {
      const s = await setup();
      const job = await dueAfterTransientFailure(s, 4);
      standIns.current.powerBi.setConcurrentExportLimit(0, 40);
      const busy = await poll(s.ana, s.plain.id, job.id);
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('40');
      expect(busy.json()).toEqual({
        message: 'O Power BI está ocupado com outras exportações. Tente novamente em 40 segundos.',
      });
      // The attempt counted; the failed export is read again, and the last attempt is scheduled.
      expect(await attempts(job.id)).toEqual({ tentativas: 2, pendente: false });
      standIns.current.powerBi.setConcurrentExportLimit(500);
      expect((await poll(s.ana, s.plain.id, job.id)).json()).toMatchObject({ status: 'Running', aguardarSegundos: 4 });
      await dueNow(job.id);
      expect((await poll(s.ana, s.plain.id, job.id)).json()).toMatchObject({ status: 'NotStarted' });
      expect((await poll(s.ana, s.plain.id, job.id)).json()).toMatchObject({ status: 'Succeeded' });
      expect(await attempts(job.id)).toEqual({ tentativas: 3, pendente: false });
    });
  });

  describe('Power BI’s refusals to export, each in Portuguese (docs/decisions/015-export-as-power-bi-documents-it.md)', () => {
    const refusal = async (token: string, painelId: number, body: Record<string, unknown> = { formato: 'PDF' }) => {
      const res = await start(token, painelId, body);
      return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: res.json<{ message: string }>() };
    };
    const NO_CAPACITY = {
      message:
        'O Power BI só exporta relatórios de workspaces numa capacidade Premium, Embedded ou Fabric (Premium por Usuário não serve), e o deste painel não está numa. Avise um administrador.',
    };
    const NEEDS_WRITE = {
      message:
        'Para exportar um painel com RLS, o Power BI exige que o portal tenha permissão de gravação (Write) no modelo semântico e a função Colaborador ou Administrador no workspace. Avise um administrador.',
    };

    it('a workspace without a Premium, Embedded or Fabric capacity, or on Premium Per User: 409', async () => {
      const s = await setup();
      standIns.current.powerBi.setReports([
        { ...vendas, capacity: 'Shared' },
        { ...regional, capacity: 'PremiumPerUser' },
      ]);
      expect(await refusal(s.ana, s.plain.id)).toEqual({ status: 409, retryAfter: undefined, body: NO_CAPACITY });
      expect(await refusal(s.ana, s.rls.id)).toEqual({ status: 409, retryAfter: undefined, body: NO_CAPACITY });
      standIns.current.powerBi.setReports([
        { ...vendas, capacity: 'Premium' },
        { ...regional, capacity: 'Fabric' },
      ]);
      expect((await start(s.ana, s.plain.id, { formato: 'PDF' })).statusCode).toBe(202);
      expect((await start(s.ana, s.rls.id, { formato: 'PDF' })).statusCode).toBe(202);
      expect(await jobs()).toBe(2);
    });

    it('the tenant setting off, a sensitivity label, RLS without Write on the semantic model: 409', async () => {
      const s = await setup();
      standIns.current.powerBi.setExportTenantSetting(false);
      expect(await refusal(s.ana, s.plain.id)).toMatchObject({
        status: 409,
        body: {
          message:
            'A exportação para PDF e PowerPoint está desativada nas configurações de locatário do Power BI. Avise um administrador.',
        },
      });
      standIns.current.powerBi.setExportTenantSetting(true);
      standIns.current.powerBi.setReports([
        { ...vendas, sensitivityLabel: 'Confidencial' },
        { ...regional, datasetWritePermission: false },
      ]);
      expect(await refusal(s.ana, s.plain.id, { formato: 'PPTX' })).toMatchObject({
        status: 409,
        body: {
          message:
            'Este relatório tem um rótulo de confidencialidade, e o Power BI não deixa o portal exportar relatórios com rótulo.',
        },
      });
      expect(await refusal(s.ana, s.rls.id)).toMatchObject({ status: 409, body: NEEDS_WRITE });
      // Write matters only to an export with an identity.
      standIns.current.powerBi.setReports([{ ...vendas, datasetWritePermission: false }, regional]);
      expect((await start(s.ana, s.plain.id, { formato: 'PDF' })).statusCode).toBe(202);
      expect(await jobs()).toBe(1);
    });

    it('a report of more than 50 pages exported whole: 409, and one of its pages is exported', async () => {
      const s = await setup();
      const pages = Array.from({ length: 51 }, (_, i) => ({
        name: `ReportSection${String(i + 1).padStart(3, '0')}`,
        displayName: `Página ${i + 1}`,
        visibility: 0 as const,
      }));
      standIns.current.powerBi.setReports([{ ...vendas, pages }, regional]);
      // The state the viewer sends does not hide the cause.
      const estado = encodeReportState({ pagina: pages[0]!.name, regiao: 'Sul' });
      expect(await refusal(s.ana, s.plain.id, { formato: 'PDF', estado })).toMatchObject({
        status: 409,
        body: {
          message:
            'O relatório tem mais de 50 páginas, mais do que o Power BI exporta de uma vez. Abra a página desejada e exporte de novo: só ela será exportada.',
        },
      });
      const one = await start(s.ana, s.plain.id, { formato: 'PDF', estado, pagina: pages[40]!.name });
      expect(one.statusCode).toBe(202);
      expect(standIns.current.powerBi.exports.map((e) => e.pages)).toEqual([[pages[40]!.name]]);
    });

    it('the capacity busy with its concurrent exports (429): 503 with Retry-After', async () => {
      const s = await setup();
      standIns.current.powerBi.setExportDuration(600_000);
      standIns.current.powerBi.setConcurrentExportLimit(1, 45);
      expect((await start(s.ana, s.plain.id, { formato: 'PDF' })).statusCode).toBe(202);
      expect(await refusal(s.bia, s.plain.id)).toEqual({
        status: 503,
        retryAfter: '45',
        body: { message: 'O Power BI está ocupado com outras exportações. Tente novamente em 45 segundos.' },
      });
      // A wait of minutes is said in minutes.
      standIns.current.powerBi.setConcurrentExportLimit(1, 90);
      expect(await refusal(s.bia, s.plain.id)).toEqual({
        status: 503,
        retryAfter: '90',
        body: { message: 'O Power BI está ocupado com outras exportações. Tente novamente em 2 minutos.' },
      });
      // A 429 without Retry-After still says when.
      standIns.current.powerBi.throttleNext(null, 4);
      expect(await refusal(s.bia, s.plain.id)).toEqual({
        status: 503,
        retryAfter: '30',
        body: { message: 'O Power BI está ocupado com outras exportações. Tente novamente em 30 segundos.' },
      });
      expect(await jobs()).toBe(1);
    });

    it('a code the portal does not know is answered by its status and whether an identity was sent', async () => {
      const s = await setup();
      // failNext answers PowerBINotAuthorizedException, none of the export refusals' codes.
      standIns.current.powerBi.failNext(403);
      expect(await refusal(s.ana, s.plain.id)).toMatchObject({
        status: 409,
        body: {
          message:
            'O Power BI recusou a exportação deste relatório. Verifique se o workspace está numa capacidade Premium, Embedded ou Fabric, se a exportação para PDF e PowerPoint está ativa nas configurações de locatário e se o relatório não tem rótulo de confidencialidade.',
        },
      });
      await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.ana }); // caches the report's details
      standIns.current.powerBi.failNext(403);
      expect(await refusal(s.ana, s.rls.id)).toMatchObject({ status: 409, body: NEEDS_WRITE });
      expect(await jobs()).toBe(0);
    });
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
