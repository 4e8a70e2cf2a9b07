import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALERTA_MESSAGES, type Alertas } from '@paineis/contract/alerts';
import type { StandInDataset, StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, panelOver, seedGroups } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.ts';
import { alertaIncidentes, auditoria } from '../../db/schema.ts';
import { createMailTransport } from '../../integrations/mail/create-mail-transport.ts';
import type { MailTransport, OutgoingMail } from '../../integrations/mail/mail-transport.ts';
import { claimNotices } from './alerts.repository.ts';
import { reconcileAlerts, type AlertDeps } from './alerts.ts';

/**
 * docs/requirements.md#alerts: a message when a dataset's refresh fails or a panel's report becomes unavailable, one
 * when it is over, never one per round; over the stand-in Power BI and a real SMTP server.
 */

const WS = '0a0a0a0a-0000-4000-8000-00000000e001';
const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const report = (n: number, name: string, dataset: number): StandInReport => ({
  workspaceId: WS,
  reportId: id('0b0b0b0b', 700 + n),
  name,
  datasetId: id('0c0c0c0c', 700 + dataset),
  rls: false,
});
const reports = {
  vendas: report(1, 'Vendas', 1),
  metas: report(2, 'Metas', 1),
  financeiro: report(3, 'Financeiro', 3),
};
const PUBLIC_URL = 'https://paineis.empresa.com.br';
const CREDENTIALS = '{"errorDescription":"As credenciais da fonte de dados SQL expiraram."}';
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

const completed = { status: 'Completed' as const, startTime: hoursAgo(3.1), endTime: hoursAgo(3) };
const failed = {
  status: 'Failed' as const,
  startTime: hoursAgo(1.1),
  endTime: hoursAgo(1),
  serviceExceptionJson: CREDENTIALS,
};
const running = { status: 'Unknown' as const, startTime: hoursAgo(0.1) };
const completedNow = { status: 'Completed' as const, startTime: hoursAgo(0.05), endTime: hoursAgo(0.01) };
const datasetsWith = (vendas: StandInDataset['refreshes']): StandInDataset[] => [
  { datasetId: reports.vendas.datasetId, refreshes: vendas },
  { datasetId: reports.financeiro.datasetId, refreshes: [completed] },
];

/** The SMTP transport to the sink, each message it hands over recorded as the portal built it. */
function recordingTransport(sink: SmtpSink, sent: OutgoingMail[]): MailTransport {
  const smtp = createMailTransport(
    { kind: 'smtp', url: sink.url, from: 'Painéis <paineis@empresa.com.br>', maxAttachmentBytes: 1_000_000 },
    { graph: null },
  )!;
  return Object.assign(Object.create(smtp) as MailTransport, {
    send: async (mail: OutgoingMail) => {
      const answer = await smtp.send(mail);
      sent.push(mail);
      return answer;
    },
  });
}

describe('alerts to the people who look after the panels', () => {
  const standIns = useStandIns({ people: [], reports: Object.values(reports), datasets: datasetsWith([completed]) });
  const sent: OutgoingMail[] = [];
  let sink: SmtpSink;
  let transport: MailTransport;
  beforeAll(async () => {
    sink = await startSmtpSink();
    transport = recordingTransport(sink, sent);
  });
  afterAll(async () => {
    await transport?.close();
    await sink?.close();
  });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, { PUBLIC_URL }),
    mail: transport,
    powerBiOptions: { sleep: async () => undefined },
  }));
  beforeEach(() => {
    sent.length = 0;
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports(Object.values(reports));
    standIns.current.powerBi.setDatasets(datasetsWith([completed]));
  });

  async function organisation() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br', displayName: 'Admin Alertas' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br', displayName: 'Bia Dados' });
    const caio = await createUser(ctx.db, { email: 'caio@empresa.com.br', displayName: 'Caio Dados' });
    const inativo = await createUser(ctx.db, { email: 'inativo@empresa.com.br', active: false });
    await seedGroups(ctx.database, [{ id: 'g-dados', nome: 'Time de Dados', people: [bia.id, caio.id, inativo.id] }]);
    const panels = {
      vendas: await panelOver(ctx.db, reports.vendas, { nomePainel: 'Vendas' }),
      metas: await panelOver(ctx.db, reports.metas, { nomePainel: 'Metas' }),
      financeiro: await panelOver(ctx.db, reports.financeiro, { nomePainel: 'Financeiro' }),
    };
    const token = await ctx.tokenFor(admin);
    return { admin, bia, caio, panels, token, user: await ctx.tokenFor(bia) };
  }

  const put = (token: string, body: unknown) => ctx.request('PUT', '/api/alertas', { token, body });
  async function turnOn(token: string, usuarios: string[], grupos: string[] = [], eventos?: string[]) {
    const res = await put(token, {
      eventos: eventos ?? ['falha-atualizacao', 'painel-indisponivel'],
      destinatarios: { usuarios, grupos },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Alertas>();
  }
  const subjects = () => sent.map((m) => `${m.to.address}: ${m.subject}`).sort();
  const deps = (extra: Partial<AlertDeps> = {}): AlertDeps => ({
    db: ctx.db,
    mail: transport,
    config: ctx.config,
    log: ctx.app.log,
    ...extra,
  });
  const alertAudits = async () =>
    (await ctx.db.select().from(auditoria).where(eq(auditoria.objeto, 'alerta'))).sort((a, b) => a.id - b.id);

  it('lets administrators alone choose the events and recipients, with clear refusals, and audits each change', async () => {
    const { admin, bia, token, user } = await organisation();
    expect((await ctx.request('GET', '/api/alertas', { token: user })).statusCode).toBe(403);
    expect((await put(user, { eventos: [], destinatarios: {} })).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/alertas', { token })).json()).toEqual({
      eventos: [],
      destinatarios: { usuarios: [], grupos: [] },
      abertos: [],
      encerrados: [],
    });

    const unknown = await put(token, { eventos: ['falha-atualizacao'], destinatarios: { usuarios: ['ninguem'] } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: ALERTA_MESSAGES.destinatarioDesconhecido });
    const nobody = await put(token, { eventos: ['falha-atualizacao'], destinatarios: { usuarios: [], grupos: [] } });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json<{ message: string }>().message).toContain(ALERTA_MESSAGES.semDestinatarios);
    const badEvent = await put(token, { eventos: ['sempre'], destinatarios: { usuarios: [admin.id] } });
    expect(badEvent.statusCode).toBe(400);
    expect(badEvent.json<{ message: string }>().message).toContain('falha-atualizacao, painel-indisponivel');
    for (const body of [null, { eventos: 'x' }, { eventos: [], destinatarios: { usuarios: 'x' } }]) {
      const res = await put(token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/\S/);
    }
    // Nothing on: nobody needed.
    expect((await put(token, { eventos: [], destinatarios: { usuarios: [] } })).statusCode).toBe(200);

    const saved = await turnOn(token, [bia.id, admin.id], ['g-dados'], ['falha-atualizacao', 'falha-atualizacao']);
    expect(saved).toMatchObject({
      eventos: ['falha-atualizacao'],
      destinatarios: {
        usuarios: [
          { id: admin.id, displayName: 'Admin Alertas', email: 'admin@empresa.com.br' },
          { id: bia.id, displayName: 'Bia Dados', email: 'bia@empresa.com.br' },
        ],
        grupos: [{ id: 'g-dados', displayName: 'Time de Dados' }],
      },
    });
    expect((await ctx.request('GET', '/api/alertas', { token })).json()).toEqual(saved);
    const change = (await alertAudits()).at(-1);
    expect(change).toMatchObject({ acao: 'alteracao', usuario: 'admin@empresa.com.br', objetoNome: 'Alertas' });
    expect(change!.mudancas).toEqual(
      expect.arrayContaining([
        { campo: 'eventos.falha-atualizacao', depois: true },
        { campo: `usuarios.${bia.id}`, depois: 'bia@empresa.com.br' },
        { campo: 'grupos.g-dados', depois: 'Time de Dados' },
      ]),
    );
  });

  it('tells a failed refresh once, with Power BI’s message and the panels, and once that it works again', async () => {
    const { admin, panels, token } = await organisation();
    await turnOn(token, [admin.id], ['g-dados']);
    await ctx.app.freshness!.run();
    expect(sent).toEqual([]);

    standIns.current.powerBi.setDatasets(datasetsWith([failed, completed]));
    await ctx.app.freshness!.run();
    expect(subjects()).toEqual([
      'admin@empresa.com.br: Falha na atualização dos dados: Vendas, Metas',
      'bia@empresa.com.br: Falha na atualização dos dados: Vendas, Metas',
      'caio@empresa.com.br: Falha na atualização dos dados: Vendas, Metas',
    ]);
    const [first] = sent;
    expect(first!.html).toContain('As credenciais da fonte de dados SQL expiraram.');
    expect(first!.html).toContain(`href="${PUBLIC_URL}/visualizar/${panels.vendas.id}"`);
    expect(first!.html).toContain(`href="${PUBLIC_URL}/visualizar/${panels.metas.id}"`);
    expect(sink.messages).toHaveLength(3);

    // Every round while it lasts, and a refresh running after the failure: nothing more.
    sent.length = 0;
    await ctx.app.freshness!.run();
    standIns.current.powerBi.setDatasets(datasetsWith([running, failed, completed]));
    await ctx.app.freshness!.run();
    expect(sent).toEqual([]);
    const open = (await ctx.request('GET', '/api/alertas', { token })).json<Alertas>();
    expect(open.abertos).toEqual([
      expect.objectContaining({
        evento: 'falha-atualizacao',
        titulo: 'Vendas, Metas',
        mensagem: 'As credenciais da fonte de dados SQL expiraram.',
        fechadoEm: null,
        avisoAberturaEm: expect.any(String),
        avisoFechamentoEm: null,
      }),
    ]);

    standIns.current.powerBi.setDatasets(datasetsWith([completedNow, failed, completed]));
    await ctx.app.freshness!.run();
    await ctx.app.freshness!.run();
    expect(subjects()).toEqual([
      'admin@empresa.com.br: Atualização voltou a funcionar: Vendas, Metas',
      'bia@empresa.com.br: Atualização voltou a funcionar: Vendas, Metas',
      'caio@empresa.com.br: Atualização voltou a funcionar: Vendas, Metas',
    ]);
    const closed = (await ctx.request('GET', '/api/alertas', { token })).json<Alertas>();
    expect(closed.abertos).toEqual([]);
    expect(closed.encerrados).toEqual([
      expect.objectContaining({ fechadoEm: expect.any(String), avisoFechamentoEm: expect.any(String) }),
    ]);

    // Each notice in the audit, with whom it went to.
    const sends = (await alertAudits()).filter((a) => a.acao === 'envio');
    expect(sends.map((a) => a.objetoNome)).toEqual([
      'Falha na atualização dos dados: Vendas, Metas',
      'Atualização voltou a funcionar: Vendas, Metas',
    ]);
    expect(sends[0]!.mudancas).toEqual(
      expect.arrayContaining([
        { campo: 'aviso', depois: 'abertura' },
        { campo: 'enviadoPara', depois: ['admin@empresa.com.br', 'bia@empresa.com.br', 'caio@empresa.com.br'] },
        { campo: 'mensagem', depois: 'As credenciais da fonte de dados SQL expiraram.' },
      ]),
    );
  });

  it('tells a panel whose report is gone, once, and once it is back; a panel deleted meanwhile closes silently', async () => {
    const { admin, panels, token } = await organisation();
    await turnOn(token, [admin.id]);
    standIns.current.powerBi.setReports([reports.metas, reports.financeiro]);
    await ctx.app.panelHealth!.run();
    await ctx.app.panelHealth!.run();
    expect(subjects()).toEqual(['admin@empresa.com.br: Painel indisponível: Vendas']);
    expect(sent[0]!.html).toContain('O Power BI não encontrou o relatório');

    sent.length = 0;
    standIns.current.powerBi.setReports(Object.values(reports));
    await ctx.app.panelHealth!.run();
    await ctx.app.panelHealth!.run();
    expect(subjects()).toEqual(['admin@empresa.com.br: Painel disponível novamente: Vendas']);

    sent.length = 0;
    standIns.current.powerBi.setReports([reports.vendas, reports.metas]);
    await ctx.app.panelHealth!.run();
    expect(subjects()).toEqual(['admin@empresa.com.br: Painel indisponível: Financeiro']);
    sent.length = 0;
    expect((await ctx.request('DELETE', `/api/paineis/${panels.financeiro.id}`, { token })).statusCode).toBe(204);
    await ctx.app.panelHealth!.run();
    expect(sent).toEqual([]);
    const after = (await ctx.request('GET', '/api/alertas', { token })).json<Alertas>();
    expect(after.abertos).toEqual([]);
    expect(after.encerrados[0]).toMatchObject({ titulo: 'Financeiro', avisoFechamentoEm: null });
  });

  it('tracks an incident while its event is off, and never tells it later', async () => {
    const { admin, token } = await organisation();
    await turnOn(token, [admin.id], [], ['painel-indisponivel']);
    standIns.current.powerBi.setDatasets(datasetsWith([failed]));
    await ctx.app.freshness!.run();
    expect(sent).toEqual([]);
    expect((await ctx.request('GET', '/api/alertas', { token })).json<Alertas>().abertos).toEqual([
      expect.objectContaining({ evento: 'falha-atualizacao', avisoAberturaEm: null }),
    ]);
    // On now: the failure that began while it was off is not told, nor its end.
    await turnOn(token, [admin.id]);
    await ctx.app.freshness!.run();
    standIns.current.powerBi.setDatasets(datasetsWith([completedNow, failed]));
    await ctx.app.freshness!.run();
    expect(sent).toEqual([]);
  });

  it('keeps a notice without a mail transport, and sends it at the next reconcile that has one', async () => {
    const { admin, token } = await organisation();
    await turnOn(token, [admin.id]);
    standIns.current.powerBi.setDatasets(datasetsWith([failed]));
    await ctx.app.freshness!.run();
    sent.length = 0;
    await ctx.db.update(alertaIncidentes).set({ avisoAbertura: 'pendente', avisoAberturaEm: null });
    await reconcileAlerts(deps({ mail: null }), 'falha-atualizacao');
    expect(sent).toEqual([]);
    // It ended meanwhile: both notices go, in order.
    standIns.current.powerBi.setDatasets(datasetsWith([completedNow, failed]));
    await ctx.app.freshness!.run();
    expect(sent.map((m) => m.subject)).toEqual([
      'Falha na atualização dos dados: Vendas, Metas',
      'Atualização voltou a funcionar: Vendas, Metas',
    ]);
  });

  it('leaves a notice claimed by a reconciler that died to its lease, then sends it once (injected clock)', async () => {
    const { admin, token } = await organisation();
    await turnOn(token, [admin.id]);
    const t0 = new Date();
    const at = (minutes: number) => () => new Date(t0.getTime() + minutes * 60_000);
    standIns.current.powerBi.setReports([reports.metas, reports.financeiro]);
    await ctx.app.panelHealth!.run();
    sent.length = 0;
    // Sent again from scratch, as if the first reconciler had died right after claiming it.
    await ctx.db.update(alertaIncidentes).set({ avisoAbertura: 'pendente', ocupadoPor: null, ocupadoAte: null });
    const claimed = await claimNotices(ctx.db, {
      evento: 'painel-indisponivel',
      now: t0,
      leaseUntil: new Date(t0.getTime() + 5 * 60_000),
      instance: 'morta',
    });
    expect(claimed).toHaveLength(1);
    await reconcileAlerts(deps({ now: at(1), instanceId: 'viva' }), 'painel-indisponivel');
    expect(sent).toEqual([]);
    await reconcileAlerts(deps({ now: at(6), instanceId: 'viva' }), 'painel-indisponivel');
    await reconcileAlerts(deps({ now: at(12), instanceId: 'outra' }), 'painel-indisponivel');
    expect(subjects()).toEqual(['admin@empresa.com.br: Painel indisponível: Vendas']);
  });

  it('sends each message once when two reconcilers run at the same moment', async () => {
    const { admin, token } = await organisation();
    await turnOn(token, [admin.id], ['g-dados']);
    standIns.current.powerBi.setDatasets(datasetsWith([failed]));
    // The rounds stored, the alerts left to the two reconcilers.
    await ctx.app.freshness!.run();
    standIns.current.powerBi.setReports([reports.financeiro]);
    await ctx.app.panelHealth!.run();
    await ctx.db.delete(alertaIncidentes);
    sent.length = 0;
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        ['a', 'b'].flatMap((instanceId) =>
          (['falha-atualizacao', 'painel-indisponivel'] as const).map((evento) =>
            reconcileAlerts(deps({ instanceId }), evento),
          ),
        ),
      );
    }
    const counts = new Map<string, number>();
    for (const m of sent) counts.set(m.deliveryKey, (counts.get(m.deliveryKey) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(subjects()).toEqual(
      ['admin', 'bia', 'caio'].flatMap((who) => [
        `${who}@empresa.com.br: Falha na atualização dos dados: Vendas, Metas`,
        `${who}@empresa.com.br: Painel indisponível: Metas`,
        `${who}@empresa.com.br: Painel indisponível: Vendas`,
      ]),
    );
    expect(await ctx.db.select().from(alertaIncidentes)).toHaveLength(3);
  });
});
