import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ASSINATURA_MESSAGES, FALHAS_ENVIO } from '@paineis/contract/subscriptions';
import { createUser, link, seedGroups } from '../../../test/fixtures.ts';
import { eventually } from '../../../test/eventually.ts';
import { salesPanels, salesReports, useSalesApp } from '../../../test/sales-reports.ts';
import type { SubscriptionSettings } from '../../config/env.ts';
import { rows } from '../../db/client.ts';
import {
  arquivoDestinatarios,
  arquivosAssinatura,
  assinaturaGrupos,
  assinaturas,
  assinaturaUsuarios,
  envioDestinatarios,
  enviosAssinatura,
} from '../../db/schema.ts';
import { createMailTransport } from '../../integrations/mail/create-mail-transport.ts';
import { DELIVERY_HEADER, type MailTransport } from '../../integrations/mail/mail-transport.ts';
import { DatabaseTaskClaims } from '../../tasks/task-claims.repository.ts';
import { TaskRunner } from '../../tasks/task-runner.ts';
import { claimDeliveries } from './deliveries.repository.ts';
import { DeliveryWorker, purgeExpiredSubscriptionFiles } from './deliveries.ts';
import { deliveryMessage, scheduleInWords } from './delivery-message.ts';

const reports = salesReports(41);
const PUBLIC_URL = 'https://paineis.empresa.com.br';
/** Monday 2 March 2026, 07:00 in São Paulo: the weekly subscriptions' occurrence. */
const MONDAY = new Date('2026-03-02T10:00:00Z');
const NOW = new Date(MONDAY.getTime() + 30_000);
const seconds = (date: Date, s: number) => new Date(date.getTime() + s * 1000);

async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

interface Received {
  /** The envelope's recipients. */
  to: string[];
  /** The X-Paineis-Envio header: `{envioId}/{usuarioId}`. */
  key: string;
  mail: ParsedMail;
}

/**
 * A real SMTP server (smtp-server, in this process) that parses every message it accepts (mailparser), and refuses the
 * next `refuse` ones with a 550 after reading them, as a server refusing a message does.
 */
function useMailServer() {
  const state = { url: { host: '127.0.0.1', port: 0 }, received: [] as Received[], refuse: 0 };
  let server: SMTPServer;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (state.refuse > 0) {
            state.refuse -= 1;
            callback(Object.assign(new Error('Caixa postal recusou a mensagem'), { responseCode: 550 }));
            return;
          }
          simpleParser(Buffer.concat(chunks)).then((mail) => {
            const key = mail.headers.get(DELIVERY_HEADER.toLowerCase());
            state.received.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              key: typeof key === 'string' ? key : '',
              mail,
            });
            callback();
          }, callback);
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.url.port = (server.server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    state.received.length = 0;
    state.refuse = 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return state;
}

describe('subscription deliveries (docs/decisions/020-subscription-deliveries.md)', () => {
  const smtp = useMailServer();
  const { standIns, ctx } = useSalesApp(reports, { powerBiOptions: { timeoutMs: 2000, sleep: async () => undefined } });
  const powerBi = () => standIns.current.powerBi;
  const started: DeliveryWorker[] = [];
  const transports: MailTransport[] = [];
  beforeEach(() => {
    powerBi().setExportDuration(0);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((w) => w.stop()));
    await Promise.all(transports.splice(0).map((t) => t.close()));
  });

  /** The SMTP transport (SMTP_URL, MAIL_FROM) to the test's mail server. */
  function smtpTransport(maxAttachmentBytes: number): MailTransport {
    const url = `smtp://${smtp.url.host}:${smtp.url.port}`;
    const transport = createMailTransport(
      { kind: 'smtp', url, from: 'Painéis <paineis@empresa.com.br>', maxAttachmentBytes },
      { graph: null },
    )!;
    transports.push(transport);
    return transport;
  }

  /** A worker of its own over the app's database and Power BI, with the test's mail server and short waits. */
  function worker(
    settings: Partial<SubscriptionSettings> = {},
    { instanceId = 'instancia-a', maxAttachmentBytes = 10 * 1024 * 1024 } = {},
  ) {
    const created = new DeliveryWorker({
      db: ctx.db,
      reportExports: ctx.app.reportExports,
      mail: smtpTransport(maxAttachmentBytes),
      config: {
        ...ctx.config,
        publicUrl: `${PUBLIC_URL}/`,
        subscriptions: {
          maxAttempts: 3,
          retrySeconds: 60,
          exportConcurrency: 3,
          pollSeconds: 3600,
          refreshWatchMinutes: 5,
          leaseSeconds: 30,
          fileDays: 7,
          sendNowLimit: 10,
          sendNowWindowSeconds: 3600,
          ...settings,
        },
      },
      log: ctx.app.log,
      instanceId,
      // Power BI's Retry-After (1 s while an export runs) shortened, so the tests do not wait it out.
      wait: (ms, signal) => sleep(Math.min(ms, 20), undefined, { signal }).catch(() => undefined),
    });
    started.push(created);
    return created;
  }

  /** A weekly subscription (Mondays 07:00, São Paulo) due at MONDAY; recipients named make it an admin's. */
  async function subscribe(
    values: { painelId: number; usuarioId: string } & Partial<typeof assinaturas.$inferInsert>,
    recipients?: { usuarios?: string[]; grupos?: string[] },
  ) {
    const [row] = await ctx.db
      .insert(assinaturas)
      .values({
        formato: 'PDF',
        frequencia: 'semanal',
        hora: '07:00',
        diaSemana: 1,
        fusoHorario: 'America/Sao_Paulo',
        proximoEnvio: MONDAY,
        comDestinatarios: recipients !== undefined,
        ...values,
      })
      .returning();
    for (const usuarioId of recipients?.usuarios ?? []) {
      await ctx.db.insert(assinaturaUsuarios).values({ assinaturaId: row!.id, usuarioId });
    }
    for (const grupoId of recipients?.grupos ?? []) {
      await ctx.db.insert(assinaturaGrupos).values({ assinaturaId: row!.id, grupoId });
    }
    return row!;
  }

  const deliveries = (assinaturaId: string) =>
    ctx.db.select().from(enviosAssinatura).where(eq(enviosAssinatura.assinaturaId, assinaturaId));
  const delivery = async (assinaturaId: string) => {
    const found = await deliveries(assinaturaId);
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  const parts = async (envioId: string) =>
    Object.fromEntries(
      (await ctx.db.select().from(envioDestinatarios).where(eq(envioDestinatarios.envioId, envioId))).map((p) => [
        p.usuarioId,
        { estado: p.estado, identidade: p.identidade },
      ]),
    );
  const subscription = async (id: string) =>
    (await ctx.db.select().from(assinaturas).where(eq(assinaturas.id, id)))[0]!;
  const exportToCalls = () => powerBi().requests.filter((r) => r.method === 'POST' && r.path.endsWith('/ExportTo'));

  /** Ana, Bia and the rest, the RLS panel over Vendas por Região (Sul: Ana; Norte: Bia) and Vendas without RLS. */
  async function setup() {
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br', displayName: 'Ana Souza' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br', displayName: 'Bia Lima' });
    const { plain, rls } = await salesPanels(ctx.db, reports, [
      { roleName: 'Sul', userEmails: ['ana@empresa.com.br'] },
      { roleName: 'Norte', userEmails: ['bia@empresa.com.br'] },
    ]);
    await link(ctx.db, plain.id, [ana.id, bia.id]);
    await link(ctx.db, rls.id, [ana.id, bia.id]);
    return { ana, bia, plain, rls };
  }

  it('renders one export per effective identity, and each recipient reads their own identity in their PDF', async () => {
    const { ana, bia, rls } = await setup();
    // Ana's local account: the same address, hence the same RLS identity as her directory account.
    const anaLocal = await createUser(ctx.db, { email: 'ana@empresa.com.br', displayName: 'Ana (conta local)' });
    const caio = await createUser(ctx.db, { email: 'caio@empresa.com.br', displayName: 'Caio' }); // no RLS role
    const dani = await createUser(ctx.db, { email: 'dani@empresa.com.br', active: false }); // inactive
    const edu = await createUser(ctx.db, { email: 'edu@empresa.com.br' }); // not linked to the panel
    await link(ctx.db, rls.id, [ana.id, anaLocal.id, bia.id, caio.id, dani.id]);
    await seedGroups(ctx.database, [
      { id: 'g-comercial', nome: 'Comercial', people: [bia.id], groups: ['g-campo'] },
      { id: 'g-campo', nome: 'Campo', people: [caio.id, ana.id] },
    ]);
    const admin = await createUser(ctx.db, { role: 'Admin' });
    const sub = await subscribe(
      { painelId: rls.id, usuarioId: admin.id },
      { usuarios: [ana.id, anaLocal.id, dani.id, edu.id], grupos: ['g-comercial'] },
    );

    await worker().runOnce(NOW);

    // Ana's two accounts share one export; Bia has her own; nobody else gets one.
    expect(powerBi().exports.map((e) => e.identity)).toEqual([
      { username: 'ana@empresa.com.br', roles: ['Sul'] },
      { username: 'bia@empresa.com.br', roles: ['Norte'] },
    ]);
    const envio = await delivery(sub.id);
    expect(envio).toMatchObject({ estado: 'enviado', tentativas: 1, erro: null, ocorrencia: MONDAY, manual: false });
    expect(await parts(envio.id)).toEqual({
      [ana.id]: { estado: 'enviado', identidade: 'ana@empresa.com.br' },
      [anaLocal.id]: { estado: 'enviado', identidade: 'ana@empresa.com.br' },
      [bia.id]: { estado: 'enviado', identidade: 'bia@empresa.com.br' },
      [caio.id]: { estado: 'sem-acesso', identidade: null },
      [dani.id]: { estado: 'sem-acesso', identidade: null },
      [edu.id]: { estado: 'sem-acesso', identidade: null },
    });

    const byKey = new Map(smtp.received.map((m) => [m.key, m]));
    expect([...byKey.keys()].sort()).toEqual([ana.id, anaLocal.id, bia.id].map((id) => `${envio.id}/${id}`).sort());
    expect(smtp.received).toHaveLength(3);
    for (const [person, address, region] of [
      [ana, 'ana@empresa.com.br', 'Sul'],
      [anaLocal, 'ana@empresa.com.br', 'Sul'],
      [bia, 'bia@empresa.com.br', 'Norte'],
    ] as const) {
      const message = byKey.get(`${envio.id}/${person.id}`)!;
      expect(message.to).toEqual([address]);
      expect(message.mail.subject).toBe('Vendas por Região — 02/03/2026');
      expect(message.mail.text).toContain(`Olá, ${person.displayName}.`);
      expect(message.mail.html).toContain(`<a href="${PUBLIC_URL}/visualizar/${rls.id}">Abrir o painel</a>`);
      expect(message.mail.html).toContain(`<a href="${PUBLIC_URL}/assinaturas">Gerenciar suas assinaturas</a>`);
      expect(message.mail.text).toContain('toda segunda-feira às 07:00 (America/Sao_Paulo)');
      const [attachment, ...others] = message.mail.attachments;
      expect(others).toEqual([]);
      expect(attachment!.filename).toBe('Vendas por Região.pdf');
      expect(attachment!.contentType).toBe('application/pdf');
      const text = await pdfText(attachment!.content);
      expect(text).toContain(`Identidade: ${address}`);
      expect(text).toContain(`Papéis: ${region}`);
    }

    const after = await subscription(sub.id);
    expect(after.ultimoEnvio).toBeInstanceOf(Date);
    expect(after.ultimaFalha).toBeNull();
    // The next Monday's occurrence is the next one; running again queues nothing more.
    expect(after.proximoEnvio).toEqual(new Date('2026-03-09T10:00:00Z'));
    await worker().runOnce(seconds(NOW, 60));
    expect(await deliveries(sub.id)).toHaveLength(1);
    expect(smtp.received).toHaveLength(3);

    const [audit] = await rows<{ objeto: string; acao: string; objeto_id: string; mudancas: unknown }>(
      ctx.db,
      sql`select objeto, acao, objeto_id, mudancas from auditoria where acao = 'envio'`,
    );
    expect(audit).toMatchObject({ objeto: 'assinatura', acao: 'envio', objeto_id: sub.id });
    const changes = Object.fromEntries(
      (audit!.mudancas as { campo: string; depois: unknown }[]).map((m) => [m.campo, m.depois]),
    );
    expect(changes).toMatchObject({ envio: envio.id, estado: 'enviado', manual: false });
    expect((changes.enviadoPara as string[]).sort()).toEqual([
      'ana@empresa.com.br',
      'ana@empresa.com.br',
      'bia@empresa.com.br',
    ]);
    expect((changes.semAcesso as string[]).sort()).toEqual([
      'caio@empresa.com.br',
      'dani@empresa.com.br',
      'edu@empresa.com.br',
    ]);
  });

  it('sends nothing and fails without retry when no recipient may open the panel, or its owner is inactive', async () => {
    const { rls, plain } = await setup();
    const lost = await createUser(ctx.db, { email: 'sem.papel@empresa.com.br' });
    await link(ctx.db, rls.id, [lost.id]);
    const inactive = await createUser(ctx.db, { active: false });
    await link(ctx.db, plain.id, [inactive.id]);
    const noRole = await subscribe({ painelId: rls.id, usuarioId: lost.id });
    const gone = await subscribe({ painelId: plain.id, usuarioId: inactive.id });

    await worker().runOnce(NOW);

    const envio = await delivery(noRole.id);
    expect(envio).toMatchObject({ estado: 'falhou', tentativas: 1, erro: FALHAS_ENVIO.semDestinatarios });
    expect(await parts(envio.id)).toEqual({ [lost.id]: { estado: 'sem-acesso', identidade: null } });
    expect(await subscription(noRole.id)).toMatchObject({
      ultimaFalha: FALHAS_ENVIO.semDestinatarios,
      ultimoEnvio: null,
    });
    // The owner's account is inactive: stopped before anyone is judged.
    const stopped = await delivery(gone.id);
    expect(stopped).toMatchObject({ estado: 'falhou', tentativas: 1, erro: ASSINATURA_MESSAGES.donoInativo });
    expect(await parts(stopped.id)).toEqual({});
    expect(await subscription(gone.id)).toMatchObject({ ultimaFalha: ASSINATURA_MESSAGES.donoInativo });
    expect(powerBi().exports).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it('judges each recipient again after the export: one who lost access meanwhile is sent nothing', async () => {
    const { ana, bia, rls } = await setup();
    const admin = await createUser(ctx.db, { role: 'Admin' });
    const sub = await subscribe({ painelId: rls.id, usuarioId: admin.id }, { usuarios: [ana.id, bia.id] });
    powerBi().setExportDuration(1_500);
    const run = worker().runOnce(NOW);
    // The first export under way, every recipient already judged once: Ana's link goes.
    await eventually(() => expect(powerBi().exports).toHaveLength(1));
    await link(ctx.db, rls.id, [bia.id]);
    await run;

    const envio = await delivery(sub.id);
    expect(envio).toMatchObject({ estado: 'enviado', erro: null });
    expect(await parts(envio.id)).toEqual({
      [ana.id]: { estado: 'sem-acesso', identidade: null },
      [bia.id]: { estado: 'enviado', identidade: 'bia@empresa.com.br' },
    });
    expect(smtp.received.map((m) => m.to)).toEqual([['bia@empresa.com.br']]);
  });

  it('sends nothing to someone taken out of the group, of 50, named as recipients while its export renders', async () => {
    const { plain } = await setup();
    const members = [];
    for (let i = 0; i < 50; i++) members.push(await createUser(ctx.db, { email: `p${i}@empresa.com.br` }));
    // All 50 may open the panel by their own link: only the group makes them recipients.
    await link(
      ctx.db,
      plain.id,
      members.map((m) => m.id),
    );
    await seedGroups(ctx.database, [{ id: 'g-equipe', nome: 'Equipe', people: members.map((m) => m.id) }]);
    const admin = await createUser(ctx.db, { role: 'Admin' });
    const sub = await subscribe({ painelId: plain.id, usuarioId: admin.id }, { grupos: ['g-equipe'] });
    powerBi().setExportDuration(1_500);
    const run = worker().runOnce(NOW);
    await eventually(() => expect(powerBi().exports).toHaveLength(1));
    const leaver = members[17]!;
    await ctx.db.execute(sql`delete from grupo_membros where grupo_id = 'g-equipe' and membro_id = ${leaver.id}`);
    await run;

    const envio = await delivery(sub.id);
    expect(envio.estado).toBe('enviado');
    const recorded = await parts(envio.id);
    expect(recorded[leaver.id]).toEqual({ estado: 'sem-acesso', identidade: null });
    expect(Object.values(recorded).filter((p) => p.estado === 'enviado')).toHaveLength(49);
    expect(smtp.received).toHaveLength(49);
    expect(smtp.received.flatMap((m) => m.to)).not.toContain(leaver.email);
  });

  it('stops sending once its owner is no longer an administrator, or it is paused, while its exports render', async () => {
    const { ana, bia, rls } = await setup();
    const admin = await createUser(ctx.db, { role: 'Admin' });
    const demoted = await subscribe({ painelId: rls.id, usuarioId: admin.id }, { usuarios: [ana.id, bia.id] });
    powerBi().setExportDuration(1_000);
    let run = worker().runOnce(NOW);
    await eventually(() => expect(powerBi().exports).toHaveLength(1));
    await ctx.db.execute(sql`update usuarios set role = 'User', role_source = null where id = ${admin.id}`);
    await run;
    expect(smtp.received).toEqual([]);
    expect(await delivery(demoted.id)).toMatchObject({
      estado: 'falhou',
      erro: ASSINATURA_MESSAGES.donoNaoAdministrador,
    });
    expect((await subscription(demoted.id)).ultimaFalha).toBe(ASSINATURA_MESSAGES.donoNaoAdministrador);

    // Another administrator pauses one under way: the identity not yet exported is never sent.
    const other = await createUser(ctx.db, { role: 'Admin' });
    const paused = await subscribe(
      { painelId: rls.id, usuarioId: other.id, proximoEnvio: NOW },
      { usuarios: [ana.id, bia.id] },
    );
    run = worker().runOnce(seconds(NOW, 60));
    await eventually(() => expect(powerBi().exports).toHaveLength(2));
    await ctx.db.update(assinaturas).set({ ativa: false, proximoEnvio: null }).where(eq(assinaturas.id, paused.id));
    await run;
    expect(smtp.received).toHaveLength(1);
    expect(await delivery(paused.id)).toMatchObject({ estado: 'falhou', erro: ASSINATURA_MESSAGES.pausada });
  });

  it("renders again for a recipient whose RLS roles changed during the export, never mailing the old identity's file", async () => {
    const { ana, rls } = await setup();
    const sub = await subscribe({ painelId: rls.id, usuarioId: ana.id });
    powerBi().setExportDuration(1_000);
    const run = worker().runOnce(NOW);
    await eventually(() => expect(powerBi().exports).toHaveLength(1));
    // Ana moves from Sul to Norte while her file renders.
    await ctx.db.execute(sql`
      update painel_rls_role_emails set role_id = (
        select id from painel_rls_roles where painel_id = ${rls.id} and role_name = 'Norte')
      where email = 'ana@empresa.com.br'`);
    await run;

    expect(powerBi().exports.map((e) => e.identity)).toEqual([
      { username: 'ana@empresa.com.br', roles: ['Sul'] },
      { username: 'ana@empresa.com.br', roles: ['Norte'] },
    ]);
    const envio = await delivery(sub.id);
    expect(envio).toMatchObject({ estado: 'enviado', tentativas: 1 });
    expect(await parts(envio.id)).toEqual({ [ana.id]: { estado: 'enviado', identidade: 'ana@empresa.com.br' } });
    expect(smtp.received).toHaveLength(1);
    const text = await pdfText(smtp.received[0]!.mail.attachments[0]!.content);
    expect(text).toContain('Papéis: Norte');
    expect(text).not.toContain('Papéis: Sul');
  });

  it('queues an occurrence once, however many times or instances find it due', async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id });
    // Another instance read the same occurrence before this one moved the subscription on: still one delivery.
    await Promise.all([worker({ exportConcurrency: 1 }).runOnce(NOW), worker({}, { instanceId: 'b' }).runOnce(NOW)]);
    await ctx.db.update(assinaturas).set({ proximoEnvio: MONDAY }).where(eq(assinaturas.id, sub.id));
    await worker().runOnce(seconds(NOW, 5));
    expect((await deliveries(sub.id)).map((d) => d.estado)).toEqual(['enviado']);
    expect(smtp.received).toHaveLength(1);
    // Occurrences missed while no instance ran go once, and the next is the first after now.
    await ctx.db
      .update(assinaturas)
      .set({ proximoEnvio: new Date('2026-03-09T10:00:00Z') })
      .where(eq(assinaturas.id, sub.id));
    await worker().runOnce(new Date('2026-03-25T12:00:00Z'));
    expect((await deliveries(sub.id)).map((d) => d.ocorrencia).sort((a, b) => +a - +b)).toEqual([
      MONDAY,
      new Date('2026-03-09T10:00:00Z'),
    ]);
    expect((await subscription(sub.id)).proximoEnvio).toEqual(new Date('2026-03-30T10:00:00Z'));
  });

  it("starts an export again after Power BI's transient Failed, within the same attempt", async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id });
    powerBi().failNextExportTransiently(0);
    await worker().runOnce(NOW);
    expect(exportToCalls()).toHaveLength(2);
    expect(await delivery(sub.id)).toMatchObject({ estado: 'enviado', tentativas: 1 });
    expect(smtp.received).toHaveLength(1);
  });

  it('tries again with backoff after a Power BI failure, then succeeds', async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id });
    powerBi().failNextExport();
    const reason = `${FALHAS_ENVIO.exportacao} A exportação terminou com falha no Power BI.`;

    await worker().runOnce(NOW);
    let envio = await delivery(sub.id);
    expect(envio).toMatchObject({ estado: 'pendente', tentativas: 1, erro: reason, ocupadoPor: null });
    // retrySeconds (60) after the attempt.
    expect(envio.disponivelEm.getTime()).toBeGreaterThanOrEqual(seconds(NOW, 60).getTime());
    expect(envio.disponivelEm.getTime()).toBeLessThan(seconds(NOW, 70).getTime());
    expect(smtp.received).toEqual([]);
    // Not available before then.
    await worker().runOnce(seconds(NOW, 30));
    expect((await delivery(sub.id)).tentativas).toBe(1);

    await worker().runOnce(seconds(NOW, 75));
    envio = await delivery(sub.id);
    expect(envio).toMatchObject({ estado: 'enviado', tentativas: 2, erro: null });
    expect(smtp.received.map((m) => m.key)).toEqual([`${envio.id}/${ana.id}`]);
    expect(await subscription(sub.id)).toMatchObject({ ultimaFalha: null });
  });

  it('marks the delivery failed after maxAttempts Power BI failures, with the reason on the subscription', async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id });
    powerBi().failNextExport(3);
    const reason = `${FALHAS_ENVIO.exportacao} A exportação terminou com falha no Power BI.`;

    await worker().runOnce(NOW);
    await worker().runOnce(seconds(NOW, 75));
    const second = await delivery(sub.id);
    expect(second).toMatchObject({ estado: 'pendente', tentativas: 2 });
    // The second retry waits twice as long.
    expect(second.disponivelEm.getTime()).toBeGreaterThanOrEqual(seconds(NOW, 75 + 120).getTime());
    await worker().runOnce(seconds(NOW, 75 + 130));

    const envio = await delivery(sub.id);
    expect(envio).toMatchObject({ estado: 'falhou', tentativas: 3, erro: reason });
    expect(envio.concluidoEm).toBeInstanceOf(Date);
    const after = await subscription(sub.id);
    expect(after).toMatchObject({ ultimaFalha: reason, ultimoEnvio: null });
    expect(after.ultimaFalhaEm).toBeInstanceOf(Date);
    expect(exportToCalls()).toHaveLength(3);
    expect(smtp.received).toEqual([]);
    // Never again.
    await worker().runOnce(seconds(NOW, 3600));
    expect(exportToCalls()).toHaveLength(3);
    const [audit] = await rows<{ mudancas: { campo: string; depois: unknown }[] }>(
      ctx.db,
      sql`select mudancas from auditoria where acao = 'envio'`,
    );
    expect(audit!.mudancas).toContainEqual({ campo: 'motivo', depois: reason });
  });

  it('tries again when the mail server refuses, then fails after maxAttempts refusals', async () => {
    const { ana, bia, plain } = await setup();
    const once = await subscribe({ painelId: plain.id, usuarioId: ana.id });
    // The reason, with the server's own reply.
    const refused = `${FALHAS_ENVIO.email} Servidor SMTP: Message failed: 550 Caixa postal recusou a mensagem`;
    smtp.refuse = 1;
    await worker().runOnce(NOW);
    expect(await delivery(once.id)).toMatchObject({
      estado: 'pendente',
      tentativas: 1,
      erro: refused,
    });
    await worker().runOnce(seconds(NOW, 75));
    expect(await delivery(once.id)).toMatchObject({ estado: 'enviado', tentativas: 2 });
    expect(smtp.received.map((m) => m.to)).toEqual([['ana@empresa.com.br']]);

    const always = await subscribe({ painelId: plain.id, usuarioId: bia.id });
    smtp.refuse = 3;
    await worker({ retrySeconds: 0 }).runOnce(NOW);
    expect(await delivery(always.id)).toMatchObject({
      estado: 'falhou',
      tentativas: 3,
      erro: refused,
    });
    expect((await subscription(always.id)).ultimaFalha).toBe(refused);
    expect(smtp.received).toHaveLength(1);
  });

  it("takes over a dead instance's delivery and does not send again to whom it recorded", async () => {
    const { ana, bia, plain } = await setup();
    const admin = await createUser(ctx.db, { role: 'Admin' });
    const sub = await subscribe({ painelId: plain.id, usuarioId: admin.id }, { usuarios: [ana.id, bia.id] });
    const live = await subscribe({ painelId: plain.id, usuarioId: bia.id, proximoEnvio: null });
    const [dead] = await ctx.db
      .insert(enviosAssinatura)
      .values({
        assinaturaId: sub.id,
        ocorrencia: MONDAY,
        estado: 'executando',
        tentativas: 1,
        ocupadoPor: 'instancia-morta',
        ocupadoAte: seconds(NOW, -1),
      })
      .returning();
    // It had sent Ana's message and recorded it when it died.
    await ctx.db.insert(envioDestinatarios).values({ envioId: dead!.id, usuarioId: ana.id, estado: 'enviado' });
    // Another instance's delivery, its lease still running: not taken.
    const [held] = await ctx.db
      .insert(enviosAssinatura)
      .values({
        assinaturaId: live.id,
        ocorrencia: MONDAY,
        estado: 'executando',
        tentativas: 1,
        ocupadoPor: 'instancia-viva',
        ocupadoAte: seconds(NOW, 60),
      })
      .returning();
    await ctx.db.update(assinaturas).set({ proximoEnvio: seconds(MONDAY, 7 * 86_400) });

    await worker().runOnce(NOW);

    expect(smtp.received.map((m) => m.key)).toEqual([`${dead!.id}/${bia.id}`]);
    expect(await delivery(sub.id)).toMatchObject({ estado: 'enviado', tentativas: 2, ocupadoPor: null });
    expect(Object.keys(await parts(dead!.id)).sort()).toEqual([ana.id, bia.id].sort());
    expect(await delivery(live.id)).toMatchObject({ id: held!.id, estado: 'executando', ocupadoPor: 'instancia-viva' });
  });

  it('fails a delivery taken again after every attempt died on it, without trying it once more', async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id, proximoEnvio: null });
    await ctx.db.insert(enviosAssinatura).values({
      assinaturaId: sub.id,
      ocorrencia: MONDAY,
      estado: 'executando',
      tentativas: 3,
      ocupadoPor: 'instancia-morta',
      ocupadoAte: seconds(NOW, -1),
    });
    await worker({ maxAttempts: 3 }).runOnce(NOW);
    expect(await delivery(sub.id)).toMatchObject({ estado: 'falhou', tentativas: 4, erro: FALHAS_ENVIO.interno });
    expect((await subscription(sub.id)).ultimaFalha).toBe(FALHAS_ENVIO.interno);
    expect(powerBi().exports).toEqual([]);
  });

  it('queues the others when one schedule has no next occurrence', async () => {
    const { ana, bia, plain } = await setup();
    // A weekly schedule without its weekday, which the API never writes.
    const broken = await subscribe({ painelId: plain.id, usuarioId: ana.id, diaSemana: null });
    const fine = await subscribe({ painelId: plain.id, usuarioId: bia.id });
    await worker().runOnce(NOW);
    expect((await subscription(broken.id)).proximoEnvio).toBeNull();
    expect((await subscription(fine.id)).proximoEnvio).toEqual(new Date('2026-03-09T10:00:00Z'));
    expect(smtp.received.map((m) => m.to).sort()).toEqual([['ana@empresa.com.br'], ['bia@empresa.com.br']]);
  });

  it('delivers each of 30 due subscriptions exactly once with two workers on one database', async () => {
    const { plain } = await setup();
    const owners = [];
    for (let i = 0; i < 30; i++) owners.push(await createUser(ctx.db, { email: `pessoa${i}@empresa.com.br` }));
    await link(
      ctx.db,
      plain.id,
      owners.map((o) => o.id),
    );
    for (const owner of owners) await subscribe({ painelId: plain.id, usuarioId: owner.id });

    await Promise.all([
      worker({}, { instanceId: 'instancia-a' }).runOnce(NOW),
      worker({}, { instanceId: 'instancia-b' }).runOnce(NOW),
    ]);

    const envios = await ctx.db.select().from(enviosAssinatura);
    expect(envios).toHaveLength(30);
    expect(envios.every((e) => e.estado === 'enviado' && e.tentativas === 1)).toBe(true);
    expect(smtp.received).toHaveLength(30);
    const keys = new Set(smtp.received.map((m) => m.key));
    expect(keys.size).toBe(30);
    const ownerOf = new Map(envios.map((e) => [e.id, e.assinaturaId]));
    const subs = new Map((await ctx.db.select().from(assinaturas)).map((s) => [s.id, s.usuarioId]));
    for (const key of keys) {
      const [envioId, usuarioId] = key.split('/');
      expect(subs.get(ownerOf.get(envioId!)!)).toBe(usuarioId);
    }
    expect(powerBi().exports).toHaveLength(30);
  });

  it('sends a file too large to attach as a link, downloadable by its recipient until it expires', async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id });
    await worker({ fileDays: 7 }, { maxAttachmentBytes: 100 }).runOnce(NOW);

    const envio = await delivery(sub.id);
    expect(envio.estado).toBe('enviado');
    const [file, ...others] = await ctx.db.select().from(arquivosAssinatura);
    expect(others).toEqual([]);
    expect(file).toMatchObject({ envioId: envio.id, identidade: '', nome: 'Vendas.pdf', tipo: 'application/pdf' });
    expect(file!.tamanho).toBe(file!.conteudo.length);
    expect(await ctx.db.select().from(arquivoDestinatarios)).toEqual([{ arquivoId: file!.id, usuarioId: ana.id }]);
    expect(await pdfText(file!.conteudo)).toContain('Sem identidade efetiva');
    expect(file!.expiraEm.getTime()).toBeGreaterThanOrEqual(seconds(NOW, 7 * 86_400).getTime());
    expect(file!.expiraEm.getTime()).toBeLessThan(seconds(NOW, 7 * 86_400 + 10).getTime());

    const [message] = smtp.received;
    expect(message!.mail.attachments).toEqual([]);
    expect(message!.mail.html).toContain(
      `<a href="${PUBLIC_URL}/assinaturas/arquivos/${file!.id}">Baixe-o no portal</a>`,
    );
    expect(message!.mail.text).toContain('Baixe-o no portal até 09/03/2026 às 07:00');

    await purgeExpiredSubscriptionFiles(ctx.db, seconds(NOW, 6 * 86_400));
    expect(await ctx.db.select({ id: arquivosAssinatura.id }).from(arquivosAssinatura)).toHaveLength(1);
    await purgeExpiredSubscriptionFiles(ctx.db, seconds(NOW, 7 * 86_400 + 60));
    expect(await ctx.db.select({ id: arquivosAssinatura.id }).from(arquivosAssinatura)).toEqual([]);
  });

  it('stores a file too large to attach once per export, shared by its recipients, and counts it in the audit', async () => {
    const { ana, bia, plain, rls } = await setup();
    const carla = await createUser(ctx.db, { email: 'carla@empresa.com.br' });
    await link(ctx.db, plain.id, [ana.id, bia.id, carla.id]);
    const admin = await createUser(ctx.db, { role: 'Admin' });
    // Without RLS the three share one export; with it, Ana and Bia each have their own.
    const shared = await subscribe(
      { painelId: plain.id, usuarioId: admin.id },
      { usuarios: [ana.id, bia.id, carla.id] },
    );
    const apart = await subscribe({ painelId: rls.id, usuarioId: admin.id }, { usuarios: [ana.id, bia.id] });
    await worker({}, { maxAttachmentBytes: 100 }).runOnce(NOW);

    expect(powerBi().exports).toHaveLength(1 + 2);
    const filesOf = async (assinaturaId: string) => {
      const envio = await delivery(assinaturaId);
      expect(envio.estado).toBe('enviado');
      return (await ctx.db.select().from(arquivosAssinatura)).filter((f) => f.envioId === envio.id);
    };
    const links = await ctx.db.select().from(arquivoDestinatarios);
    const [one, ...more] = await filesOf(shared.id);
    expect(more).toEqual([]);
    expect(one!.identidade).toBe('');
    expect(
      links
        .filter((l) => l.arquivoId === one!.id)
        .map((l) => l.usuarioId)
        .sort(),
    ).toEqual([ana.id, bia.id, carla.id].sort());
    // Each of the three messages links to the one file.
    const sharedMessages = smtp.received.filter((m) =>
      String(m.mail.html).includes(`/assinaturas/arquivos/${one!.id}`),
    );
    expect(sharedMessages.map((m) => m.to[0]).sort()).toEqual([
      'ana@empresa.com.br',
      'bia@empresa.com.br',
      'carla@empresa.com.br',
    ]);
    const byIdentity = await filesOf(apart.id);
    expect(byIdentity.map((f) => f.identidade).sort()).toEqual(['ana@empresa.com.br|Sul', 'bia@empresa.com.br|Norte']);

    const audited = async (assinaturaId: string) =>
      (
        await rows<{ mudancas: { campo: string; depois: unknown }[] }>(
          ctx.db,
          sql`select mudancas from auditoria where acao = 'envio' and objeto_id = ${assinaturaId}`,
        )
      )[0]!.mudancas.find((c) => c.campo === 'armazenado')?.depois;
    expect(await audited(shared.id)).toBe(one!.tamanho);
    expect(await audited(apart.id)).toBe(byIdentity.reduce((sum, f) => sum + f.tamanho, 0));
  });

  it("takes owners in turn: one person's 100 'Enviar agora' do not hold back another's scheduled delivery", async () => {
    const { ana, bia, plain } = await setup();
    const busy = await subscribe({ painelId: plain.id, usuarioId: ana.id, proximoEnvio: null });
    // Ana asked 100 sends in the minute before Bia's schedule fell due.
    await ctx.db.insert(enviosAssinatura).values(
      Array.from({ length: 100 }, (_, i) => ({
        assinaturaId: busy.id,
        ocorrencia: seconds(NOW, -60 + i * 0.5),
        manual: true,
        disponivelEm: seconds(NOW, -60 + i * 0.5),
      })),
    );
    const scheduled = await subscribe({ painelId: plain.id, usuarioId: bia.id, proximoEnvio: null });
    const [bias] = await ctx.db
      .insert(enviosAssinatura)
      .values({ assinaturaId: scheduled.id, ocorrencia: NOW, disponivelEm: NOW })
      .returning();
    const claim = (limit: number, instanceId: string) =>
      claimDeliveries(ctx.db, { now: seconds(NOW, 1), limit, leaseUntil: seconds(NOW, 120), instanceId });

    const first = await claim(3, 'instancia-a');
    expect(first.map((c) => c.assinaturaId).sort()).toEqual([busy.id, busy.id, scheduled.id].sort());
    expect(first.some((c) => c.id === bias!.id)).toBe(true);
    // Ana has two under way: a third person's delivery, due later than all of Ana's, goes before her next.
    const caio = await createUser(ctx.db);
    await link(ctx.db, plain.id, [ana.id, bia.id, caio.id]);
    const later = await subscribe({ painelId: plain.id, usuarioId: caio.id, proximoEnvio: null });
    const [caios] = await ctx.db
      .insert(enviosAssinatura)
      .values({ assinaturaId: later.id, ocorrencia: seconds(NOW, 0.5), disponivelEm: seconds(NOW, 0.5) })
      .returning();
    const next = await claim(1, 'instancia-b');
    expect(next.map((c) => c.id)).toEqual([caios!.id]);
    expect((await claim(1, 'instancia-b'))[0]!.assinaturaId).toBe(busy.id);
  });

  it('never claims one delivery twice when many instances claim at once', async () => {
    const { ana, bia, plain } = await setup();
    const subs = [
      await subscribe({ painelId: plain.id, usuarioId: ana.id, proximoEnvio: null }),
      await subscribe({ painelId: plain.id, usuarioId: bia.id, proximoEnvio: null }),
    ];
    await ctx.db.insert(enviosAssinatura).values(
      Array.from({ length: 120 }, (_, i) => ({
        assinaturaId: subs[i % 2]!.id,
        ocorrencia: seconds(NOW, -i),
        disponivelEm: seconds(NOW, -i),
      })),
    );
    const claimed: string[] = [];
    // Twelve claimers at once, again and again, until the queue is empty.
    for (let round = 0; round < 20 && claimed.length < 120; round++) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          claimDeliveries(ctx.db, {
            now: seconds(NOW, 1),
            limit: 3,
            leaseUntil: seconds(NOW, 120),
            instanceId: `instancia-${i}`,
          }),
        ),
      );
      claimed.push(...answers.flat().map((c) => c.id));
    }
    expect(claimed).toHaveLength(120);
    expect(new Set(claimed).size).toBe(120);
  });

  it('renders at most exportConcurrency exports at once per instance', async () => {
    const { plain } = await setup();
    const owners = [];
    for (let i = 0; i < 6; i++) owners.push(await createUser(ctx.db, { email: `p${i}@empresa.com.br` }));
    await link(
      ctx.db,
      plain.id,
      owners.map((o) => o.id),
    );
    for (const owner of owners) await subscribe({ painelId: plain.id, usuarioId: owner.id });
    // The capacity answers 429 to a third export while two run: the stand-in counts what runs at once.
    powerBi().setConcurrentExportLimit(2, 1);
    powerBi().setExportDuration(150);
    const throttled = () => exportToCalls().filter((r) => r.status === 429).length;

    await worker({ exportConcurrency: 2 }).runOnce(NOW);
    expect(throttled()).toBe(0);
    expect(smtp.received).toHaveLength(6);

    // The same with three at once does go over: the count above is not blind.
    await ctx.db.delete(enviosAssinatura);
    await ctx.db.update(assinaturas).set({ proximoEnvio: MONDAY });
    await worker({ exportConcurrency: 3, retrySeconds: 0 }).runOnce(NOW);
    expect(throttled()).toBeGreaterThan(0);
  });

  /** The worker polling on a runner of its own, as the app's background tasks run it. */
  function polling(running: DeliveryWorker) {
    const runner = new TaskRunner({ claims: new DatabaseTaskClaims(ctx.db), log: ctx.app.log });
    running.pollOn(runner);
    runner.start();
    return runner;
  }

  it('works the queue on its runner, at once after wake(), and the runner’s stop waits for it', async () => {
    const { ana, plain } = await setup();
    const running = worker({ pollSeconds: 3600 });
    const runner = polling(running);
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id, proximoEnvio: new Date(Date.now() - 1000) });
    running.wake();
    await eventually(async () => expect((await delivery(sub.id)).estado).toBe('enviado'));
    await runner.stop();
    expect(smtp.received).toHaveLength(1);
  });

  it('skips a delivery whose subscription was paused after it was queued', async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id, ativa: false, proximoEnvio: null });
    await ctx.db.insert(enviosAssinatura).values({ assinaturaId: sub.id, ocorrencia: MONDAY, disponivelEm: MONDAY });
    await worker().runOnce(NOW);
    expect(await delivery(sub.id)).toMatchObject({ estado: 'falhou', erro: ASSINATURA_MESSAGES.pausada });
    // Its owner paused it: not a failure to show.
    expect(await subscription(sub.id)).toMatchObject({ ultimaFalha: null });
    expect(powerBi().exports).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it('stops before sending when a renewal finds the delivery taken by another instance', async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id });
    powerBi().setExportDuration(1_000);
    // A lease of 1 s is renewed every third of a second.
    const run = worker({ leaseSeconds: 1 }).runOnce(NOW);
    await eventually(async () => expect((await delivery(sub.id)).estado).toBe('executando'));
    await ctx.db.update(enviosAssinatura).set({ ocupadoPor: 'outra-instancia' });
    await run;
    expect(smtp.received).toEqual([]);
    expect(await delivery(sub.id)).toMatchObject({ estado: 'executando', ocupadoPor: 'outra-instancia' });
  });

  it('puts a delivery under way back in the queue, its attempt not counted, when the runner stops', async () => {
    const { ana, plain } = await setup();
    const sub = await subscribe({ painelId: plain.id, usuarioId: ana.id, proximoEnvio: new Date(Date.now() - 1000) });
    powerBi().setExportDuration(60_000);
    const running = worker();
    const runner = polling(running);
    running.wake();
    await eventually(async () => expect((await delivery(sub.id)).estado).toBe('executando'));
    await runner.stop();
    expect(await delivery(sub.id)).toMatchObject({ estado: 'pendente', tentativas: 0, ocupadoPor: null });
    expect(smtp.received).toEqual([]);
  });
});

describe('a delivery message', () => {
  const base = {
    envioId: 'e-1',
    base: 'https://paineis.empresa.com.br',
    recipient: { id: 'u-1', nome: 'Zé <script>alert(1)</script>', email: 'ze@empresa.com.br' },
    panel: { id: 7, nomePainel: 'Custos & "Margens" <2026>' },
    formato: 'PPTX' as const,
    schedule: {
      frequencia: 'mensal' as const,
      hora: '23:30',
      diaSemana: null,
      diaMes: 28,
      fusoHorario: 'America/Manaus',
    },
    // 28 Feb 23:30 in Manaus is already 1 March in UTC.
    ocorrencia: new Date('2026-03-01T03:30:00Z'),
    manual: false,
    visao: null,
    file: { kind: 'link' as const, arquivoId: 'a-1', expiraEm: new Date('2026-03-08T03:30:00Z') },
  };

  it('dates the subject in the subscription’s time zone and escapes every text in HTML', () => {
    const message = deliveryMessage(base);
    expect(message.subject).toBe('Custos & "Margens" <2026> — 28/02/2026');
    expect(message.to).toEqual({ address: 'ze@empresa.com.br', name: 'Zé <script>alert(1)</script>' });
    expect(message.deliveryKey).toBe('e-1/u-1');
    expect(message.attachment).toBeUndefined();
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('Olá, Zé &lt;script&gt;alert(1)&lt;/script&gt;.');
    expect(message.html).toContain('<strong>Custos &amp; &quot;Margens&quot; &lt;2026&gt;</strong>');
    expect(message.text).toContain('em PowerPoint');
    expect(message.text).toContain('todo dia 28 do mês às 23:30 (America/Manaus)');
    expect(message.text).toContain(
      'Baixe-o no portal até 07/03/2026 às 23:30: https://paineis.empresa.com.br/assinaturas/arquivos/a-1',
    );
  });

  it("says the schedule in words, and when a delivery was an 'Enviar agora'", () => {
    const at = { hora: '07:00', fusoHorario: 'America/Sao_Paulo', diaSemana: null, diaMes: null };
    expect(scheduleInWords({ ...at, frequencia: 'diaria' })).toBe('todos os dias às 07:00 (America/Sao_Paulo)');
    expect(scheduleInWords({ ...at, frequencia: 'semanal', diaSemana: 3 })).toBe(
      'toda quarta-feira às 07:00 (America/Sao_Paulo)',
    );
    expect(scheduleInWords({ ...at, frequencia: 'semanal', diaSemana: 6 })).toBe(
      'todo sábado às 07:00 (America/Sao_Paulo)',
    );
    const manual = deliveryMessage({
      ...base,
      manual: true,
      visao: 'Região Sul',
      file: { kind: 'attached', filename: 'x.pptx', contentType: 'application/x', content: Buffer.from('x') },
    });
    expect(manual.text).toContain('Este envio foi pedido em "Enviar agora"; a assinatura é enviada todo dia 28');
    expect(manual.text).toContain('(visão "Região Sul")');
    expect(manual.attachment).toEqual({ filename: 'x.pptx', contentType: 'application/x', content: Buffer.from('x') });
  });
});
