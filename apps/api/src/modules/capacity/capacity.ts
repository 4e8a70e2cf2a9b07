import type { FastifyBaseLogger } from 'fastify';
import { DateTime } from 'luxon';
import {
  politicaCapacidade,
  SKU_PATTERN,
  TEXTOS_CAPACIDADE,
  type Capacidade,
  type CapacidadeIndisponivel,
  type EstadoCapacidade,
  type MotivoCapacidade,
  type MudancaCapacidade,
  type PoliticaCapacidade,
  type TipoCapacidade,
} from '@paineis/contract/capacity';
import type { Db } from '../../db/client.ts';
import type { CapacityClient, CapacityStatus } from '../../integrations/azure/capacity-client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { conflict, invalid, unavailable } from '../../lib/domain-failure.ts';
import type { AuditActor } from '../audit/audit.ts';
import { monthHours, monthStart } from './capacity-hours.ts';
import { DEFAULT_POLICY, workingStretch } from './capacity-policy.ts';
import {
  capacityRow,
  changesFrom,
  lastChange,
  latestChanges,
  recordChange,
  saveReading,
  savePolicy,
  saveSkuBase,
  touchActivity,
  type CapacityChange,
} from './capacity.repository.ts';

/*
 * The Power BI capacity (docs/decisions/024-capacity-cost.md): its state read from Azure Resource Manager, the
 * administrators' actions, the rule that wakes it for working hours and pauses it when idle outside them, and the
 * answer to an opening while it is paused.
 */

/** The Azure client, as this module uses it. */
export type CapacityApi = Pick<CapacityClient, 'get' | 'suspend' | 'resume' | 'setSku'>;

/** A scheduled refresh of a dataset some panel reads (the power-bi module reads them from Power BI's schedules). */
export interface RefreshWindow {
  at: Date;
  /** The names of the panels that read the dataset. */
  paineis: string[];
}

/** Who asked, as the audit trail keeps them and the history names them. */
export interface CapacityActor {
  actor: AuditActor;
  nome: string;
}

export interface CapacityOptions {
  /** The configured capacity's name and kind, for answers while Azure cannot be read. */
  resource?: { name: string; kind: TipoCapacidade } | null;
  /** About how long a resume takes until one has been seen (default 60; the demo's stand-in takes 10). */
  resumeSeconds?: number;
  /** About how long a change of SKU takes (Microsoft: "about a minute"). */
  scaleSeconds?: number;
  /** How often wakeFor asks Azure while the capacity resumes (default 5 s). */
  pollMs?: number;
  /** How long wakeFor waits for a resume at most (default 15 minutes). */
  wakeTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The panels' datasets' scheduled refreshes between two times, in order (none when not given). */
  scheduledRefreshes?: (from: Date, to: Date) => Promise<RefreshWindow[]>;
}

/** Messages people read. */
export const CAPACITY_MESSAGES = {
  naoConfigurada: 'Nenhuma capacidade do Power BI está configurada neste servidor (POWER_BI_CAPACITY_ID).',
  jaPausada: 'A capacidade já está pausada.',
  jaAtiva: 'A capacidade já está ativa.',
  mudando: 'A capacidade está mudando de estado. Tente novamente em instantes.',
  mesmoSku: (sku: string) => `A capacidade já está no SKU ${sku}.`,
  skuDoTipo: (tipo: TipoCapacidade) =>
    tipo === 'embedded'
      ? 'Esta capacidade é do Power BI Embedded: use um SKU de A1 a A8.'
      : 'Esta capacidade é do Microsoft Fabric: use um SKU de F2 a F2048.',
  naoVoltou: 'A capacidade do Power BI não voltou a funcionar a tempo.',
  pausadaSemPermissao: (contato: string | null) =>
    `${TEXTOS_CAPACIDADE.pausada} Para usá-los agora, fale com ${contato ?? 'um administrador do portal'}.`,
  semPapel: (tipo: TipoCapacidade) =>
    `O Azure recusou o acesso do portal à capacidade (AuthorizationFailed): dê à entidade de serviço do portal uma ` +
    `função do Azure no recurso com ${PROVIDERS[tipo]}/capacities/read, /write, /suspend/action e /resume/action.`,
  recusada: (status: number | undefined, code: string | undefined) =>
    `O Azure recusou a consulta da capacidade (${[status, code].filter(Boolean).join(' ')}). ` +
    'Verifique POWER_BI_CAPACITY_ID.',
  semResposta: 'O Azure não respondeu à consulta da capacidade. Tente novamente em instantes.',
  primeiraLeitura: 'Estado encontrado na primeira leitura do Azure.',
  ociosa: (minutos: number) => `Sem uso há ${minutos} minutos, fora do horário.`,
  atualizacaoAgendada: (hora: string, paineis: string[]) =>
    `Atualização agendada às ${hora}` +
    (paineis.length === 0
      ? '.'
      : ` dos dados de ${paineis
          .slice(0, 3)
          .map((p) => `"${p}"`)
          .join(', ')}${paineis.length > 3 ? ` e mais ${paineis.length - 3}` : ''}.`),
} as const;

const PROVIDERS: Record<TipoCapacidade, string> = {
  embedded: 'Microsoft.PowerBIDedicated',
  fabric: 'Microsoft.Fabric',
};

/** Azure's state (properties.state, else provisioningState) in the portal's words. */
export function portalState(status: Pick<CapacityStatus, 'state' | 'provisioningState'> | null): EstadoCapacidade {
  const of = (azure: string | null | undefined): EstadoCapacidade => {
    switch (azure?.toLowerCase()) {
      case 'succeeded':
      case 'active':
        return 'ativa';
      case 'paused':
      case 'suspended':
        return 'pausada';
      case 'pausing':
      case 'suspending':
        return 'pausando';
      case 'resuming':
      case 'preparing':
      case 'provisioning':
        return 'retomando';
      case 'scaling':
      case 'updating':
        return 'escalando';
      case 'failed':
        return 'falhou';
      default:
        return 'desconhecida';
    }
  };
  if (!status) return 'desconhecida';
  const state = of(status.state);
  // A Fabric capacity being scaled stays Active while its provisioningState is Updating.
  const provisioning = of(status.provisioningState);
  return state === 'ativa' && provisioning === 'escalando' ? 'escalando' : state;
}

/** What was last read of the capacity, and when (the clock's ms). */
interface Reading {
  estado: EstadoCapacidade;
  sku: string | null;
  nome: string | null;
  tipo: TipoCapacidade | null;
  mensagem: string | null;
  at: number;
}

/** An opening reads the state at most this old: a running capacity costs an opening no call to Azure. */
const CACHE_MS = 5_000;
/** The last activity is written at most this often per instance: openings are a hot path. */
const ACTIVITY_WRITE_MS = 60_000;
/** An unchanged reading is written at most this often. */
const READING_WRITE_MS = 60_000;
const HISTORY_LIMIT = 500;
/**
 * A scheduled refresh wakes a paused capacity this long before its time: Power BI does not run a scheduled refresh
 * while the capacity is paused, a resume takes a minute or two (the policy's resume time), the rule runs once a minute,
 * and a tick missed (another instance's claim, a slow Azure) still leaves time.
 */
const REFRESH_LEAD_MS = 10 * 60_000;
/**
 * A scheduled refresh counts as activity until this long after its time, so the idle rule's minutes run from then:
 * Power BI starts a scheduled refresh within minutes of its slot, and a panel's import model refreshes in minutes; a
 * pause under way would cancel it.
 */
const REFRESH_ACTIVE_MS = 15 * 60_000;

/** The move Azure makes by itself to end an operation the portal started: it keeps that operation's reason. */
const completes = (from: EstadoCapacidade, to: EstadoCapacidade) =>
  (from === 'retomando' && to === 'ativa') ||
  (from === 'pausando' && to === 'pausada') ||
  (from === 'escalando' && to === 'ativa');

/**
 * Whether the capacity serves reports, as far as the portal knows: running, failed (Power BI then answers for itself)
 * or unknown (never blocked on ignorance).
 */
const serves = (estado: EstadoCapacidade) => estado === 'ativa' || estado === 'desconhecida' || estado === 'falhou';

const sameState = (a: { estado: string; sku: string | null }, b: { estado: string; sku: string | null }) =>
  a.estado === b.estado && (a.estado === 'escalando' || a.sku === b.sku);

export class CapacityControl {
  private reading: Reading | null = null;
  private refreshing: Promise<Reading> | null = null;
  private resuming: Promise<void> | null = null;
  /** When this instance saw the current resume or scale begin, and how long it was expected to take. */
  private transition: { estado: EstadoCapacidade; since: number; seconds: number } | null = null;
  private lastActivity = 0;
  private activityWrittenAt = Number.NEGATIVE_INFINITY;
  private activityWrite: Promise<void> = Promise.resolve();
  private readingWritten: { estado: string; sku: string | null; mensagem: string | null; at: number } | null = null;
  private resumeSeconds: number;
  private readonly scaleSeconds: number;
  private readonly pollMs: number;
  private readonly wakeTimeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly resource: { name: string; kind: TipoCapacidade } | null;
  private readonly scheduledRefreshes: (from: Date, to: Date) => Promise<RefreshWindow[]>;

  constructor(
    private readonly db: Db,
    private readonly client: CapacityApi | null,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number = Date.now,
    options: CapacityOptions = {},
  ) {
    this.resource = options.resource ?? null;
    this.resumeSeconds = options.resumeSeconds ?? 60;
    this.scaleSeconds = options.scaleSeconds ?? 60;
    this.pollMs = options.pollMs ?? 5_000;
    this.wakeTimeoutMs = options.wakeTimeoutMs ?? 15 * 60_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.scheduledRefreshes = options.scheduledRefreshes ?? (async () => []);
  }

  get configured(): boolean {
    return this.client !== null;
  }

  /** The policy stored, or the default one before an administrator saves one. */
  async policy(): Promise<PoliticaCapacidade> {
    return policyOf((await capacityRow(this.db))?.politica);
  }

  /** GET /capacidade: the state (a few seconds old at most), the policy and the month's hours and cost. */
  async status(): Promise<Capacidade> {
    const politica = await this.policy();
    const reading = this.client ? await this.read(CACHE_MS) : null;
    const now = this.clock();
    const changes = await changesFrom(this.db, monthStart(new Date(now), politica.fusoHorario).toJSDate());
    return {
      configurada: this.client !== null,
      estado: reading?.estado ?? 'desconhecida',
      nome: reading?.nome ?? null,
      tipo: reading?.tipo ?? null,
      sku: reading?.sku ?? null,
      mensagem: reading?.mensagem ?? null,
      lidoEm: reading ? new Date(reading.at).toISOString() : null,
      retomadaSegundos: this.resumeSeconds,
      politica,
      mes: monthHours({
        changes,
        now: new Date(now),
        fusoHorario: politica.fusoHorario,
        precoPorHora: politica.precoPorHora,
        skuAtual: reading?.sku ?? null,
      }),
    };
  }

  /** GET /capacidade/historico: newest first. */
  async history(): Promise<MudancaCapacidade[]> {
    return (await latestChanges(this.db, HISTORY_LIMIT)).map((c) => ({ ...c, em: c.em.toISOString() }));
  }

  async setPolicy(who: CapacityActor, politica: PoliticaCapacidade): Promise<PoliticaCapacidade> {
    const antes = await this.policy();
    await savePolicy(this.db, politica, {
      actor: who.actor,
      change: { objeto: 'capacidade', acao: 'alteracao', objetoNome: 'Política', antes, depois: politica },
    });
    return politica;
  }

  async pause(who: CapacityActor, motivo: string | null): Promise<void> {
    const client = this.required();
    const before = await this.read(0);
    if (before.estado === 'pausada' || before.estado === 'pausando') throw conflict(CAPACITY_MESSAGES.jaPausada);
    if (before.estado === 'retomando' || before.estado === 'escalando') throw conflict(CAPACITY_MESSAGES.mudando);
    const operation = await client.suspend();
    await this.changed(before, operation.accepted ? 'pausando' : 'pausada', before.sku, 'administrador', who, motivo);
  }

  async resume(who: CapacityActor, motivo: string | null): Promise<void> {
    this.required();
    const before = await this.read(0);
    if (before.estado === 'ativa') throw conflict(CAPACITY_MESSAGES.jaAtiva);
    if (before.estado !== 'pausada' && before.estado !== 'desconhecida') throw conflict(CAPACITY_MESSAGES.mudando);
    await this.startResume('administrador', who, motivo);
  }

  async setSku(who: CapacityActor, sku: string, motivo: string | null): Promise<void> {
    const client = this.required();
    const before = await this.read(0);
    const tipo = before.tipo ?? this.resource?.kind ?? null;
    if (tipo && !SKU_PATTERN.test(sku)) throw invalid(CAPACITY_MESSAGES.skuDoTipo(tipo));
    if (tipo && sku[0] !== (tipo === 'embedded' ? 'A' : 'F')) throw invalid(CAPACITY_MESSAGES.skuDoTipo(tipo));
    if (before.sku === sku) throw conflict(CAPACITY_MESSAGES.mesmoSku(sku));
    if (before.estado !== 'ativa' && before.estado !== 'pausada' && before.estado !== 'desconhecida') {
      throw conflict(CAPACITY_MESSAGES.mudando);
    }
    const operation = await client.setSku(sku);
    // An administrator's SKU outside working hours is the one to come back to.
    if (!workingStretch(await this.policy(), new Date(this.clock()))) await saveSkuBase(this.db, null);
    const estado = operation.accepted ? 'escalando' : before.estado;
    await this.changed(before, estado, sku, 'administrador', who, motivo);
  }

  /** An opening, export or delivery needed the capacity: the idle rule counts from the last one. */
  noteActivity(): void {
    const now = this.clock();
    this.lastActivity = Math.max(this.lastActivity, now);
    if (now - this.activityWrittenAt < ACTIVITY_WRITE_MS) return;
    this.activityWrittenAt = now;
    this.activityWrite = touchActivity(this.db, new Date(now)).catch((error: unknown) => {
      this.log.warn({ err: error }, 'capacidade: última atividade não gravada');
    });
  }

  /** The last activity's write under way (tests wait for it). */
  activityWritten(): Promise<void> {
    return this.activityWrite;
  }

  /**
   * Whether reports can be served: true without a capacity configured, and while its state is unknown (the portal
   * never treats what it does not know as paused).
   */
  async isRunning(): Promise<boolean> {
    if (!this.client) return true;
    return serves((await this.read(CACHE_MS)).estado);
  }

  /**
   * Whether reports are served, from memory alone, for the opening's hot path: true without a capacity, or while the
   * last reading says so (one older than CACHE_MS is read again in the background, so an opening never waits for
   * Azure while the capacity runs); undefined when there is no reading yet or it does not serve: forOpening answers.
   */
  servesNow(): boolean | undefined {
    if (!this.client) return true;
    const cached = this.reading;
    if (!cached || !serves(cached.estado)) return undefined;
    if (this.clock() - cached.at >= CACHE_MS) {
      this.read(CACHE_MS).catch((error: unknown) => {
        this.log.warn({ err: error }, 'capacidade: estado não lido');
      });
    }
    this.noteActivity();
    return true;
  }

  /**
   * Before a panel opens: null when the capacity serves it (running, none configured, its state unknown); else the
   * 503's body, and after how long to try again (null when this person may not wake it). A paused capacity is woken
   * once by whoever may, and every opening meanwhile is told the time left.
   */
  async forOpening(
    requester: {
      isAdmin: boolean;
      nome: string;
    },
    /** Read Azure now (Power BI has just refused a report: the reading in memory may predate a pause). */
    fresh = false,
  ): Promise<null | { retryAfterSeconds: number | null; body: CapacidadeIndisponivel }> {
    if (!this.client) return null;
    const reading = await this.read(fresh ? 0 : CACHE_MS);
    if (serves(reading.estado)) {
      this.noteActivity();
      return null;
    }
    const politica = await this.policy();
    const contato = politica.contato ?? null;
    const mayWake =
      politica.quemRetomaAoAbrir === 'todos' || (politica.quemRetomaAoAbrir === 'administradores' && requester.isAdmin);
    if ((reading.estado === 'pausada' || reading.estado === 'pausando') && !mayWake) {
      return {
        retryAfterSeconds: null,
        body: {
          message: CAPACITY_MESSAGES.pausadaSemPermissao(contato),
          capacidade: { estado: reading.estado, podeRetomar: false, retomadaSegundos: null, contato },
        },
      };
    }
    // As memory has it now, not as read above: an opening that read 'pausada' while another's resume was being asked
    // (and has since been asked) must not ask again.
    if ((this.reading?.estado ?? reading.estado) === 'pausada') {
      await this.startResume('abertura', { actor: null, nome: requester.nome }, null);
    }
    const estado = this.reading?.estado ?? reading.estado;
    this.noteActivity();
    if (serves(estado)) return null;
    // A capacity still pausing is woken by an opening once paused (Azure refuses a resume meanwhile).
    const seconds = estado === 'pausando' ? this.resumeSeconds : this.secondsLeft(estado);
    return {
      retryAfterSeconds: seconds,
      body: {
        message: TEXTOS_CAPACIDADE.iniciando(seconds),
        capacidade: { estado, podeRetomar: true, retomadaSegundos: seconds, contato },
      },
    };
  }

  /**
   * Background work that needs the capacity (a delivery, an export, a refresh window): resumes it when paused, and
   * resolves once it runs. A capacity whose state cannot be read is not waited for.
   */
  async wakeFor(motivo: Extract<MotivoCapacidade, 'envio' | 'exportacao' | 'atualizacao'>): Promise<void> {
    if (!this.client) return;
    this.noteActivity();
    const deadline = this.clock() + this.wakeTimeoutMs;
    for (;;) {
      const reading = await this.read(0);
      if (serves(reading.estado)) break;
      if (reading.estado === 'pausada') await this.startResume(motivo, null, null);
      if (this.clock() >= deadline) throw unavailable(CAPACITY_MESSAGES.naoVoltou);
      await this.sleep(this.pollMs);
    }
    this.noteActivity();
  }

  /**
   * The rule, once a minute on one instance: records a change made outside the portal; inside working hours wakes a
   * paused capacity and scales it to the policy's `skuHorario`, unless an administrator paused or scaled it within
   * these hours (their choice holds until the next stretch); outside them scales it back to its own SKU, and pauses
   * it after the policy's idle minutes. Inside working hours it is never paused for idleness: people expect the
   * reports to open at once then, and a resume costs them its wait. At any hour, a paused capacity is woken
   * REFRESH_LEAD_MS before a scheduled refresh of a panel's dataset, as a delivery wakes it (an administrator's pause
   * included: work that needs the capacity wakes it), and each refresh counts as activity from then until
   * REFRESH_ACTIVE_MS after its time.
   */
  async tick(): Promise<void> {
    if (!this.client) return;
    const reading = await this.read(0);
    if (reading.estado === 'desconhecida' || reading.estado === 'falhou') return;
    const row = await capacityRow(this.db);
    const politica = policyOf(row?.politica);
    const now = this.clock();
    const stretch = workingStretch(politica, new Date(now));
    const last = await lastChange(this.db);
    const idleMs = (politica.pausarAposMinutosOcioso ?? 0) * 60_000;
    const refreshes = await this.scheduledRefreshes(
      new Date(now - REFRESH_ACTIVE_MS - idleMs),
      new Date(now + REFRESH_LEAD_MS),
    );
    const due = refreshes.find((r) => r.at.getTime() >= now);
    if (due && reading.estado === 'pausada') {
      const hora = DateTime.fromJSDate(due.at, { zone: politica.fusoHorario }).toFormat('HH:mm');
      return this.startResume('atualizacao', null, CAPACITY_MESSAGES.atualizacaoAgendada(hora, due.paineis));
    }
    // From REFRESH_LEAD_MS before a refresh until REFRESH_ACTIVE_MS after it, the capacity is in use.
    const refreshActivity = Math.max(0, ...refreshes.map((r) => Math.min(now, r.at.getTime() + REFRESH_ACTIVE_MS)));

    if (stretch) {
      if (last && last.motivo === 'administrador' && last.em.getTime() >= stretch.start.getTime()) return;
      if (reading.estado === 'pausada') return this.startResume('horario', null, null);
      if (reading.estado === 'ativa' && politica.skuHorario && reading.sku !== politica.skuHorario) {
        if (!row?.skuBase) await saveSkuBase(this.db, reading.sku);
        return this.scale(reading, politica.skuHorario, 'horario');
      }
      return;
    }

    if (reading.estado !== 'ativa') return;
    if (row?.skuBase) {
      if (reading.sku !== row.skuBase) return this.scale(reading, row.skuBase, 'horario');
      await saveSkuBase(this.db, null);
    }
    const minutes = politica.pausarAposMinutosOcioso;
    if (minutes === null) return;
    const idleSince = Math.max(
      row?.ultimaAtividade?.getTime() ?? 0,
      this.lastActivity,
      last?.em.getTime() ?? 0,
      refreshActivity,
    );
    if (now - idleSince < minutes * 60_000) return;
    const operation = await this.client.suspend();
    await this.record({
      em: new Date(this.clock()),
      estado: operation.accepted ? 'pausando' : 'pausada',
      sku: reading.sku,
      motivo: 'ociosidade',
      pessoa: null,
      detalhe: CAPACITY_MESSAGES.ociosa(Math.floor((now - idleSince) / 60_000)),
    });
  }

  private required(): CapacityApi {
    if (!this.client) throw conflict(CAPACITY_MESSAGES.naoConfigurada);
    return this.client;
  }

  private secondsLeft(estado: EstadoCapacidade): number {
    const t = this.transition;
    const expected = estado === 'escalando' ? this.scaleSeconds : this.resumeSeconds;
    if (!t || t.estado !== estado) return expected;
    return Math.max(1, Math.ceil(t.seconds - (this.clock() - t.since) / 1000));
  }

  /** A resume, asked once: openings that arrive while it is being asked share it. */
  private startResume(
    motivo: MotivoCapacidade,
    who: { actor: AuditActor | null; nome: string } | null,
    why: string | null,
  ) {
    this.resuming ??= this.askResume(motivo, who, why).finally(() => {
      this.resuming = null;
    });
    return this.resuming;
  }

  private async askResume(
    motivo: MotivoCapacidade,
    who: { actor: AuditActor | null; nome: string } | null,
    why: string | null,
  ): Promise<void> {
    const client = this.required();
    const before = this.reading ?? (await this.read(0));
    try {
      const operation = await client.resume();
      await this.changed(before, operation.accepted ? 'retomando' : 'ativa', before.sku, motivo, who, why);
    } catch (error) {
      // Another instance asked first: Azure refuses a second operation while one runs. Its resume is the one.
      if (error instanceof MicrosoftError && error.status === 409 && motivo !== 'administrador') {
        await this.read(0);
        return;
      }
      throw error;
    }
  }

  private async scale(before: Reading, sku: string, motivo: MotivoCapacidade): Promise<void> {
    const operation = await this.required().setSku(sku);
    await this.changed(before, operation.accepted ? 'escalando' : before.estado, sku, motivo, null, null);
  }

  /** Records a change the portal made, with its audit record when a person (an administrator) made it. */
  private async changed(
    before: Reading,
    estado: EstadoCapacidade,
    sku: string | null,
    motivo: MotivoCapacidade,
    who: { actor: AuditActor | null; nome: string } | null,
    why: string | null,
  ): Promise<void> {
    const now = this.clock();
    const change: CapacityChange = { em: new Date(now), estado, sku, motivo, pessoa: who?.nome ?? null, detalhe: why };
    const actor = who?.actor;
    await this.record(
      change,
      actor
        ? {
            actor,
            change: {
              objeto: 'capacidade',
              acao: 'alteracao',
              objetoNome: before.nome ?? this.resource?.name ?? null,
              mudancas: [
                ...(before.estado !== estado ? [{ campo: 'estado', antes: before.estado, depois: estado }] : []),
                ...(before.sku !== sku ? [{ campo: 'sku', antes: before.sku, depois: sku }] : []),
                ...(why ? [{ campo: 'motivo', depois: why }] : []),
              ],
            },
          }
        : undefined,
    );
    this.reading = { ...before, estado, sku, at: now };
    if (estado === 'retomando' || estado === 'escalando') {
      const seconds = estado === 'retomando' ? this.resumeSeconds : this.scaleSeconds;
      this.transition = { estado, since: now, seconds };
    }
  }

  private async record(change: CapacityChange, audited?: Parameters<typeof recordChange>[2]): Promise<void> {
    await recordChange(this.db, change, audited);
    this.reading = this.reading && { ...this.reading, estado: change.estado, sku: change.sku, at: this.clock() };
  }

  /** The state at most `maxAgeMs` old; one read of Azure at a time, shared. */
  private async read(maxAgeMs: number): Promise<Reading> {
    const cached = this.reading;
    if (cached && this.clock() - cached.at < maxAgeMs) return cached;
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<Reading> {
    const client = this.required();
    let reading: Reading;
    try {
      const status = await client.get();
      reading = {
        estado: portalState(status),
        sku: status.sku,
        nome: status.name,
        tipo: status.kind,
        mensagem: null,
        at: this.clock(),
      };
    } catch (error) {
      if (!(error instanceof MicrosoftError)) throw error;
      this.log.warn({ err: error }, 'capacidade: estado não lido do Azure');
      reading = {
        estado: 'desconhecida',
        sku: this.reading?.sku ?? null,
        nome: this.resource?.name ?? null,
        tipo: this.resource?.kind ?? null,
        mensagem: this.messageOf(error),
        at: this.clock(),
      };
    }
    await this.observe(reading);
    this.reading = reading;
    return reading;
  }

  private messageOf(error: MicrosoftError): string {
    const tipo = this.resource?.kind ?? 'embedded';
    if (error.code === 'AuthorizationFailed' || error.status === 403) return CAPACITY_MESSAGES.semPapel(tipo);
    if (error.failure === 'refused') return CAPACITY_MESSAGES.recusada(error.status, error.code);
    return CAPACITY_MESSAGES.semResposta;
  }

  /**
   * Keeps the reading (when it changed, or once a minute) and records a change nobody in the portal made: Azure
   * ending the portal's operation keeps that operation's reason; anything else was done outside ('externo').
   */
  private async observe(reading: Reading): Promise<void> {
    const written = this.readingWritten;
    if (
      !written ||
      written.estado !== reading.estado ||
      written.sku !== reading.sku ||
      written.mensagem !== reading.mensagem ||
      reading.at - written.at >= READING_WRITE_MS
    ) {
      await saveReading(this.db, {
        estado: reading.estado,
        sku: reading.sku,
        lidoEm: new Date(reading.at),
        mensagem: reading.mensagem,
      });
      this.readingWritten = { ...reading };
    }
    if (reading.estado === 'desconhecida') return;
    // Against the history, not this instance's memory: another instance may have recorded the change (one indexed
    // row, at most once per reading).
    const latest = await lastChange(this.db);
    if (latest && sameState(latest, reading)) return;
    const ending = latest && completes(latest.estado, reading.estado) ? latest : null;
    await recordChange(this.db, {
      em: new Date(reading.at),
      estado: reading.estado,
      sku: reading.sku,
      motivo: ending?.motivo ?? 'externo',
      pessoa: ending?.pessoa ?? null,
      detalhe: ending ? ending.detalhe : latest ? null : CAPACITY_MESSAGES.primeiraLeitura,
    });
  }
}

function policyOf(stored: unknown): PoliticaCapacidade {
  if (stored === null || stored === undefined) return DEFAULT_POLICY;
  const parsed = politicaCapacidade.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_POLICY;
}
