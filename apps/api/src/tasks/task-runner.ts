import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The one runner of background work (docs/decisions/021-background-tasks.md). A task has a name, an interval, an
 * on-demand trigger and, when it must run on one instance at a time, a claim in the `tarefas` table. On each instance
 * a task runs once at a time; a request that arrives while it runs gets one more run after it (requests arriving
 * together share that run); and a request is kept until a run that starts after it, here, has ended: when another
 * instance holds the claim, this one tries again until it gets it.
 */

/** What one run covers: everything, or only the targets asked for (a panel's id, say). */
export interface TaskScope {
  readonly full: boolean;
  /** The targets requested, when the run is not full. */
  readonly targets: ReadonlySet<string>;
}

export interface TaskDefinition<R = unknown> {
  /** Also its row in `tarefas`. */
  name: string;
  /** A timed run every this many milliseconds; 0 for none. */
  everyMs: number;
  /** The first timed run this long after start; null: at the first interval. */
  firstAfterMs: number | null;
  /** `cluster`: one instance at a time across every instance on the database; `instance`: each runs its own. */
  claim: 'cluster' | 'instance';
  /** The work. `signal` aborts when the runner stops (or the claim was lost): a task may end early then. */
  run(scope: TaskScope, signal: AbortSignal): Promise<R>;
}

/** The claims of cluster tasks across instances (task-claims.repository.ts; a fake in the runner's unit tests). */
export interface TaskClaims {
  /**
   * Takes the task for `holder` when no instance holds it (or its holder's lease has passed). With `spacingMs` (a
   * timed run), only when no run over everything started within it. `full` records this run as one over everything.
   */
  claim(
    name: string,
    holder: string,
    options: { leaseMs: number; spacingMs: number | null; full: boolean },
  ): Promise<boolean>;
  /** Extends the holder's lease; false when it no longer holds the task. */
  renew(name: string, holder: string, leaseMs: number): Promise<boolean>;
  release(name: string, holder: string): Promise<void>;
}

export interface TaskRunnerOptions {
  claims: TaskClaims;
  log: FastifyBaseLogger;
  /** This instance in the claims (host, pid and a random part by default). */
  instanceId?: string;
  /** How long a claim outlives an instance that died holding it; renewed every third of it while the run lasts. */
  leaseMs?: number;
  /** How soon a request waiting for another instance's run tries the claim again. */
  retryMs?: number;
}

/** A request refused because the runner stopped (the app is closing). */
export class TaskStopped extends Error {
  constructor(name: string) {
    super(`tarefa ${name}: o servidor está parando`);
    this.name = 'TaskStopped';
  }
}

/** One task's handle: what the app and the routes use. */
export interface TaskHandle<R> {
  readonly name: string;
  /** Asks for a run (over `targets` only, when given) and answers its result, from a run that starts after now. */
  run(targets?: Iterable<string>): Promise<R>;
  /** The same, without waiting: failures are logged. */
  trigger(targets?: Iterable<string>): void;
  /** Waits until the task neither runs nor has a request waiting, here. */
  idle(): Promise<void>;
}

const FULL: TaskScope = { full: true, targets: new Set() };

/** Requests not yet served, all to be served by the same next run. */
interface Pending<R> {
  full: boolean;
  targets: Set<string>;
  waiters: { resolve(result: R): void; reject(error: unknown): void }[];
}

class Slot<R> {
  /** The loop under way (claims, runs, waits for the claim), at most one. */
  active: Promise<void> | null = null;
  pending: Pending<R> | null = null;
  constructor(readonly task: TaskDefinition<R>) {}
}

export class TaskRunner {
  readonly instanceId: string;
  private readonly claims: TaskClaims;
  private readonly log: FastifyBaseLogger;
  private readonly leaseMs: number;
  private readonly retryMs: number;
  private readonly slots = new Map<string, Slot<unknown>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly stopping = new AbortController();
  private started = false;

  constructor(options: TaskRunnerOptions) {
    this.claims = options.claims;
    this.log = options.log;
    this.instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.retryMs = options.retryMs ?? 1_000;
  }

  define<R>(task: TaskDefinition<R>): TaskHandle<R> {
    if (this.slots.has(task.name)) throw new Error(`tarefa ${task.name} já definida`);
    const slot = new Slot(task);
    this.slots.set(task.name, slot);
    if (this.started) this.schedule(slot);
    return {
      name: task.name,
      run: (targets) => this.request(slot, targets),
      trigger: (targets) => {
        this.request(slot, targets).catch(() => undefined); // logged by the run
      },
      idle: () => this.idle(task.name),
    };
  }

  /** Starts the timed runs (server.ts, through the app's ready hook). Requests are served before it too. */
  start(): void {
    if (this.started || this.stopping.signal.aborted) return;
    this.started = true;
    for (const slot of this.slots.values()) this.schedule(slot);
  }

  /** Waits until the task (every task, without a name) neither runs nor has a request waiting, here. */
  async idle(name?: string): Promise<void> {
    const slots = [...this.slots.values()].filter((s) => name === undefined || s.task.name === name);
    for (;;) {
      const active = slots.flatMap((s) => (s.active ? [s.active] : []));
      if (active.length === 0) return;
      await Promise.all(active);
    }
  }

  /** No more runs: timers end, waiting requests are refused, and the runs under way are awaited (the app's close). */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.timers.forEach(clearTimeout);
    this.timers.length = 0;
    for (const slot of this.slots.values()) {
      const pending = slot.pending;
      slot.pending = null;
      pending?.waiters.forEach((w) => w.reject(new TaskStopped(slot.task.name)));
    }
    await this.idle();
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private schedule<R>(slot: Slot<R>): void {
    const { everyMs, firstAfterMs } = slot.task;
    const timed = () => {
      // A run under way (or a request waiting for one) serves the moment as well as a timed run would.
      if (!slot.active && !this.stopped) this.drive(slot, true);
    };
    // At once: a close right after the start still finds the run under way, and waits for it.
    if (firstAfterMs === 0) timed();
    else if (firstAfterMs !== null) this.timers.push(setTimeout(timed, firstAfterMs).unref());
    if (everyMs > 0) this.timers.push(setInterval(timed, everyMs).unref());
  }

  private request<R>(slot: Slot<R>, targets?: Iterable<string>): Promise<R> {
    if (this.stopped) return Promise.reject(new TaskStopped(slot.task.name));
    return new Promise<R>((resolve, reject) => {
      const pending = (slot.pending ??= { full: false, targets: new Set(), waiters: [] });
      if (targets === undefined) pending.full = true;
      else for (const target of targets) pending.targets.add(target);
      pending.waiters.push({ resolve, reject });
      if (!slot.active) this.drive(slot, false);
    });
  }

  /** The slot's one loop: a timed attempt when asked, then runs while requests wait. */
  private drive<R>(slot: Slot<R>, timed: boolean): void {
    const loop = async () => {
      if (timed) await this.attempt(slot, true);
      while (slot.pending && !this.stopped) {
        // Another instance holds the claim: the requests wait for its run to end, then for a run of their own.
        if (!(await this.attempt(slot, false))) await this.pause(this.retryMs);
      }
    };
    // Started on the next tick, so that the slot is marked active before any of the loop runs.
    slot.active = Promise.resolve()
      .then(loop)
      .catch((err: unknown) => this.log.error({ err, tarefa: slot.task.name }, 'tarefa em segundo plano interrompida'))
      .finally(() => {
        slot.active = null;
        // A request that came as the loop ended.
        if (slot.pending && !this.stopped) this.drive(slot, false);
      });
  }

  /** One claim and, when this instance gets it, one run. Answers whether it ran. */
  private async attempt<R>(slot: Slot<R>, timed: boolean): Promise<boolean> {
    const { task } = slot;
    const full = timed || slot.pending?.full === true;
    if (task.claim === 'cluster') {
      try {
        const spacingMs = timed ? task.everyMs * 0.9 : null;
        if (!(await this.claims.claim(task.name, this.instanceId, { leaseMs: this.leaseMs, spacingMs, full }))) {
          return false;
        }
      } catch (err) {
        this.log.warn({ err, tarefa: task.name }, 'tarefa em segundo plano não pôde começar');
        return false;
      }
    }
    // From here on, a request waits for the next run: this one may already have read what it asks about.
    const batch = slot.pending;
    slot.pending = null;
    const scope: TaskScope = timed || !batch || batch.full ? FULL : { full: false, targets: batch.targets };
    const outcome = await this.runClaimed(task, scope);
    if (outcome.ok) batch?.waiters.forEach((w) => w.resolve(outcome.result));
    else batch?.waiters.forEach((w) => w.reject(outcome.error));
    return true;
  }

  private async runClaimed<R>(
    task: TaskDefinition<R>,
    scope: TaskScope,
  ): Promise<{ ok: true; result: R } | { ok: false; error: unknown }> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    this.stopping.signal.addEventListener('abort', abort);
    const cluster = task.claim === 'cluster';
    const renewal = cluster
      ? setInterval(() => {
          this.claims
            .renew(task.name, this.instanceId, this.leaseMs)
            .then((held) => {
              if (held) return;
              this.log.warn({ tarefa: task.name }, 'tarefa em segundo plano perdeu a posse para outra instância');
              controller.abort();
            })
            .catch((err: unknown) => this.log.warn({ err, tarefa: task.name }, 'posse da tarefa não renovada'));
        }, this.leaseMs / 3).unref()
      : null;
    try {
      return { ok: true, result: await task.run(scope, controller.signal) };
    } catch (error) {
      this.log.warn({ err: error, tarefa: task.name }, 'tarefa em segundo plano falhou');
      return { ok: false, error };
    } finally {
      if (renewal) clearInterval(renewal);
      this.stopping.signal.removeEventListener('abort', abort);
      // Released before anyone waiting hears of the end, so that their next request finds the claim free.
      if (cluster) {
        await this.claims
          .release(task.name, this.instanceId)
          .catch((err: unknown) => this.log.warn({ err, tarefa: task.name }, 'tarefa em segundo plano não liberada'));
      }
    }
  }

  /** Waits `ms`, or less when the runner stops. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.stopping.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.stopping.signal.addEventListener('abort', done);
    });
  }
}
