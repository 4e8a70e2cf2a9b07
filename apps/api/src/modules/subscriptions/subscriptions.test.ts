import { sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  ASSINATURA_MESSAGES,
  FALHAS_ENVIO,
  limiteEnviarAgora,
  MAX_ASSINATURAS_POR_PESSOA,
  type Assinatura,
  type EnvioSolicitado,
} from '@paineis/contract/subscriptions';
import { useTestApp, type TestContext } from '../../../test/context.ts';
import { createAdmin, createUser, link, panel, seedGroups } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';
import type { MailTransport } from '../../integrations/mail/mail-transport.ts';
import { purgeSendNowCounts } from './subscriptions.ts';

const PANEL_NOT_FOUND = { message: 'Painel não encontrado.' };
const NOT_FOUND = { message: ASSINATURA_MESSAGES.naoEncontrada };
const ADMIN_ONLY = { message: 'Acesso restrito a administradores.' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DAY_MS = 86_400_000;

/**
 * A transport the worker would send through. The worker is not started in these tests (its deliveries are
 * deliveries.test.ts's), so nothing is ever sent: 'Enviar agora' only needs a transport to be configured.
 */
const NEVER_SENDS: MailTransport = {
  kind: 'smtp',
  maxAttachmentBytes: 10 * 1024 * 1024,
  limits: null,
  requestBytes: () => 0,
  maxRequestBytes: null,
  send: () => Promise.reject(new Error('nenhum envio nestes testes')),
  close: async () => undefined,
};

const count = async (ctx: TestContext, table: string) =>
  (await rows<{ n: number }>(ctx.db, sql`select count(*)::int as n from ${sql.raw(table)}`))[0]!.n;

/** Everyone and everything the tests share: Ana and Bia may open Vendas, Caio may not; Metas has export off. */
async function people(ctx: TestContext) {
  const ana = await createUser(ctx.db, { displayName: 'Ana Souza', email: 'ana@empresa.com.br' });
  const bia = await createUser(ctx.db, { displayName: 'Bia Lima', email: 'bia@empresa.com.br' });
  const caio = await createUser(ctx.db, { displayName: 'Caio Reis', email: 'caio@empresa.com.br' });
  const admin = await createAdmin(ctx.db, { displayName: 'Admin Teste', email: 'admin@empresa.com.br' });
  const vendas = await panel(ctx.db, { nomePainel: 'Vendas' });
  const metas = await panel(ctx.db, { nomePainel: 'Metas', permiteExportacao: false });
  await link(ctx.db, vendas.id, [ana.id, bia.id]);
  await link(ctx.db, metas.id, [ana.id]);
  return {
    ana,
    bia,
    caio,
    admin,
    vendas,
    metas,
    tokens: {
      ana: await ctx.tokenFor(ana),
      bia: await ctx.tokenFor(bia),
      caio: await ctx.tokenFor(caio),
      admin: await ctx.tokenFor(admin),
    },
  };
}

const subscribe = (ctx: TestContext, token: string, body: Record<string, unknown>) =>
  ctx.request('POST', '/api/assinaturas', { token, body });
const mine = async (ctx: TestContext, token: string) =>
  (await ctx.request('GET', '/api/assinaturas', { token })).json<{ assinaturas: Assinatura[] }>().assinaturas;
const created = async (ctx: TestContext, token: string, body: Record<string, unknown>) => {
  const res = await subscribe(ctx, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Assinatura>();
};
const patch = (ctx: TestContext, token: string, id: string, body: Record<string, unknown>) =>
  ctx.request('PATCH', `/api/assinaturas/${id}`, { token, body });
const sendNow = (ctx: TestContext, token: string, id: string) =>
  ctx.request('POST', `/api/assinaturas/${id}/enviar-agora`, { token });

/** A daily 08:00 PDF of Vendas, the subscription most tests need; `extra` adds to it or overrides it. */
const dailyVendas = (s: { vendas: { id: number } }, extra: Record<string, unknown> = {}) => ({
  painelId: s.vendas.id,
  formato: 'PDF',
  frequencia: 'diaria',
  hora: '08:00',
  ...extra,
});

/** The next delivery read in the subscription's own zone. */
const local = (s: Assinatura) => DateTime.fromISO(s.proximoEnvio!, { zone: s.fusoHorario });

describe('subscriptions (docs/requirements.md#subscriptions)', () => {
  const ctx = useTestApp({ mail: NEVER_SENDS });

  it('creates each kind of schedule in two time zones, the next delivery at the local hour strictly ahead', async () => {
    const s = await people(ctx);
    const schedules = [
      { frequencia: 'diaria', limit: 1 },
      { frequencia: 'semanal', diaSemana: 1, limit: 7 },
      { frequencia: 'mensal', diaMes: 28, limit: 31 },
    ] as const;
    for (const fusoHorario of ['America/Sao_Paulo', 'Asia/Tokyo']) {
      for (const { limit, ...schedule } of schedules) {
        const before = Date.now();
        const sub = await created(ctx, s.tokens.ana, {
          painelId: s.vendas.id,
          formato: 'PDF',
          hora: '07:30',
          fusoHorario,
          ...schedule,
        });
        expect(sub).toMatchObject({ fusoHorario, frequencia: schedule.frequencia, situacao: 'ativa', ativa: true });
        // 07:30 where the subscriber is, whatever the server's zone: São Paulo is UTC-3, Tokyo UTC+9.
        const at = local(sub);
        expect(at.toFormat('HH:mm')).toBe('07:30');
        expect(DateTime.fromISO(sub.proximoEnvio!).toUTC().toFormat('HH:mm')).toBe(
          fusoHorario === 'Asia/Tokyo' ? '22:30' : '10:30',
        );
        if (schedule.frequencia === 'semanal') expect(at.weekday).toBe(1);
        if (schedule.frequencia === 'mensal') expect(at.day).toBe(28);
        expect(at.toMillis()).toBeGreaterThan(before);
        expect(at.toMillis()).toBeLessThanOrEqual(Date.now() + limit * DAY_MS);
      }
    }

    // Without fusoHorario, the portal's own zone (USAGE_TIME_ZONE).
    const byDefault = await created(ctx, s.tokens.ana, {
      painelId: s.vendas.id,
      formato: 'PPTX',
      frequencia: 'diaria',
      hora: '18:00',
      pagina: 'ReportSection2',
    });
    expect(byDefault).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      painelId: s.vendas.id,
      nomePainel: 'Vendas',
      formato: 'PPTX',
      frequencia: 'diaria',
      hora: '18:00',
      diaSemana: null,
      diaMes: null,
      intervaloHoras: null,
      fusoHorario: ctx.config.usage.timeZone,
      pagina: 'ReportSection2',
      visaoId: null,
      nomeVisao: null,
      ativa: true,
      situacao: 'ativa',
      motivoSituacao: null,
      proximoEnvio: expect.stringMatching(ISO),
      ultimoEnvio: null,
      ultimaFalha: null,
      dono: { id: s.ana.id, displayName: 'Ana Souza', email: 'ana@empresa.com.br' },
      destinatarios: null,
      criadaEm: expect.stringMatching(ISO),
    });
    expect(local(byDefault).toFormat('HH:mm')).toBe('18:00');

    // Her own, newest first; nobody else's.
    const list = await mine(ctx, s.tokens.ana);
    expect(list).toHaveLength(7);
    expect(list[0]).toEqual(byDefault);
    expect(await mine(ctx, s.tokens.bia)).toEqual([]);
  });

  it('exports one of the person’s own saved views of the panel, and no one else’s', async () => {
    const s = await people(ctx);
    const view = async (token: string, painelId: number) =>
      (
        await ctx.request('POST', `/api/paineis/${painelId}/visoes`, { token, body: { nome: 'Sul', estado: 'e' } })
      ).json<{ id: string }>().id;
    const own = await view(s.tokens.ana, s.vendas.id);
    const biasView = await view(s.tokens.bia, s.vendas.id);
    const otherPanel = await view(s.tokens.ana, s.metas.id);
    const base = { painelId: s.vendas.id, formato: 'PDF', frequencia: 'diaria', hora: '08:00' };

    for (const visaoId of [biasView, otherPanel, crypto.randomUUID()]) {
      const refused = await subscribe(ctx, s.tokens.ana, { ...base, visaoId });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ message: ASSINATURA_MESSAGES.visaoNaoEncontrada });
    }
    expect(await count(ctx, 'assinaturas')).toBe(0);
    const sub = await created(ctx, s.tokens.ana, { ...base, visaoId: own });
    expect(sub).toMatchObject({ visaoId: own, nomeVisao: 'Sul', pagina: null });
  });

  it('exports a view of the panel (Visão do painel) an administrator saved, which the person sees', async () => {
    const s = await people(ctx);
    const panelView = async (painelId: number) =>
      (
        await ctx.request('POST', `/api/paineis/${painelId}/visoes`, {
          token: s.tokens.admin,
          body: { nome: 'Visão da diretoria', estado: 'e', doPainel: true },
        })
      ).json<{ id: string }>().id;
    const ofVendas = await panelView(s.vendas.id);
    const ofMetas = await panelView(s.metas.id);
    const base = { painelId: s.vendas.id, formato: 'PDF', frequencia: 'diaria', hora: '08:00' };
    // Another panel's view is none of this one's.
    const refused = await subscribe(ctx, s.tokens.ana, { ...base, visaoId: ofMetas });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: ASSINATURA_MESSAGES.visaoNaoEncontrada });
    const sub = await created(ctx, s.tokens.ana, { ...base, visaoId: ofVendas });
    expect(sub).toMatchObject({ visaoId: ofVendas, nomeVisao: 'Visão da diretoria' });
  });

  it('refuses bad input, a panel the person may not open, export off and recipients from a user; creates nothing', async () => {
    const s = await people(ctx);
    const base = { painelId: s.vendas.id, formato: 'PDF', frequencia: 'diaria', hora: '08:00' };
    for (const [body, message] of [
      [{ ...base, frequencia: 'semanal' }, 'Uma assinatura semanal precisa do dia da semana (diaSemana).'],
      [{ ...base, frequencia: 'mensal' }, 'Uma assinatura mensal precisa do dia do mês (diaMes).'],
      [{ ...base, frequencia: 'mensal', diaMes: 29 }, 'O dia do mês (diaMes) deve ser um número de 1 a 28.'],
      [{ ...base, diaSemana: 2 }, 'O dia da semana (diaSemana) só vale para assinaturas semanais.'],
      [
        { ...base, frequencia: 'semanal', diaSemana: 8 },
        'O dia da semana (diaSemana) deve ser um número de 1 (segunda-feira) a 7 (domingo).',
      ],
      [{ ...base, hora: '24:00' }, 'A hora (hora) deve estar no formato HH:MM, de 00:00 a 23:59.'],
      [{ ...base, hora: '7:30' }, 'A hora (hora) deve estar no formato HH:MM, de 00:00 a 23:59.'],
      [
        { ...base, fusoHorario: 'Marte/Olympus' },
        'O fuso horário (fusoHorario) deve ser um fuso IANA, como America/Sao_Paulo.',
      ],
      [{ ...base, formato: 'XLSX' }, 'O formato (formato) deve ser PDF ou PPTX.'],
      [
        { ...base, frequencia: 'anual' },
        "A frequência (frequencia) deve ser 'diaria', 'semanal', 'mensal' ou 'apos-atualizacao'.",
      ],
      [{ ...base, pagina: 'P1', visaoId: crypto.randomUUID() }, ASSINATURA_MESSAGES.paginaEVisao],
      [{ ...base, visaoId: 'nao-e-uuid' }, 'O id da visão (visaoId) deve ser um UUID.'],
    ] as const) {
      const res = await subscribe(ctx, s.tokens.ana, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ message });
    }

    const hidden = await subscribe(ctx, s.tokens.caio, base);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual(PANEL_NOT_FOUND);
    const missing = await subscribe(ctx, s.tokens.admin, { ...base, painelId: 9999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(PANEL_NOT_FOUND);

    const exportOff = await subscribe(ctx, s.tokens.ana, { ...base, painelId: s.metas.id });
    expect(exportOff.statusCode).toBe(403);
    expect(exportOff.json()).toEqual({ message: ASSINATURA_MESSAGES.exportacaoDesativada });

    const forOthers = await subscribe(ctx, s.tokens.ana, { ...base, destinatarios: { usuarios: [s.bia.id] } });
    expect(forOthers.statusCode).toBe(403);
    expect(forOthers.json()).toEqual({ message: ASSINATURA_MESSAGES.somenteAdministradores });

    expect(await count(ctx, 'assinaturas')).toBe(0);
    expect(await count(ctx, "auditoria where objeto = 'assinatura'")).toBe(0);
  });

  it(`keeps at most ${MAX_ASSINATURAS_POR_PESSOA} subscriptions per person, even when asked all at once`, async () => {
    const s = await people(ctx);
    await ctx.db.execute(sql`
      insert into assinaturas (painel_id, usuario_id, formato, frequencia, hora, fuso_horario)
      select ${s.vendas.id}, ${s.ana.id}, 'PDF', 'diaria', '08:00', 'America/Sao_Paulo'
      from generate_series(1, ${MAX_ASSINATURAS_POR_PESSOA - 2})`);
    const body = { painelId: s.vendas.id, formato: 'PDF', frequencia: 'diaria', hora: '09:00' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => subscribe(ctx, s.tokens.ana, body)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.statusCode !== 201).map((a) => [a.statusCode, a.json()])).toEqual(
      Array.from({ length: 3 }, () => [409, { message: ASSINATURA_MESSAGES.limite }]),
    );
    expect(await count(ctx, 'assinaturas')).toBe(MAX_ASSINATURAS_POR_PESSOA);
    // The limit is per owner.
    expect((await subscribe(ctx, s.tokens.bia, body)).statusCode).toBe(201);
  });

  it('answers 404 for someone else’s subscription to a user; only /todas lists it, to administrators', async () => {
    const s = await people(ctx);
    const anas = await created(ctx, s.tokens.ana, dailyVendas(s));
    const url = `/api/assinaturas/${anas.id}`;
    for (const [method, path, body] of [
      ['PATCH', url, { ativa: false }],
      ['DELETE', url, undefined],
      ['POST', `${url}/enviar-agora`, undefined],
    ] as const) {
      const res = await ctx.request(method, path, { token: s.tokens.bia, body });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    expect(await mine(ctx, s.tokens.bia)).toEqual([]);
    expect(await mine(ctx, s.tokens.admin)).toEqual([]);
    const unknown = await ctx.request('DELETE', `/api/assinaturas/${crypto.randomUUID()}`, { token: s.tokens.admin });
    expect(unknown.json()).toEqual(NOT_FOUND);
    const badId = await ctx.request('PATCH', '/api/assinaturas/nao-e-uuid', { token: s.tokens.ana, body: {} });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toEqual({ message: 'O id da assinatura deve ser um UUID.' });

    // Unchanged, and nothing queued.
    expect(await mine(ctx, s.tokens.ana)).toEqual([anas]);
    expect(await count(ctx, 'envios_assinatura')).toBe(0);

    const all = await ctx.request('GET', '/api/assinaturas/todas', { token: s.tokens.admin });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({ assinaturas: [anas] });
    const refused = await ctx.request('GET', '/api/assinaturas/todas', { token: s.tokens.ana });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(ADMIN_ONLY);

    expect((await ctx.request('DELETE', url, { token: s.tokens.ana })).statusCode).toBe(204);
    expect(await count(ctx, 'assinaturas')).toBe(0);
  });

  it('lets every administrator pause, resume and delete anyone’s subscription, audited with its owner, but not change or send it', async () => {
    const s = await people(ctx);
    const other = await createAdmin(ctx.db, { displayName: 'Outra Admin', email: 'outra@empresa.com.br' });
    const otherToken = await ctx.tokenFor(other);
    const anas = await created(ctx, s.tokens.ana, dailyVendas(s));
    const admins = await created(
      ctx,
      s.tokens.admin,
      dailyVendas(s, { destinatarios: { usuarios: [s.ana.id, s.bia.id] } }),
    );
    const url = (id: string) => `/api/assinaturas/${id}`;

    for (const sub of [anas, admins]) {
      const paused = await patch(ctx, otherToken, sub.id, { ativa: false });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json()).toMatchObject({ ativa: false, situacao: 'pausada', proximoEnvio: null, dono: sub.dono });
      const resumed = await patch(ctx, otherToken, sub.id, { ativa: true });
      expect(resumed.json()).toMatchObject({ ativa: true, situacao: 'ativa' });
      // The contents stay the owner's.
      for (const body of [
        { hora: '09:00' },
        { ativa: false, formato: 'PPTX' },
        { destinatarios: { usuarios: [other.id] } },
      ]) {
        const res = await patch(ctx, otherToken, sub.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(403);
        expect(res.json()).toEqual({ message: ASSINATURA_MESSAGES.somenteDonoAltera });
      }
      const send = await sendNow(ctx, otherToken, sub.id);
      expect(send.statusCode).toBe(403);
      expect(send.json()).toEqual({ message: ASSINATURA_MESSAGES.somenteDonoEnvia });
    }
    expect(await count(ctx, 'envios_assinatura')).toBe(0);
    expect((await mine(ctx, s.tokens.ana))[0]).toMatchObject({ hora: '08:00', formato: 'PDF', ativa: true });

    expect((await ctx.request('DELETE', url(anas.id), { token: otherToken })).statusCode).toBe(204);
    expect(await mine(ctx, s.tokens.ana)).toEqual([]);

    const records = await rows<{
      usuario_id: string;
      acao: string;
      mudancas: { campo: string; antes?: unknown; depois?: unknown }[];
    }>(
      ctx.db,
      sql`select usuario_id, acao, mudancas from auditoria where objeto = 'assinatura' and objeto_id = ${anas.id} and acao <> 'criacao' order by id`,
    );
    expect(records.map((r) => [r.usuario_id, r.acao])).toEqual([
      [other.id, 'alteracao'],
      [other.id, 'alteracao'],
      [other.id, 'exclusao'],
    ]);
    expect(records[0]!.mudancas).toEqual(
      expect.arrayContaining([
        { campo: 'dono', depois: 'ana@empresa.com.br' },
        { campo: 'ativa', antes: true, depois: false },
      ]),
    );
    expect(records[2]!.mudancas).toEqual(expect.arrayContaining([{ campo: 'dono', antes: 'ana@empresa.com.br' }]));
  });

  it('stops a subscription for others once its owner is no longer an administrator, and refuses their "Enviar agora"', async () => {
    const s = await people(ctx);
    const sub = await created(ctx, s.tokens.admin, dailyVendas(s, { destinatarios: { usuarios: [s.ana.id] } }));
    await ctx.db.execute(sql`update usuarios set role = 'User', role_source = null where id = ${s.admin.id}`);
    const other = await createAdmin(ctx.db, { email: 'outra@empresa.com.br' });
    const all = (await ctx.request('GET', '/api/assinaturas/todas', { token: await ctx.tokenFor(other) })).json<{
      assinaturas: Assinatura[];
    }>().assinaturas;
    expect(all).toEqual([
      expect.objectContaining({
        id: sub.id,
        situacao: 'sem-acesso',
        motivoSituacao: ASSINATURA_MESSAGES.donoNaoAdministrador,
      }),
    ]);
    // The same session, now a user's: the subscription is theirs, but sending it for others is no longer theirs to do.
    const demoted = await sendNow(ctx, s.tokens.admin, sub.id);
    expect(demoted.statusCode).toBe(403);
    expect(demoted.json()).toEqual({ message: ASSINATURA_MESSAGES.somenteAdministradores });
    expect(await count(ctx, 'envios_assinatura')).toBe(0);
    // Their own: they may still pause and delete it.
    expect((await patch(ctx, s.tokens.admin, sub.id, { ativa: false })).statusCode).toBe(200);
    expect((await ctx.request('DELETE', `/api/assinaturas/${sub.id}`, { token: s.tokens.admin })).statusCode).toBe(204);
  });

  it('allows each person SUBSCRIPTION_SEND_NOW_PER_HOUR "Enviar agora" an hour, then 429 with Retry-After', async () => {
    const s = await people(ctx);
    const subs = [];
    for (let i = 0; i < 11; i++) subs.push(await created(ctx, s.tokens.ana, dailyVendas(s, { hora: `0${i % 10}:00` })));
    for (const sub of subs.slice(0, 10)) expect((await sendNow(ctx, s.tokens.ana, sub.id)).statusCode).toBe(202);
    const over = await sendNow(ctx, s.tokens.ana, subs[10]!.id);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(over.json()).toEqual({ message: limiteEnviarAgora(10, 60) });
    expect(await count(ctx, 'envios_assinatura')).toBe(10);
    // Deleting a subscription does not give the allowance back.
    await ctx.request('DELETE', `/api/assinaturas/${subs[0]!.id}`, { token: s.tokens.ana });
    expect((await sendNow(ctx, s.tokens.ana, subs[10]!.id)).statusCode).toBe(429);
    // Another person has their own.
    const bias = await created(ctx, s.tokens.bia, dailyVendas(s));
    expect((await sendNow(ctx, s.tokens.bia, bias.id)).statusCode).toBe(202);
    // Once the oldest leaves the window, one more may be asked.
    await ctx.db.execute(sql`update pedidos_envio set em = em - interval '1 hour' where usuario_id = ${s.ana.id}
      and id = (select min(id) from pedidos_envio where usuario_id = ${s.ana.id})`);
    expect((await sendNow(ctx, s.tokens.ana, subs[10]!.id)).statusCode).toBe(202);
    // The hourly purge drops what left the window.
    await purgeSendNowCounts(ctx.db, ctx.config);
    expect(await count(ctx, 'pedidos_envio')).toBe(11);
  });

  it('pauses, resumes and edits: the next delivery is cleared, then computed again from the new schedule', async () => {
    const s = await people(ctx);
    const sub = await created(ctx, s.tokens.ana, {
      painelId: s.vendas.id,
      formato: 'PDF',
      frequencia: 'semanal',
      diaSemana: 3,
      hora: '08:00',
      fusoHorario: 'America/Sao_Paulo',
    });
    const edit = (body: Record<string, unknown>) => patch(ctx, s.tokens.ana, sub.id, body);

    const paused = await edit({ ativa: false });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ ativa: false, situacao: 'pausada', proximoEnvio: null });
    const resumed = (await edit({ ativa: true })).json<Assinatura>();
    expect(resumed).toMatchObject({ ativa: true, situacao: 'ativa', proximoEnvio: sub.proximoEnvio });

    // A new kind comes with its day; the old kind's day goes.
    const monthly = (await edit({ frequencia: 'mensal', diaMes: 5, hora: '06:15' })).json<Assinatura>();
    expect(monthly).toMatchObject({ frequencia: 'mensal', diaMes: 5, diaSemana: null, hora: '06:15' });
    expect([local(monthly).day, local(monthly).toFormat('HH:mm')]).toEqual([5, '06:15']);

    for (const [body, message] of [
      [{ frequencia: 'semanal' }, 'Uma assinatura semanal precisa do dia da semana (diaSemana).'],
      [{ diaSemana: 2 }, 'O dia da semana (diaSemana) só vale para assinaturas semanais.'],
      [{ diaMes: null }, 'Uma assinatura mensal precisa do dia do mês (diaMes).'],
      [{ hora: '25:00' }, 'A hora (hora) deve estar no formato HH:MM, de 00:00 a 23:59.'],
      [{ destinatarios: { usuarios: [s.bia.id] } }, ASSINATURA_MESSAGES.somenteAdministradores],
    ] as const) {
      const res = await edit(body);
      expect(res.statusCode, JSON.stringify(body)).toBe('destinatarios' in body ? 403 : 400);
      expect(res.json()).toEqual({ message });
    }
    expect((await mine(ctx, s.tokens.ana))[0]).toEqual(monthly);

    const daily = (await edit({ frequencia: 'diaria', fusoHorario: 'Asia/Tokyo' })).json<Assinatura>();
    expect(daily).toMatchObject({ frequencia: 'diaria', diaMes: null, diaSemana: null, fusoHorario: 'Asia/Tokyo' });
    expect(local(daily).toFormat('HH:mm')).toBe('06:15');
    expect(Date.parse(daily.proximoEnvio!) - Date.now()).toBeLessThanOrEqual(DAY_MS);

    // A page replaces the saved view, and a view the page; the format changes alone.
    const paged = (await edit({ pagina: 'ReportSection3', formato: 'PPTX' })).json<Assinatura>();
    expect(paged).toMatchObject({ pagina: 'ReportSection3', formato: 'PPTX', proximoEnvio: daily.proximoEnvio });

    // Paused, a change of schedule keeps it paused.
    await edit({ ativa: false });
    expect((await edit({ hora: '10:00' })).json()).toMatchObject({ hora: '10:00', proximoEnvio: null });
  });

  it('shows "sem-acesso" when the owner lost the panel, is outside its RLS roles or is inactive', async () => {
    const s = await people(ctx);
    const body = dailyVendas(s);
    const anas = await created(ctx, s.tokens.ana, body);
    const bias = await created(ctx, s.tokens.bia, body);

    await link(ctx.db, s.vendas.id, [s.bia.id]);
    const [lost] = await mine(ctx, s.tokens.ana);
    expect(lost).toMatchObject({
      id: anas.id,
      situacao: 'sem-acesso',
      motivoSituacao: ASSINATURA_MESSAGES.semAcesso,
      ativa: true,
    });
    const refused = await sendNow(ctx, s.tokens.ana, anas.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: ASSINATURA_MESSAGES.semAcesso });
    // She may still pause, edit and delete it.
    expect((await patch(ctx, s.tokens.ana, anas.id, { ativa: false })).json()).toMatchObject({ situacao: 'pausada' });

    // On an RLS panel, a person no role lists could not open it.
    await ctx.db.execute(sql`update paineis set usa_rls = true where id = ${s.vendas.id}`);
    const roles = (userEmails: string[]) =>
      ctx.request('POST', `/api/paineis/${s.vendas.id}/rls`, {
        token: s.tokens.admin,
        body: [{ roleName: 'Sul', userEmails }],
      });
    expect((await roles(['outra@empresa.com.br'])).statusCode).toBe(200);
    expect((await mine(ctx, s.tokens.bia))[0]).toMatchObject({ id: bias.id, situacao: 'sem-acesso' });
    await roles(['bia@empresa.com.br']);
    expect((await mine(ctx, s.tokens.bia))[0]).toMatchObject({ id: bias.id, situacao: 'ativa' });

    // An inactive owner cannot sign in: the administrators read it in /todas.
    await ctx.db.execute(sql`update usuarios set active = false where id = ${s.bia.id}`);
    const all = (await ctx.request('GET', '/api/assinaturas/todas', { token: s.tokens.admin })).json<{
      assinaturas: Assinatura[];
    }>().assinaturas;
    expect(all.map((a) => [a.dono.displayName, a.situacao, a.motivoSituacao])).toEqual([
      ['Bia Lima', 'sem-acesso', ASSINATURA_MESSAGES.donoInativo],
      ['Ana Souza', 'pausada', null],
    ]);
  });

  it('lets an administrator name people and groups; the owner receives it only when named', async () => {
    const s = await people(ctx);
    await seedGroups(ctx.database, [
      { id: 'g-vendas', nome: 'Equipe de Vendas', people: [s.caio.id], groups: ['g-norte'] },
      { id: 'g-norte', nome: 'Região Norte', people: [] },
    ]);
    const body = {
      painelId: s.vendas.id,
      formato: 'PDF',
      frequencia: 'semanal',
      diaSemana: 5,
      hora: '17:00',
      destinatarios: { usuarios: [s.caio.id, s.bia.id, s.bia.id], grupos: ['g-norte', 'g-vendas'] },
    };
    for (const destinatarios of [{ usuarios: [s.bia.id, 'ninguem'] }, { grupos: ['g-vendas', 'g-inexistente'] }]) {
      const unknown = await subscribe(ctx, s.tokens.admin, { ...body, destinatarios });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ message: ASSINATURA_MESSAGES.destinatarioDesconhecido });
    }
    const none = await subscribe(ctx, s.tokens.admin, { ...body, destinatarios: { usuarios: [], grupos: [] } });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({
      message: 'Escolha ao menos uma pessoa ou um grupo para receber a assinatura (destinatarios).',
    });
    expect(await count(ctx, 'assinaturas')).toBe(0);
    expect(await count(ctx, 'assinatura_usuarios')).toBe(0);

    const sub = await created(ctx, s.tokens.admin, body);
    expect(sub).toMatchObject({
      dono: { id: s.admin.id, displayName: 'Admin Teste', email: 'admin@empresa.com.br' },
      situacao: 'ativa',
      destinatarios: {
        usuarios: [
          { id: s.bia.id, displayName: 'Bia Lima', email: 'bia@empresa.com.br' },
          { id: s.caio.id, displayName: 'Caio Reis', email: 'caio@empresa.com.br' },
        ],
        grupos: [
          { id: 'g-vendas', displayName: 'Equipe de Vendas' },
          { id: 'g-norte', displayName: 'Região Norte' },
        ],
      },
    });
    const stored = await rows<{ com_destinatarios: boolean }>(
      ctx.db,
      sql`select com_destinatarios from assinaturas where id = ${sub.id}`,
    );
    expect(stored).toEqual([{ com_destinatarios: true }]);

    // Bia alone may open Vendas: once she is gone, nobody it names may, Caio (in a group) included.
    await link(ctx.db, s.vendas.id, [s.ana.id]);
    const [lost] = await mine(ctx, s.tokens.admin);
    expect(lost!.situacao).toBe('sem-acesso');
    const refused = await sendNow(ctx, s.tokens.admin, sub.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: FALHAS_ENVIO.semDestinatarios });
    // The panel linked to a group Caio is in: someone it names may open it again.
    await ctx.request('POST', `/api/paineis/${s.vendas.id}/grupos`, { token: s.tokens.admin, body: ['g-vendas'] });
    expect((await mine(ctx, s.tokens.admin))[0]!.situacao).toBe('ativa');

    // Recipients are replaced by an administrator's PATCH, and may make a personal subscription an administrator's.
    const replaced = await patch(ctx, s.tokens.admin, sub.id, { destinatarios: { usuarios: [s.ana.id] } });
    expect(replaced.json<Assinatura>().destinatarios).toEqual({
      usuarios: [{ id: s.ana.id, displayName: 'Ana Souza', email: 'ana@empresa.com.br' }],
      grupos: [],
    });
    const personal = await created(ctx, s.tokens.admin, { ...body, destinatarios: undefined });
    expect(personal.destinatarios).toBeNull();
    const turned = await patch(ctx, s.tokens.admin, personal.id, { destinatarios: { grupos: ['g-norte'] } });
    expect(turned.json<Assinatura>().destinatarios).toEqual({
      usuarios: [],
      grupos: [{ id: 'g-norte', displayName: 'Região Norte' }],
    });
    // Nobody is in Região Norte.
    expect(turned.json<Assinatura>().situacao).toBe('sem-acesso');
  });

  it('queues "Enviar agora" once at a time, and refuses it while paused or with export off', async () => {
    const s = await people(ctx);
    const sub = await created(ctx, s.tokens.ana, dailyVendas(s));
    const askNow = () => sendNow(ctx, s.tokens.ana, sub.id);

    const before = Date.now();
    const asked = await askNow();
    expect(asked.statusCode).toBe(202);
    const envio = asked.json<EnvioSolicitado>();
    expect(envio).toEqual({
      envioId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      estado: 'pendente',
      message: ASSINATURA_MESSAGES.envioSolicitado,
    });
    const [queued] = await rows<{ manual: boolean; estado: string; ocorrencia: Date; disponivel_em: Date }>(
      ctx.db,
      sql`select manual, estado, ocorrencia, disponivel_em from envios_assinatura where id = ${envio.envioId}`,
    );
    expect(queued).toMatchObject({ manual: true, estado: 'pendente' });
    expect(new Date(queued!.ocorrencia).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(queued!.disponivel_em).getTime()).toBe(new Date(queued!.ocorrencia).getTime());

    const again = await askNow();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: ASSINATURA_MESSAGES.envioEmAndamento });
    await ctx.db.execute(sql`update envios_assinatura set estado = 'executando' where id = ${envio.envioId}`);
    expect((await askNow()).statusCode).toBe(409);
    // Once it ended, another may be asked; two at once queue one.
    await ctx.db.execute(sql`update envios_assinatura set estado = 'enviado' where id = ${envio.envioId}`);
    const both = await Promise.all([askNow(), askNow()]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    expect(await count(ctx, 'envios_assinatura')).toBe(2);

    await ctx.db.execute(sql`delete from envios_assinatura`);
    await patch(ctx, s.tokens.ana, sub.id, { ativa: false });
    const paused = await askNow();
    expect(paused.statusCode).toBe(409);
    expect(paused.json()).toEqual({ message: ASSINATURA_MESSAGES.pausada });

    await patch(ctx, s.tokens.ana, sub.id, { ativa: true });
    await ctx.db.execute(sql`update paineis set permite_exportacao = false where id = ${s.vendas.id}`);
    const exportOff = await askNow();
    expect(exportOff.statusCode).toBe(403);
    expect(exportOff.json()).toEqual({ message: ASSINATURA_MESSAGES.exportacaoDesativada });
    expect(await count(ctx, 'envios_assinatura')).toBe(0);
  });

  it('records subscriptions created, changed, removed and each "Enviar agora" in the audit trail', async () => {
    const s = await people(ctx);
    const sub = await created(
      ctx,
      s.tokens.admin,
      dailyVendas(s, { fusoHorario: 'America/Sao_Paulo', destinatarios: { usuarios: [s.bia.id] } }),
    );
    await patch(ctx, s.tokens.admin, sub.id, { hora: '09:00', destinatarios: { usuarios: [s.ana.id] } });
    // A change that changes nothing is not recorded.
    await patch(ctx, s.tokens.admin, sub.id, { hora: '09:00' });
    const envio = (await sendNow(ctx, s.tokens.admin, sub.id)).json<EnvioSolicitado>();
    await ctx.request('DELETE', `/api/assinaturas/${sub.id}`, { token: s.tokens.admin });

    const records = await rows<{
      usuario_id: string;
      objeto: string;
      objeto_id: string;
      objeto_nome: string;
      acao: string;
      mudancas: { campo: string; antes?: unknown; depois?: unknown }[];
    }>(
      ctx.db,
      sql`select usuario_id, objeto, objeto_id, objeto_nome, acao, mudancas from auditoria where objeto = 'assinatura' order by id`,
    );
    expect(records.map((r) => [r.usuario_id, r.objeto_id, r.objeto_nome, r.acao])).toEqual([
      [s.admin.id, sub.id, 'Vendas', 'criacao'],
      [s.admin.id, sub.id, 'Vendas', 'alteracao'],
      [s.admin.id, sub.id, 'Vendas', 'envio_solicitado'],
      [s.admin.id, sub.id, 'Vendas', 'exclusao'],
    ]);
    expect(records[0]!.mudancas).toEqual(
      expect.arrayContaining([
        { campo: 'formato', depois: 'PDF' },
        { campo: 'hora', depois: '08:00' },
        { campo: 'destinatarios', depois: { usuarios: { [s.bia.id]: 'Bia Lima' }, grupos: {} } },
      ]),
    );
    expect(records[1]!.mudancas).toEqual(
      expect.arrayContaining([
        { campo: 'hora', antes: '08:00', depois: '09:00' },
        { campo: 'destinatarios.usuarios.' + s.bia.id, antes: 'Bia Lima' },
        { campo: 'destinatarios.usuarios.' + s.ana.id, depois: 'Ana Souza' },
      ]),
    );
    expect(records[1]!.mudancas).toHaveLength(3);
    expect(records[2]!.mudancas).toEqual([{ campo: 'envio', depois: envio.envioId }]);
    expect(records[3]!.mudancas).toEqual(expect.arrayContaining([{ campo: 'hora', antes: '09:00' }]));
  });

  it('serves a file too large to attach to its recipient alone, until it expires or she loses the panel', async () => {
    const s = await people(ctx);
    const sub = await created(ctx, s.tokens.ana, dailyVendas(s));
    /** A delivery of hers that stored a file (Vendas has no RLS: rendered with no identity, ''). */
    const file = async (usuarioId: string, expiraEm: string) => {
      const [envio] = await rows<{ id: string }>(
        ctx.db,
        sql`insert into envios_assinatura (assinatura_id, ocorrencia, estado)
            values (${sub.id}, now() - ${expiraEm}::interval, 'enviado') returning id`,
      );
      const [stored] = await rows<{ id: string }>(
        ctx.db,
        sql`insert into arquivos_assinatura (envio_id, identidade, nome, tipo, conteudo, tamanho, expira_em)
            values (${envio!.id}, '', 'Vendas — Região.pdf', 'application/pdf',
                    ${Buffer.from('%PDF-1.7 conteúdo')}, 18, now() + ${expiraEm}::interval)
            returning id`,
      );
      await ctx.db.execute(
        sql`insert into arquivo_destinatarios (arquivo_id, usuario_id) values (${stored!.id}, ${usuarioId})`,
      );
      return stored!.id;
    };
    const fresh = await file(s.ana.id, '7 days');
    const expired = await file(s.ana.id, '-1 minute');

    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/assinaturas/arquivos/${fresh}`,
      headers: { authorization: `Bearer ${s.tokens.ana}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.toString()).toBe('%PDF-1.7 conteúdo');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Vendas _ Regiao.pdf"; filename*=UTF-8''Vendas%20%E2%80%94%20Regi%C3%A3o.pdf`,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');

    for (const [token, id] of [
      [s.tokens.bia, fresh],
      [s.tokens.admin, fresh],
      [s.tokens.ana, expired],
      [s.tokens.ana, crypto.randomUUID()],
    ] as const) {
      const refused = await ctx.request('GET', `/api/assinaturas/arquivos/${id}`, { token });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ message: ASSINATURA_MESSAGES.arquivoNaoEncontrado });
    }
    const download = () => ctx.request('GET', `/api/assinaturas/arquivos/${fresh}`, { token: s.tokens.ana });
    // Judged at download time: rendered with another identity than hers now (her RLS roles changed), refused.
    await ctx.db.execute(sql`update arquivos_assinatura set identidade = 'ana@empresa.com.br|Sul' where id = ${fresh}`);
    expect((await download()).statusCode).toBe(404);
    await ctx.db.execute(sql`update arquivos_assinatura set identidade = '' where id = ${fresh}`);
    expect((await download()).statusCode).toBe(200);
    // Export switched off for the panel since it was sent.
    await ctx.db.execute(sql`update paineis set permite_exportacao = false where id = ${s.vendas.id}`);
    const exportOff = await download();
    expect(exportOff.statusCode).toBe(403);
    expect(exportOff.json()).toEqual({ message: ASSINATURA_MESSAGES.exportacaoDesativada });
    await ctx.db.execute(sql`update paineis set permite_exportacao = true where id = ${s.vendas.id}`);
    // Rendered for someone who may open the panel: once she may not, nor may she download it.
    await link(ctx.db, s.vendas.id, [s.bia.id]);
    const lost = await ctx.request('GET', `/api/assinaturas/arquivos/${fresh}`, { token: s.tokens.ana });
    expect(lost.statusCode).toBe(404);
    expect(lost.json()).toEqual({ message: ASSINATURA_MESSAGES.arquivoNaoEncontrado });
  });
});

describe('subscriptions without a mail transport', () => {
  const ctx = useTestApp({ mail: null });

  it('creates them, and answers "Enviar agora" with 503 queuing nothing', async () => {
    const s = await people(ctx);
    const sub = await created(ctx, s.tokens.ana, dailyVendas(s));
    const res = await sendNow(ctx, s.tokens.ana, sub.id);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: ASSINATURA_MESSAGES.semTransporte });
    expect(await count(ctx, 'envios_assinatura')).toBe(0);
  });
});
