import { beforeEach, describe, expect, it } from 'vitest';
import type { Capacidade, MudancaCapacidade, PoliticaCapacidade } from '@paineis/contract/capacity';
import type { RegistroAuditoria } from '@paineis/contract/audit';
import { testConfig, useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns, TEST_CAPACITY } from '../../../test/microsoft.ts';
import { AZURE_REFUSED_ROLE } from '../../plugins/microsoft-error-answers.ts';
import { CAPACITY_MESSAGES } from './capacity.ts';
import { DEFAULT_POLICY } from './capacity-policy.ts';

/**
 * docs/decisions/024-capacity-cost.md: /capacidade through HTTP against the stand-in's Azure Resource Manager —
 * state, pause, resume, SKU, policy and history, for administrators only, audited with who and why.
 */

const capacity = TEST_CAPACITY;
const NAME = capacity.name;

const policy: PoliticaCapacidade = {
  horario: [{ diaSemana: 1, inicio: '09:00', fim: '18:00' }],
  fusoHorario: 'Europe/Lisbon',
  pausarAposMinutosOcioso: 45,
  quemRetomaAoAbrir: 'administradores',
  precoPorHora: { A1: 1.0081, A2: 2.0081 },
  skuHorario: 'A2',
  contato: 'TI, ramal 1234',
};

describe('the Power BI capacity, for administrators', () => {
  const standIns = useStandIns({
    people: [],
    capacities: [capacity],
    capacityTimings: { resumeMs: 60_000, suspendMs: 60_000, scaleMs: 60_000 },
  });
  // The state is read at most every few seconds: the test's clock moves past that before each request.
  let now = Date.now();
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, {
      POWER_BI_CAPACITY_ID: standIns.current.capacities.resourceId(NAME),
    }),
    capacity: { clock: () => now, resumeSeconds: 10, pollMs: 50 },
  }));
  beforeEach(() => {
    const arm = standIns.current.capacities;
    arm.reset();
    arm.setRole(NAME, true);
    arm.resume(NAME);
    now += 60_000;
  });

  async function people() {
    const admin = await createAdmin(ctx.db, { displayName: 'Ana Admin' });
    const bia = await createUser(ctx.db, { displayName: 'Bia' });
    return { admin: await ctx.tokenFor(admin), bia: await ctx.tokenFor(bia) };
  }
  const status = async (token: string) => {
    now += 10_000;
    const res = await ctx.request('GET', '/api/capacidade', { token });
    expect(res.statusCode).toBe(200);
    return res.json<Capacidade>();
  };
  const history = async (token: string) => {
    const res = await ctx.request('GET', '/api/capacidade/historico', { token });
    expect(res.statusCode).toBe(200);
    return res.json<MudancaCapacidade[]>();
  };
  const audit = async (token: string) => {
    const res = await ctx.request('GET', '/api/auditoria?objeto=capacidade', { token });
    expect(res.statusCode).toBe(200);
    return res.json<{ registros: RegistroAuditoria[] }>().registros;
  };

  it('answers the state, the SKU, the default policy and the month, and records the first reading', async () => {
    const { admin } = await people();
    const found = await status(admin);
    expect(found).toMatchObject({
      configurada: true,
      estado: 'ativa',
      nome: NAME,
      tipo: 'embedded',
      sku: 'A1',
      mensagem: null,
      retomadaSegundos: 10,
      politica: DEFAULT_POLICY,
    });
    expect(found.mes.mes).toMatch(/^\d{4}-\d{2}$/);
    expect(found.mes.horasPausada).toBe(0);
    expect((await history(admin)).map((c) => [c.estado, c.motivo, c.detalhe])).toEqual([
      ['ativa', 'externo', CAPACITY_MESSAGES.primeiraLeitura],
    ]);
  });

  it('pauses and resumes with who and why in the history and the audit trail, each 202', async () => {
    const { admin } = await people();
    const arm = standIns.current.capacities;
    const pause = await ctx.request('POST', '/api/capacidade/pausar', {
      token: admin,
      body: { motivo: 'Feriado' },
    });
    expect(pause.statusCode).toBe(202);
    expect(arm.state(NAME)).toBe('pausing');
    expect((await status(admin)).estado).toBe('pausando');
    expect((await ctx.request('POST', '/api/capacidade/pausar', { token: admin })).json()).toEqual({
      message: CAPACITY_MESSAGES.jaPausada,
    });

    arm.settle();
    expect((await status(admin)).estado).toBe('pausada');
    // Without a body too.
    expect((await ctx.request('POST', '/api/capacidade/retomar', { token: admin })).statusCode).toBe(202);
    expect(arm.state(NAME)).toBe('resuming');
    arm.settle();
    expect((await status(admin)).estado).toBe('ativa');

    const changes = await history(admin);
    expect(changes.map((c) => [c.estado, c.motivo, c.pessoa, c.detalhe])).toEqual([
      ['ativa', 'administrador', 'Ana Admin', null],
      ['retomando', 'administrador', 'Ana Admin', null],
      ['pausada', 'administrador', 'Ana Admin', 'Feriado'],
      ['pausando', 'administrador', 'Ana Admin', 'Feriado'],
      ['ativa', 'externo', null, CAPACITY_MESSAGES.primeiraLeitura],
    ]);
    const records = await audit(admin);
    expect(records.map((r) => [r.acao, r.objetoNome, r.mudancas])).toEqual([
      ['alteracao', NAME, [{ campo: 'estado', antes: 'pausada', depois: 'retomando' }]],
      [
        'alteracao',
        NAME,
        [
          { campo: 'estado', antes: 'ativa', depois: 'pausando' },
          { campo: 'motivo', depois: 'Feriado' },
        ],
      ],
    ]);
    expect(records[0]!.usuario).toMatch(/@empresa\.com\.br$/);
  });

  it('changes the SKU, and refuses one of the other kind, one Azure does not know, and the same one', async () => {
    const { admin } = await people();
    const put = (body: unknown) => ctx.request('PUT', '/api/capacidade/sku', { token: admin, body });
    expect((await put({ sku: 'F2' })).json()).toEqual({ message: CAPACITY_MESSAGES.skuDoTipo('embedded') });
    const unknown = await put({ sku: 'A9' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toContain(
      'SKU deve ser um nome do Azure, de A1 a A8 ou de F2 a F2048.',
    );
    const same = await put({ sku: 'A1' });
    expect([same.statusCode, same.json()]).toEqual([409, { message: CAPACITY_MESSAGES.mesmoSku('A1') }]);

    expect((await put({ sku: 'A2', motivo: 'Fechamento do mês' })).statusCode).toBe(202);
    expect(standIns.current.capacities.state(NAME)).toBe('scaling');
    standIns.current.capacities.settle();
    expect(await status(admin)).toMatchObject({ estado: 'ativa', sku: 'A2' });
    const [done, scaling] = await history(admin);
    expect(scaling).toMatchObject({ estado: 'escalando', sku: 'A2', motivo: 'administrador', pessoa: 'Ana Admin' });
    expect(done).toMatchObject({ estado: 'ativa', sku: 'A2', motivo: 'administrador' });
    const [record] = await audit(admin);
    expect(record!.mudancas).toEqual([
      { campo: 'estado', antes: 'ativa', depois: 'escalando' },
      { campo: 'sku', antes: 'A1', depois: 'A2' },
      { campo: 'motivo', depois: 'Fechamento do mês' },
    ]);
  });

  it('stores the policy, audited, and refuses a bad one in Portuguese', async () => {
    const { admin } = await people();
    const put = (body: unknown) => ctx.request('PUT', '/api/capacidade/politica', { token: admin, body });
    const saved = await put(policy);
    expect([saved.statusCode, saved.json()]).toEqual([200, policy]);
    expect((await status(admin)).politica).toEqual(policy);
    const [record] = await audit(admin);
    expect(record).toMatchObject({ acao: 'alteracao', objetoNome: 'Política' });
    expect(record!.mudancas).toContainEqual({ campo: 'pausarAposMinutosOcioso', antes: 30, depois: 45 });

    const backwards = await put({ ...policy, horario: [{ diaSemana: 1, inicio: '18:00', fim: '09:00' }] });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json<{ message: string }>().message).toContain(
      'O início de cada faixa de horário deve vir antes do fim.',
    );
    const zone = await put({ ...policy, fusoHorario: 'Lua/Cratera' });
    expect(zone.json<{ message: string }>().message).toContain('Fuso horário desconhecido');
    expect((await status(admin)).politica).toEqual(policy);
  });

  it('refuses people who are not administrators, on every route', async () => {
    const { bia } = await people();
    const routes = [
      ['GET', '/api/capacidade'],
      ['POST', '/api/capacidade/pausar'],
      ['POST', '/api/capacidade/retomar'],
      ['PUT', '/api/capacidade/sku', { sku: 'A2' }],
      ['PUT', '/api/capacidade/politica', policy],
      ['GET', '/api/capacidade/historico'],
    ] as const;
    for (const [method, url, body] of routes) {
      const res = await ctx.request(method, url, { token: bia, ...(body ? { body } : {}) });
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
    expect(standIns.current.capacities.state(NAME)).toBe('running');
  });

  it('without the Azure role: the state unknown with the missing role named, and actions refused by Azure', async () => {
    const { admin } = await people();
    standIns.current.capacities.setRole(NAME, false);
    const found = await status(admin);
    expect(found).toMatchObject({ estado: 'desconhecida', mensagem: CAPACITY_MESSAGES.semPapel('embedded') });
    expect(found.mensagem).toContain('Microsoft.PowerBIDedicated/capacities/read');
    const pause = await ctx.request('POST', '/api/capacidade/pausar', { token: admin });
    expect([pause.statusCode, pause.json()]).toEqual([502, { message: AZURE_REFUSED_ROLE }]);
    // An opening is not blocked by what the portal does not know.
    expect(await ctx.app.capacity!.forOpening({ isAdmin: false, nome: 'Bia' })).toBeNull();
  });

  it('wakes a paused capacity for an opening once, and tells everyone the time left', async () => {
    const { admin } = await people();
    const arm = standIns.current.capacities;
    arm.pause(NAME);
    // Three people open panels at once: one resume.
    const [opened, ...others] = await Promise.all(
      ['Bia', 'Caio', 'Davi'].map((nome) => ctx.app.capacity!.forOpening({ isAdmin: false, nome })),
    );
    expect(others.map((o) => o?.body.capacidade.estado)).toEqual(['retomando', 'retomando']);
    expect(opened).toEqual({
      retryAfterSeconds: 10,
      body: {
        message: 'Iniciando o Power BI… isso leva cerca de 10 segundos',
        capacidade: { estado: 'retomando', podeRetomar: true, retomadaSegundos: 10, contato: null },
      },
    });
    expect(arm.state(NAME)).toBe('resuming');
    now += 4_000;
    const again = await ctx.app.capacity!.forOpening({ isAdmin: false, nome: 'Caio' });
    expect(again?.retryAfterSeconds).toBe(6);
    expect(arm.calls.filter((c) => c.action === 'resume')).toHaveLength(1);
    arm.settle();
    now += 10_000;
    expect(await ctx.app.capacity!.forOpening({ isAdmin: false, nome: 'Caio' })).toBeNull();
    // Whichever of the three asked first (their reads of the policy race on PostgreSQL) is the one named.
    const [done, asked, paused] = (await history(admin)).slice(0, 3);
    expect([done?.estado, done?.motivo, asked?.estado, asked?.motivo]).toEqual([
      'ativa',
      'abertura',
      'retomando',
      'abertura',
    ]);
    expect(['Bia', 'Caio', 'Davi']).toContain(asked?.pessoa);
    expect(done?.pessoa).toBe(asked?.pessoa);
    expect([paused?.estado, paused?.motivo, paused?.pessoa]).toEqual(['pausada', 'externo', null]);
  });

  it('leaves it paused for someone who may not wake it, naming whom to ask', async () => {
    const { admin } = await people();
    await ctx.request('PUT', '/api/capacidade/politica', { token: admin, body: policy });
    standIns.current.capacities.pause(NAME);
    const refused = await ctx.app.capacity!.forOpening({ isAdmin: false, nome: 'Bia' });
    expect(refused).toEqual({
      retryAfterSeconds: null,
      body: {
        message: 'Os relatórios estão pausados fora do horário de uso. Para usá-los agora, fale com TI, ramal 1234.',
        capacidade: { estado: 'pausada', podeRetomar: false, retomadaSegundos: null, contato: 'TI, ramal 1234' },
      },
    });
    expect(standIns.current.capacities.state(NAME)).toBe('paused');
    // An administrator may ('administradores').
    expect((await ctx.app.capacity!.forOpening({ isAdmin: true, nome: 'Ana Admin' }))?.body.capacidade).toMatchObject({
      estado: 'retomando',
      podeRetomar: true,
    });
  });

  it('wakes it for background work and resolves once it runs', async () => {
    const { admin } = await people();
    const arm = standIns.current.capacities;
    arm.pause(NAME);
    arm.setTimings({ resumeMs: 300 });
    await ctx.app.capacity!.wakeFor('envio');
    expect(arm.state(NAME)).toBe('running');
    expect((await history(admin)).slice(0, 2).map((c) => [c.estado, c.motivo])).toEqual([
      ['ativa', 'envio'],
      ['retomando', 'envio'],
    ]);
  });
});

describe('without a capacity configured', () => {
  const ctx = useTestApp(() => ({ config: testConfig() }));

  it('answers the policy and an empty state, and 409 for every action', async () => {
    const admin = await ctx.tokenFor(await createAdmin(ctx.db));
    expect(ctx.app.capacity).toBeNull();
    const found = await ctx.request('GET', '/api/capacidade', { token: admin });
    expect(found.json<Capacidade>()).toMatchObject({
      configurada: false,
      estado: 'desconhecida',
      nome: null,
      sku: null,
      politica: DEFAULT_POLICY,
    });
    for (const [method, url, body] of [
      ['POST', '/api/capacidade/pausar', undefined],
      ['POST', '/api/capacidade/retomar', undefined],
      ['PUT', '/api/capacidade/sku', { sku: 'A2' }],
    ] as const) {
      const res = await ctx.request(method, url, { token: admin, ...(body ? { body } : {}) });
      expect([res.statusCode, res.json()]).toEqual([409, { message: CAPACITY_MESSAGES.naoConfigurada }]);
    }
    expect((await ctx.request('PUT', '/api/capacidade/politica', { token: admin, body: policy })).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/capacidade/historico', { token: admin })).json()).toEqual([]);
  });
});
