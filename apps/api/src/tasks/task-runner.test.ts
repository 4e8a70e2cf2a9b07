import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskRunner, TaskStopped, type TaskClaims, type TaskDefinition, type TaskScope } from './task-runner.ts';

/**
 * The runner on a fake clock (docs/decisions/021-background-tasks.md): timed runs, one run at a time, a request during
 * a run served by exactly one more, a request never dropped (not even while another instance holds the claim), and a
 * stop that waits. The claims are held in memory here, by the rules task-claims.repository.ts keeps in the database;
 * test/background-tasks.test.ts runs the real ones, with two instances.
 */

/** The claims table, in memory and on the fake clock. */
class MemoryClaims implements TaskClaims {
  readonly rows = new Map<string, { until: number; holder: string | null; fullStart: number | null }>();
  /** While set, release waits for it: a request can arrive while a run lets go of its claim. */
  releaseGate: Promise<void> | null = null;

  async claim(name: string, holder: string, options: { leaseMs: number; spacingMs: number | null; full: boolean }) {
    const now = Date.now();
    const row = this.rows.get(name) ?? { until: -Infinity, holder: null, fullStart: null };
    if (row.until >= now) return false;
    if (options.spacingMs !== null && row.fullStart !== null && row.fullStart > now - options.spacingMs) return false;
    this.rows.set(name, { until: now + options.leaseMs, holder, fullStart: options.full ? now : row.fullStart });
    return true;
  }

  async renew(name: string, holder: string, leaseMs: number) {
    const row = this.rows.get(name);
    if (row?.holder !== holder) return false;
    row.until = Date.now() + leaseMs;
    return true;
  }

  async release(name: string, holder: string) {
    await this.releaseGate;
    const row = this.rows.get(name);
    if (row?.holder === holder) Object.assign(row, { until: -Infinity, holder: null });
  }

  /** Another instance takes the task, as if it were running it, until `free`. */
  holdElsewhere(name: string) {
    this.rows.set(name, {
      until: Infinity,
      holder: 'outra-instancia',
      fullStart: this.rows.get(name)?.fullStart ?? null,
    });
    return { free: () => this.release(name, 'outra-instancia') };
  }
}

const log = () => {
  const logger = { warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn(), trace: vi.fn(), fatal: vi.fn() };
  return logger as typeof logger & FastifyBaseLogger;
};

/** A promise the test lets go of. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** A task that records each run and, while `hold` is set, waits for it. */
function recorded(overrides: Partial<TaskDefinition<number>> = {}) {
  const runs: { scope: TaskScope; startedAt: number; endedAt?: number }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const state = { hold: null as Promise<void> | null, runs, mostAtOnce: () => mostAtOnce };
  const task: TaskDefinition<number> = {
    name: 'saude',
    claim: 'cluster',
    everyMs: 0,
    firstAfterMs: null,
    run: async (scope) => {
      const run: (typeof runs)[number] = { scope, startedAt: Date.now() };
      runs.push(run);
      mostAtOnce = Math.max(mostAtOnce, ++running);
      try {
        await state.hold;
      } finally {
        running -= 1;
        run.endedAt = Date.now();
      }
      return runs.length;
    },
    ...overrides,
  };
  return { task, ...state, state };
}

/** Lets every promise settle, the clock standing still. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('the background task runner', () => {
  let claims: MemoryClaims;
  let runner: TaskRunner;
  let logger: ReturnType<typeof log>;

  beforeEach(() => {
    vi.useFakeTimers();
    claims = new MemoryClaims();
    logger = log();
    runner = new TaskRunner({ claims, log: logger, instanceId: 'esta', leaseMs: 60_000, retryMs: 1_000 });
  });
  afterEach(async () => {
    await runner.stop();
    vi.useRealTimers();
  });

  it('runs a task on its interval, after its first delay, over everything', async () => {
    const { task, runs } = recorded({ everyMs: 60_000, firstAfterMs: 2_000 });
    runner.define(task);
    runner.start();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(1);
    // The interval's first tick, 58 s after that run: past the spacing of timed runs (0.9 × 60 s).
    await vi.advanceTimersByTimeAsync(58_000);
    expect(runs).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toHaveLength(4);
    expect(runs.every((r) => r.scope.full)).toBe(true);
  });

  it('skips a timed run another instance ran within the interval, and one it is running', async () => {
    const { task, runs } = recorded({ everyMs: 60_000 });
    runner.define(task);
    // Another instance ran it a moment ago.
    claims.rows.set('saude', { until: -Infinity, holder: null, fullStart: Date.now() + 30_000 });
    runner.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(0);
    const other = claims.holdElsewhere('saude');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(0);
    await other.free();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(1);
  });

  it.each(['cluster', 'instance'] as const)(
    'runs a %s task once at a time: timer ticks during a run are not queued behind it',
    async (claim) => {
      const { task, runs, state, mostAtOnce } = recorded({ everyMs: 1_000, claim });
      const hold = gate();
      state.hold = hold.promise;
      runner.define(task);
      runner.start();
      await vi.advanceTimersByTimeAsync(10_500);
      expect(runs).toHaveLength(1);
      state.hold = null;
      hold.open();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(runs).toHaveLength(2);
      expect(mostAtOnce()).toBe(1);
    },
  );

  it('answers a request during a run with exactly one more run, after it', async () => {
    const { task, runs, state } = recorded();
    const handle = runner.define(task);
    const hold = gate();
    state.hold = hold.promise;
    const first = handle.run();
    await settle();
    expect(runs).toHaveLength(1);
    vi.advanceTimersByTime(5_000);
    const second = handle.run();
    await settle();
    expect(runs).toHaveLength(1);
    state.hold = null;
    hold.open();
    expect(await first).toBe(1);
    // The request made during the first run is answered by the second, which started after it.
    expect(await second).toBe(2);
    expect(runs[1]!.startedAt).toBeGreaterThanOrEqual(runs[0]!.endedAt!);
    await runner.idle();
    expect(runs).toHaveLength(2);
  });

  it('serves every request made during one run with the same one more run, over the targets asked', async () => {
    const { task, runs, state } = recorded();
    const handle = runner.define(task);
    const hold = gate();
    state.hold = hold.promise;
    handle.trigger();
    await settle();
    const answers = [handle.run(['7']), handle.run(['8']), handle.run(['7'])];
    handle.trigger(['9']);
    await settle();
    state.hold = null;
    hold.open();
    expect(await Promise.all(answers)).toEqual([2, 2, 2]);
    await runner.idle();
    expect(runs).toHaveLength(2);
    expect(runs[1]!.scope).toEqual({ full: false, targets: new Set(['7', '8', '9']) });
  });

  it('makes the one more run a full one when a full request is among those waiting', async () => {
    const { task, runs, state } = recorded();
    const handle = runner.define(task);
    const hold = gate();
    state.hold = hold.promise;
    handle.trigger(['1']);
    await settle();
    handle.trigger(['3']);
    handle.trigger();
    await settle();
    state.hold = null;
    hold.open();
    await runner.idle();
    expect(runs.map((r) => r.scope.full)).toEqual([false, true]);
    expect(runs[0]!.scope.targets).toEqual(new Set(['1']));
  });

  it('keeps a request while another instance holds the task, and runs it here once that one lets go', async () => {
    const { task, runs } = recorded();
    const handle = runner.define(task);
    const other = claims.holdElsewhere('saude');
    const answer = handle.run(['5']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toHaveLength(0);
    await other.free();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toHaveLength(1);
    expect(await answer).toBe(1);
    expect(runs[0]!.scope.targets).toEqual(new Set(['5']));
  });

  it('takes over a task whose holder died once its lease has passed', async () => {
    const { task, runs } = recorded();
    const handle = runner.define(task);
    claims.rows.set('saude', { until: Date.now() + 60_000, holder: 'morta', fullStart: null });
    handle.trigger();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toHaveLength(1);
  });

  it('does not drop a request made as a run ends, whatever the moment', async () => {
    const { task, runs } = recorded({ claim: 'instance' });
    const handle = runner.define(task);
    // Each time a few more turns of the event loop's queue after the run answered, so one lands as the loop ends.
    for (let turns = 0; turns < 12; turns++) {
      const again = handle.run().then(async () => {
        for (let i = 0; i < turns; i++) await Promise.resolve();
        return handle.run();
      });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await again).toBe(2 * (turns + 1));
    }
    expect(runs).toHaveLength(24);
  });

  it('does not drop a request that arrives while a run lets go of its claim', async () => {
    const { task, runs } = recorded();
    const handle = runner.define(task);
    const release = gate();
    claims.releaseGate = release.promise;
    handle.trigger();
    await settle();
    expect(runs).toHaveLength(1);
    // The run has ended and is releasing its claim.
    handle.trigger();
    claims.releaseGate = null;
    release.open();
    await vi.advanceTimersByTimeAsync(1_000);
    await runner.idle();
    expect(runs).toHaveLength(2);
  });

  it('renews its claim while a run lasts, so no other instance takes a long run over', async () => {
    const { task, state } = recorded();
    const hold = gate();
    state.hold = hold.promise;
    runner.define(task).trigger();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(await claims.claim('saude', 'outra', { leaseMs: 60_000, spacingMs: null, full: true })).toBe(false);
    state.hold = null;
    hold.open();
    await runner.idle();
    expect(await claims.claim('saude', 'outra', { leaseMs: 60_000, spacingMs: null, full: true })).toBe(true);
  });

  it('runs an instance task without any claim, on every instance', async () => {
    const { task, runs } = recorded({ claim: 'instance' });
    claims.holdElsewhere('saude');
    await runner.define(task).run();
    expect(runs).toHaveLength(1);
  });

  it('logs a failed run, rejects whoever waits for it, and runs again when asked', async () => {
    let fail = true;
    const handle = runner.define({
      name: 'limpeza',
      claim: 'cluster',
      everyMs: 0,
      firstAfterMs: null,
      run: async () => {
        if (fail) throw new Error('banco fora do ar');
        return 'ok';
      },
    });
    await expect(handle.run()).rejects.toThrow('banco fora do ar');
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ tarefa: 'limpeza' }),
      'tarefa em segundo plano falhou',
    );
    fail = false;
    expect(await handle.run()).toBe('ok');
  });

  it('stops: waits for the run under way, refuses what waited, and runs nothing more', async () => {
    const { task, runs, state } = recorded({ everyMs: 1_000 });
    const handle = runner.define(task);
    runner.start();
    const hold = gate();
    state.hold = hold.promise;
    handle.trigger();
    await settle();
    const refused = expect(handle.run()).rejects.toBeInstanceOf(TaskStopped);
    let stopped = false;
    const stop = runner.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stopped).toBe(false);
    await refused;
    state.hold = null;
    hold.open();
    await stop;
    await expect(handle.run()).rejects.toBeInstanceOf(TaskStopped);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toHaveLength(1);
    // The claim was let go of: another instance may run it at once.
    expect(await claims.claim('saude', 'outra', { leaseMs: 60_000, spacingMs: null, full: true })).toBe(true);
  });

  it('tells the run that the runner is stopping, so a long one may end early', async () => {
    let aborted = false;
    const handle = runner.define({
      name: 'envios',
      claim: 'instance',
      everyMs: 0,
      firstAfterMs: null,
      run: (_scope, signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          }),
        ),
    });
    handle.trigger();
    await settle();
    await runner.stop();
    expect(aborted).toBe(true);
  });
});
