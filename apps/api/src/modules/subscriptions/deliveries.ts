import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { EXPORT_MESSAGES } from '@paineis/contract/personal';
import type { Painel } from '@paineis/contract/panels';
import { ASSINATURA_MESSAGES, FALHAS_ENVIO } from '@paineis/contract/subscriptions';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import type { ExportJob, ReportExporter } from '../../integrations/power-bi/embedding-service.ts';
import type { PowerBiExport } from '../../integrations/power-bi/power-bi-client.ts';
import { MailError, type MailTransport, type OutgoingMail } from '../../integrations/mail/mail-transport.ts';
import { DomainFailure } from '../../lib/domain-failure.ts';
import { POWER_BI_NOT_CONFIGURED } from '../../plugins/microsoft-error-answers.ts';
import type { TaskHandle, TaskRunner } from '../../tasks/task-runner.ts';
import { recordAudit, SYSTEM_ACTOR } from '../audit/audit.ts';
import { exportFileName, FILE_TYPES } from '../exports/export-answers.ts';
import { exportRefusal } from '../exports/export-refusals.ts';
import { MAX_EXPORT_ATTEMPTS } from '../exports/exports.ts';
import { allPanels } from '../panels/panel-access.ts';
import { directoryEntries } from '../users/users.service.ts';
import {
  claimDeliveries,
  finishDelivery,
  purgeFilesExpiredBy,
  queueAfterRefreshBatch,
  queueDueBatch,
  recordedRecipients,
  recordRecipient,
  releaseDelivery,
  renewClaim,
  retryDelivery,
  linkFileRecipient,
  panelsAwaitingRefresh,
  storedBytes,
  storeFile,
  subscriptionToDeliver,
  type DeliveryClaim,
  type RecipientState,
  type SubscriptionToDeliver,
} from './deliveries.repository.ts';
import { deliveryMessage } from './delivery-message.ts';
import { MailGate } from './mail-gate.ts';
import { identityOf, ownerStopNow, recipientsOf, type Recipient, type RecipientIdentity } from './recipients.ts';
import { nextOccurrence, type Schedule } from './schedule.ts';

/** What the deliveries need of the app. */
export interface DeliveryDeps {
  db: Db;
  reportExports: ReportExporter;
  mail: MailTransport | null;
  config: Pick<Config, 'subscriptions' | 'rlsUsername' | 'publicUrl' | 'port'>;
  log: FastifyBaseLogger;
  /** A name for this instance in the jobs' claims (host and pid by default). */
  instanceId?: string;
  /** Waits between Power BI's status answers (tests shorten them); stops early when `signal` aborts. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Resolves once the Power BI capacity runs, resuming it when paused (capacity/capacity.ts, wakeFor 'envio'); absent
   * undefined without a capacity configured (docs/decisions/024-capacity-cost.md).
   */
  wakeCapacity?: () => Promise<void> | undefined;
}

/** While the capacity wakes, the delivery's claim is renewed this often: a resume takes minutes, the lease two. */
const HOLD_WHILE_WAKING_MS = 10_000;

/** Subscriptions queued per transaction: a burst of due ones is queued in several short transactions. */
const QUEUE_BATCH = 200;
/** The shortest wait between two status requests of an export, whatever Retry-After says. */
const MIN_STATUS_WAIT_SECONDS = 0.2;
/** The wait when Power BI named none. */
const DEFAULT_STATUS_WAIT_SECONDS = 1;

/** A delivery's attempt that failed: what the subscription's owner and the administrators read, and whether to retry. */
class AttemptFailure extends Error {
  constructor(
    /** Portuguese: FALHAS_ENVIO's reason, and the detail when it is safe to show. */
    readonly reason: string,
    /** Trying again cannot help (export is off for the panel). */
    readonly final = false,
  ) {
    super(reason);
    this.name = 'AttemptFailure';
  }
}

/** This instance no longer holds the delivery (its lease lapsed and another took it) or is stopping. */
class ClaimLost extends Error {
  constructor() {
    super('envio não está mais com esta instância');
    this.name = 'ClaimLost';
  }
}

const withDetail = (reason: string, detail: string | null) => (detail ? `${reason} ${detail}` : reason);

/** Power BI's part of a failure, in Portuguese: its refusal as a person would read it, or what went wrong. */
function powerBiDetail(error: MicrosoftError, panel: Painel, stateOrPage: boolean): string {
  const refusal = exportRefusal(error, { identity: panel.usaRls, stateOrPage });
  if (refusal instanceof DomainFailure) return refusal.message;
  switch (error.failure) {
    case 'timeout':
      return 'O Power BI não respondeu a tempo.';
    case 'unreachable':
      return 'O Power BI não pôde ser alcançado.';
    case 'throttled':
      return 'O Power BI pediu para esperar (muitas requisições).';
    case 'identity-without-roles':
    case 'identity-over-limits':
      return 'O Power BI não aceitaria a identidade RLS do destinatário.';
    case 'not-configured':
      return POWER_BI_NOT_CONFIGURED;
    default:
      return error.status ? `O Power BI respondeu ${error.status}.` : 'O Power BI deu uma resposta ilegível.';
  }
}

/**
 * The deliveries of subscriptions (docs/decisions/020-subscription-deliveries.md): every instance queues the
 * occurrences that fell due and works the queue, each delivery claimed by one instance at a time.
 */
export class DeliveryWorker {
  private readonly instanceId: string;
  private readonly wait: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The polling task, once on a runner: what wake() triggers. */
  private polling: TaskHandle<void> | null = null;
  /** The tick under way (or the last one): ticks run one after another, never two at once. */
  private current: Promise<void> = Promise.resolve();
  /** Aborted by stop() or the runner's stop: waits end, and deliveries under way stop before sending anything more. */
  private readonly stopping = new AbortController();
  /** The service's limits on the sending mailbox, kept with every other instance (Graph); none for SMTP. */
  private readonly gate: MailGate | null;

  constructor(private readonly deps: DeliveryDeps) {
    this.instanceId = deps.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.wait = deps.wait ?? ((ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined));
    const limits = deps.mail?.limits;
    this.gate = limits
      ? new MailGate(
          { db: deps.db, instanceId: this.instanceId, wait: this.wait, signal: this.stopping.signal },
          limits,
        )
      : null;
  }

  /**
   * Polls the queue as the task 'envios' on `runner` (plugins/background-tasks.ts): every `subscriptions.pollSeconds`,
   * and at once after wake(). Every instance polls (the task is the instance's own, not claimed across instances):
   * each delivery is claimed by one of them, so that several instances deliver side by side. Tests call runOnce.
   */
  pollOn(runner: TaskRunner): void {
    if (!this.deps.mail) this.deps.log.warn('nenhum transporte de e-mail configurado: as assinaturas não são enviadas');
    this.polling = runner.define({
      name: 'envios',
      claim: 'instance',
      everyMs: this.deps.config.subscriptions.pollSeconds * 1000,
      firstAfterMs: null,
      run: (_scope, signal) => this.runOnce(undefined, signal),
    });
  }

  /**
   * Queues what is due, then works deliveries until none is available now; resolves when they ended. Without `now`,
   * the moment it starts (after a tick under way ends), not the moment it was asked. `signal` (the runner's stop)
   * stops the deliveries as stop() does.
   */
  async runOnce(now?: Date, signal?: AbortSignal): Promise<void> {
    signal?.addEventListener('abort', () => this.stopping.abort(), { once: true });
    const run = this.current.then(() => this.tick(now ?? new Date()));
    this.current = run.catch(() => undefined);
    return run;
  }

  /** A delivery was just queued ('Enviar agora'): work the queue now rather than at the next poll (when polling). */
  wake(): void {
    this.polling?.trigger();
  }

  /** Stops the deliveries under way and waits for them (tests; the app's close stops the runner, which does it). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.current;
  }

  private async tick(now: Date): Promise<void> {
    if (!this.deps.mail) return;
    // The caller's moment, moving on with real time: tests run a tick at any moment, and it stays consistent.
    const startedAt = performance.now();
    const clock = () => new Date(now.getTime() + (performance.now() - startedAt));
    await this.queueDue(clock());
    await this.queueAfterRefresh(clock());
    await this.drain(clock);
  }

  /**
   * Queues every subscription due at `now`, a batch per transaction. Its next occurrence is the first after `now`:
   * occurrences missed while no instance ran are delivered once, not once each.
   */
  private async queueDue(now: Date): Promise<void> {
    const nextOf = (schedule: Schedule & { id: string }) => {
      try {
        return nextOccurrence(schedule, now);
      } catch (err) {
        // A schedule no day matches (never written by the API): that subscription stops, the others go on.
        this.deps.log.error({ err, assinaturaId: schedule.id }, 'assinatura sem próxima ocorrência');
        return null;
      }
    };
    while ((await queueDueBatch(this.deps.db, now, QUEUE_BATCH, nextOf)) === QUEUE_BATCH);
  }

  /**
   * Queues every subscription sent after each refresh whose dataset's refresh the freshness rounds found since its
   * last, a batch per transaction. Any instance may: the mark written with the queueing makes it once.
   */
  private async queueAfterRefresh(now: Date): Promise<void> {
    while ((await queueAfterRefreshBatch(this.deps.db, now, QUEUE_BATCH)) === QUEUE_BATCH);
  }

  /** Claims and works deliveries, at most exportConcurrency at once, until none is available. */
  private async drain(clock: () => Date): Promise<void> {
    const { exportConcurrency, leaseSeconds } = this.deps.config.subscriptions;
    const running = new Set<Promise<void>>();
    while (!this.stopping.signal.aborted) {
      const free = exportConcurrency - running.size;
      const now = clock();
      const claimed =
        free > 0
          ? await claimDeliveries(this.deps.db, {
              now,
              limit: free,
              leaseUntil: new Date(now.getTime() + leaseSeconds * 1000),
              instanceId: this.instanceId,
            })
          : [];
      for (const claim of claimed) {
        const work: Promise<void> = this.work(claim, clock).finally(() => running.delete(work));
        running.add(work);
      }
      if (running.size === 0) break;
      await Promise.race(running);
    }
    await Promise.all(running);
  }

  /** One delivery, its claim renewed while it runs. Never rejects: the outcome is recorded, or the claim lapses. */
  private async work(claim: DeliveryClaim, clock: () => Date): Promise<void> {
    const { db, log, config } = this.deps;
    const leaseMs = config.subscriptions.leaseSeconds * 1000;
    let lost = false;
    let leaseEnds = claim.ocupadoAte.getTime();
    const renewal = setInterval(() => {
      const until = new Date(clock().getTime() + leaseMs);
      void renewClaim(db, claim.id, this.instanceId, until)
        .then((renewed) => {
          if (renewed) leaseEnds = until.getTime();
          else lost = true;
        })
        .catch((err: unknown) => log.warn({ err, envioId: claim.id }, 'não foi possível renovar o envio'));
    }, leaseMs / 3).unref();
    // Past its lease, another instance may have taken the delivery even if no renewal said so yet (this process
    // stalled): nothing more is sent.
    const held = () => {
      if (lost || this.stopping.signal.aborted || clock().getTime() >= leaseEnds) throw new ClaimLost();
    };
    const found: { panel: Painel | null } = { panel: null };
    try {
      await this.deliver(claim, clock, held, found);
    } catch (error) {
      await this.failed(claim, clock, error, found.panel).catch((err: unknown) =>
        log.error({ err, envioId: claim.id }, 'não foi possível registrar a falha do envio'),
      );
    } finally {
      clearInterval(renewal);
      this.stored.delete(claim.id);
    }
  }

  private async deliver(
    claim: DeliveryClaim,
    clock: () => Date,
    held: () => void,
    found: { panel: Painel | null },
  ): Promise<void> {
    const { db, config } = this.deps;
    // Taken again after every attempt's instance died on it: something in it kills instances, so it stops here.
    if (claim.tentativas > config.subscriptions.maxAttempts) throw new AttemptFailure(FALHAS_ENVIO.interno, true);
    const subscription = await subscriptionToDeliver(db, claim.assinaturaId);
    // Deleted meanwhile: its deliveries went with it.
    if (!subscription) return;
    const panel = (await allPanels(db)).find((p) => p.id === subscription.painelId);
    if (!panel) return;
    found.panel = panel;
    if (!subscription.ativa) {
      // Paused after this occurrence was queued: its owner expects nothing more.
      await finishDelivery(
        db,
        claim,
        this.instanceId,
        { estado: 'falhou', erro: ASSINATURA_MESSAGES.pausada, falhaAssinatura: null },
        clock(),
      );
      return;
    }
    if (!panel.permiteExportacao) {
      throw new AttemptFailure(withDetail(FALHAS_ENVIO.exportacao, EXPORT_MESSAGES.desativada), true);
    }
    // Its owner is inactive, or no longer an administrator for a subscription for others: nothing is sent.
    const ownerStopped = async () => {
      const stop = await ownerStopNow(db, subscription);
      if (stop) throw new AttemptFailure(stop, true);
    };
    await ownerStopped();

    const recipients = await recipientsOf(db, subscription);
    const recorded = await recordedRecipients(db, claim.id);
    const leftOut = async (usuarioId: string) => {
      await recordRecipient(db, { envioId: claim.id, usuarioId, estado: 'sem-acesso' });
      recorded.set(usuarioId, 'sem-acesso');
    };
    /** Recipients by the identity their file is rendered with, as the access model answers. */
    type ByIdentity = Map<string, { identity: RecipientIdentity; members: string[] }>;
    const join = (groups: ByIdentity, identity: RecipientIdentity) => {
      const group = groups.get(identity.key);
      if (group) group.members.push(identity.recipient.id);
      else groups.set(identity.key, { identity, members: [identity.recipient.id] });
    };
    let pending: ByIdentity = new Map();
    for (const recipient of recipients) {
      if (recorded.has(recipient.id)) continue;
      const identity = await identityOf(db, panel.id, recipient.id, config.rlsUsername);
      if (identity) join(pending, identity);
      else await leftOut(recipient.id);
    }

    // An export can take hours: each recipient is judged again right before their message. Whoever may no longer open
    // the panel is sent nothing; whoever's identity changed (other RLS roles, another UPN) waits for an export rendered
    // with the new one, never the file of the old. A few rounds at most, then the retry takes the rest.
    const rounds = 3;
    for (let round = 1; pending.size > 0; round++) {
      if (round > rounds) {
        throw new AttemptFailure(
          withDetail(FALHAS_ENVIO.exportacao, 'A identidade RLS de um destinatário mudou durante cada exportação.'),
        );
      }
      const changed: ByIdentity = new Map();
      for (const { identity, members } of pending.values()) {
        held();
        // Paused, or taken out of the administrators' hands, while the earlier exports ran: nothing more is sent.
        if (await this.pausedMeanwhile(claim, panel, recorded, clock)) return;
        // The panel as judged with them: one that took up RLS meanwhile is never exported without the identity.
        const file = await this.exportFor(identity.panel, subscription, identity, held);
        // Whom it is for now: someone taken out of a group named (or off the list) while it rendered is sent nothing.
        const stillFor = new Set((await recipientsOf(db, subscription)).map((r) => r.id));
        for (const usuarioId of members) {
          held();
          await ownerStopped();
          const now = stillFor.has(usuarioId) ? await identityOf(db, panel.id, usuarioId, config.rlsUsername) : null;
          if (!now) await leftOut(usuarioId);
          else if (now.key !== identity.key) join(changed, now);
          else {
            await this.send(claim, subscription, panel, now.recipient, now, file, clock, held);
            recorded.set(usuarioId, 'enviado');
          }
        }
      }
      pending = changed;
    }

    const sent = [...recorded.values()].some((estado) => estado === 'enviado');
    const outcome = sent
      ? ({ estado: 'enviado' } as const)
      : ({
          estado: 'falhou',
          erro: FALHAS_ENVIO.semDestinatarios,
          falhaAssinatura: FALHAS_ENVIO.semDestinatarios,
        } as const);
    if (await finishDelivery(db, claim, this.instanceId, outcome, clock())) {
      await this.audited(claim, panel, recorded, outcome.estado === 'falhou' ? outcome.erro : null);
    }
  }

  /**
   * Whether the subscription was paused (by its owner or an administrator) or deleted since the delivery began: a
   * paused one ends here as paused (those already sent are kept in its audit record).
   */
  private async pausedMeanwhile(
    claim: DeliveryClaim,
    panel: Painel,
    recorded: ReadonlyMap<string, RecipientState>,
    clock: () => Date,
  ): Promise<boolean> {
    const now = await subscriptionToDeliver(this.deps.db, claim.assinaturaId);
    if (now?.ativa) return false;
    const outcome = { estado: 'falhou', erro: ASSINATURA_MESSAGES.pausada, falhaAssinatura: null } as const;
    if (now && (await finishDelivery(this.deps.db, claim, this.instanceId, outcome, clock()))) {
      await this.audited(claim, panel, recorded, ASSINATURA_MESSAGES.pausada);
    }
    return true;
  }

  /**
   * One export of the panel as this identity sees it: started, polled as Power BI says (Retry-After), started again
   * after a transient Failed as its export guidance says, at most MAX_EXPORT_ATTEMPTS times; then its file.
   */
  private async exportFor(
    panel: Painel,
    subscription: SubscriptionToDeliver,
    identity: RecipientIdentity,
    held: () => void,
  ): Promise<Buffer> {
    const { reportExports } = this.deps;
    const state = subscription.visao?.estado;
    const page = subscription.pagina ?? subscription.visao?.pagina ?? undefined;
    const seconds = (retryAfter: number | null) =>
      Math.max(MIN_STATUS_WAIT_SECONDS, retryAfter ?? DEFAULT_STATUS_WAIT_SECONDS) * 1000;
    await this.capacityRunning(held);
    try {
      for (let attempt = 1; ; attempt++) {
        const started = await reportExports.startExport(
          panel,
          { ...identity.requester, roles: identity.roles },
          { format: subscription.formato, state, page },
        );
        const job: ExportJob = {
          workspaceId: started.workspaceId,
          reportId: started.reportId,
          exportId: started.exportId,
        };
        let status: PowerBiExport = started;
        while (status.status === 'NotStarted' || status.status === 'Running') {
          await this.wait(seconds(status.retryAfterSeconds), this.stopping.signal);
          held();
          status = await reportExports.exportStatus(job, panel.id);
        }
        if (status.status === 'Succeeded') return Buffer.from((await reportExports.exportFile(job, panel.id)).bytes);
        if (status.retryAfterSeconds === null || attempt >= MAX_EXPORT_ATTEMPTS) {
          throw new AttemptFailure(withDetail(FALHAS_ENVIO.exportacao, 'A exportação terminou com falha no Power BI.'));
        }
        // A transient failure: Power BI said when the export may be started again.
        await this.wait(seconds(status.retryAfterSeconds), this.stopping.signal);
        held();
      }
    } catch (error) {
      if (!(error instanceof MicrosoftError)) throw error;
      throw new AttemptFailure(
        withDetail(FALHAS_ENVIO.exportacao, powerBiDetail(error, panel, state !== undefined || page !== undefined)),
      );
    }
  }

  /** Waits for the capacity to run (a paused one is resumed), the claim held meanwhile; a capacity that does not come back fails the attempt. */
  private async capacityRunning(held: () => void): Promise<void> {
    const waking = this.deps.wakeCapacity?.();
    if (!waking) return;
    const holding = setInterval(held, HOLD_WHILE_WAKING_MS);
    try {
      await waking;
    } catch (error) {
      this.deps.log.warn({ err: error }, 'envio: a capacidade do Power BI não voltou a funcionar');
      throw new AttemptFailure(
        withDetail(FALHAS_ENVIO.exportacao, 'A capacidade do Power BI está pausada e não voltou a tempo.'),
      );
    } finally {
      clearInterval(holding);
    }
  }

  /**
   * The message to one recipient, then, the moment the mail server accepted it, their part recorded: a process dying
   * between the two is the one way a message goes twice. The file is attached when it fits the transport's limits
   * (its own size, and the request's: Graph's 4 MB); otherwise, or when the service refuses the request as too large
   * (413), the message carries a download link instead.
   */
  private async send(
    claim: DeliveryClaim,
    subscription: SubscriptionToDeliver,
    panel: Painel,
    recipient: Recipient,
    identity: RecipientIdentity,
    bytes: Buffer,
    clock: () => Date,
    held: () => void,
  ): Promise<void> {
    const { db, config } = this.deps;
    const mail = this.deps.mail!;
    const type = FILE_TYPES[subscription.formato];
    const filename = exportFileName(panel.nomePainel, type.extension);
    const messageWith = (file: Parameters<typeof deliveryMessage>[0]['file']) =>
      deliveryMessage({
        envioId: claim.id,
        base: (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, ''),
        recipient,
        panel,
        formato: subscription.formato,
        schedule: subscription,
        ocorrencia: claim.ocorrencia,
        manual: claim.manual,
        visao: subscription.visao?.nome ?? null,
        file,
      });
    const withLink = async () =>
      messageWith({
        kind: 'link',
        ...(await this.storedFor(claim, identity, filename, type.contentType, bytes, clock, recipient.id)),
      });
    // Each message's request is measured once: it decides the link and counts against Graph's upload budget.
    const sized = (message: OutgoingMail) => ({ message, bytes: mail.requestBytes(message) });
    let outgoing = sized(
      bytes.length <= mail.maxAttachmentBytes
        ? messageWith({ kind: 'attached', filename, contentType: type.contentType, content: bytes })
        : await withLink(),
    );
    if (outgoing.message.attachment && mail.maxRequestBytes !== null && outgoing.bytes > mail.maxRequestBytes) {
      outgoing = sized(await withLink());
    }
    const handOver = ({ message, bytes: size }: typeof outgoing) =>
      this.gate ? this.gate.send(mail, message, { held, clock, bytes: size }) : mail.send(message);
    let accepted: { messageId: string | null };
    try {
      try {
        accepted = await handOver(outgoing);
      } catch (error) {
        if (!(error instanceof MailError && error.tooLarge && outgoing.message.attachment)) throw error;
        this.deps.log.warn({ envioId: claim.id }, 'mensagem recusada por tamanho: enviada com o link do arquivo');
        accepted = await handOver(sized(await withLink()));
      }
    } catch (error) {
      if (!(error instanceof MailError)) throw error;
      throw new AttemptFailure(withDetail(FALHAS_ENVIO.email, error.message));
    }
    await recordRecipient(db, {
      envioId: claim.id,
      usuarioId: recipient.id,
      estado: 'enviado',
      identidade: panel.usaRls ? identity.requester.username : null,
      idMensagem: accepted.messageId,
    });
  }

  /**
   * The stored file of each export under way, by delivery and identity: the bytes go to the database once per export.
   * A delivery's entry goes when it ends.
   */
  private readonly stored = new Map<string, Map<string, Promise<{ id: string; expiraEm: Date }>>>();

  /** The export's stored file (stored on its first recipient), linked to this recipient. */
  private async storedFor(
    claim: DeliveryClaim,
    identity: RecipientIdentity,
    nome: string,
    tipo: string,
    conteudo: Buffer,
    clock: () => Date,
    usuarioId: string,
  ): Promise<{ arquivoId: string; expiraEm: Date }> {
    let files = this.stored.get(claim.id);
    if (!files) this.stored.set(claim.id, (files = new Map<string, Promise<{ id: string; expiraEm: Date }>>()));
    let stored = files.get(identity.key);
    if (!stored) {
      const expiraEm = new Date(clock().getTime() + this.deps.config.subscriptions.fileDays * 86_400_000);
      stored = storeFile(this.deps.db, { envioId: claim.id, identidade: identity.key, nome, tipo, conteudo, expiraEm });
      files.set(identity.key, stored);
      // A failed store is tried again by the next recipient, not remembered.
      stored.catch(() => files.delete(identity.key));
    }
    const { id, expiraEm } = await stored;
    await linkFileRecipient(this.deps.db, id, usuarioId);
    return { arquivoId: id, expiraEm };
  }

  /** An attempt that ended without delivering to everyone: tried again later with backoff, or failed for good. */
  private async failed(claim: DeliveryClaim, clock: () => Date, error: unknown, panel: Painel | null): Promise<void> {
    const { db, log, config } = this.deps;
    const now = clock();
    if (error instanceof ClaimLost) {
      // Stopping: back to the queue at once, this attempt not counted. Lost: the instance that took it goes on.
      if (this.stopping.signal.aborted) await releaseDelivery(db, claim, this.instanceId, now);
      log.info({ envioId: claim.id, assinaturaId: claim.assinaturaId }, 'envio interrompido antes de terminar');
      return;
    }
    const failure = error instanceof AttemptFailure ? error : new AttemptFailure(FALHAS_ENVIO.interno);
    const context = { envioId: claim.id, assinaturaId: claim.assinaturaId, tentativas: claim.tentativas };
    if (error instanceof AttemptFailure) log.warn({ ...context, motivo: failure.reason }, 'envio de assinatura falhou');
    else log.error({ ...context, err: error }, 'envio de assinatura falhou por um erro interno');
    const { maxAttempts, retrySeconds } = config.subscriptions;
    if (!failure.final && claim.tentativas < maxAttempts) {
      const at = new Date(now.getTime() + retrySeconds * 1000 * 2 ** (claim.tentativas - 1));
      await retryDelivery(db, claim, this.instanceId, at, failure.reason);
      return;
    }
    const outcome = { estado: 'falhou', erro: failure.reason, falhaAssinatura: failure.reason } as const;
    if (await finishDelivery(db, claim, this.instanceId, outcome, now)) {
      await this.audited(claim, panel, await recordedRecipients(db, claim.id), failure.reason);
    }
  }

  /** The audit record of a finished delivery: whom it was sent to, whom it left out, and why it failed. */
  private async audited(
    claim: DeliveryClaim,
    panel: Painel | null,
    recorded: ReadonlyMap<string, RecipientState>,
    motivo: string | null,
  ): Promise<void> {
    const people = await directoryEntries(this.deps.db);
    const named = (estado: RecipientState) =>
      [...recorded].filter(([, e]) => e === estado).map(([id]) => people.get(id)?.email ?? id);
    const enviadoPara = named('enviado');
    const semAcesso = named('sem-acesso');
    const armazenado = await storedBytes(this.deps.db, claim.id);
    await recordAudit(this.deps.db, SYSTEM_ACTOR, {
      objeto: 'assinatura',
      acao: 'envio',
      objetoId: claim.assinaturaId,
      objetoNome: panel?.nomePainel ?? null,
      mudancas: [
        { campo: 'envio', depois: claim.id },
        { campo: 'ocorrencia', depois: claim.ocorrencia.toISOString() },
        { campo: 'manual', depois: claim.manual },
        { campo: 'estado', depois: motivo === null ? 'enviado' : 'falhou' },
        { campo: 'enviadoPara', depois: enviadoPara },
        { campo: 'semAcesso', depois: semAcesso },
        // The bytes kept for download (files too large to attach), once per export whoever shares it.
        { campo: 'armazenado', depois: armazenado },
        ...(motivo === null ? [] : [{ campo: 'motivo', depois: motivo }]),
      ],
    });
    this.deps.log.info(
      {
        envioId: claim.id,
        assinaturaId: claim.assinaturaId,
        enviados: enviadoPara.length,
        semAcesso: semAcesso.length,
        armazenado,
        falha: motivo,
      },
      motivo === null ? 'envio de assinatura concluído' : 'envio de assinatura falhou de vez',
    );
  }
}

/** The panels a subscription sent after each refresh waits on (the task 'assinaturas-atualizacao' reads them). */
export { panelsAwaitingRefresh };

/** The hourly purge: files of subscriptions too large to attach go once they expire. */
export const purgeExpiredSubscriptionFiles = (db: Db, now = new Date()) => purgeFilesExpiredBy(db, now);
