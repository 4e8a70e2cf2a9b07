import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SaudePainel } from '@paineis/contract/power-bi';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { buildApp, type App } from '../src/app.ts';
import { rows } from '../src/db/client.ts';
import { DatabaseTaskClaims } from '../src/tasks/task-claims.repository.ts';
import { TaskRunner, type TaskDefinition } from '../src/tasks/task-runner.ts';
import { useTestApp } from './context.ts';
import { eventually } from './eventually.ts';
import { createAdmin, panelOver } from './fixtures.ts';
import { microsoftConfig, useStandIns } from './microsoft.ts';

/**
 * Background tasks on two instances of the API over one database (docs/decisions/021-background-tasks.md), on
 * PostgreSQL and on PGlite alike: two runners, or two apps, each its own instance in the claims of `tarefas`. A cluster
 * task runs on one instance at a time, and a request on one instance while the other runs the task is served by a run
 * after that one's.
 */

/** A promise the test lets go of. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('a cluster task on two instances sharing one database', () => {
  const ctx = useTestApp();
  const runners: TaskRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });

  /** What the task did, on which instance, in order. */
  let events: string[];
  let running: number;
  let mostAtOnce: number;
  beforeEach(() => {
    events = [];
    running = 0;
    mostAtOnce = 0;
  });

  function instance(
    name: string,
    hold: () => Promise<void> = async () => undefined,
    overrides: Partial<TaskDefinition<string>> = {},
  ) {
    const runner = new TaskRunner({
      claims: new DatabaseTaskClaims(ctx.db),
      log: ctx.app.log,
      instanceId: name,
      retryMs: 20,
      leaseMs: 3_000,
    });
    runners.push(runner);
    const handle = runner.define<string>({
      name: 'saude',
      claim: 'cluster',
      everyMs: 0,
      firstAfterMs: null,
      run: async () => {
        events.push(`${name}:início`);
        mostAtOnce = Math.max(mostAtOnce, ++running);
        try {
          await hold();
        } finally {
          running -= 1;
          events.push(`${name}:fim`);
        }
        return name;
      },
      ...overrides,
    });
    return { runner, handle };
  }

  it('runs it on one instance at a time, and serves the requests of both', async () => {
    const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 5));
    const a = instance('a', pause);
    const b = instance('b', pause);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).handle.run()));
    // Each request is served on its own instance, by a run that started after it.
    expect(answers).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
    expect(mostAtOnce).toBe(1);
    expect(events.filter((e) => e.endsWith('início')).length).toBeGreaterThanOrEqual(2);
  });

  it('serves a request on B, made while A runs the task, with a run on B after A’s', async () => {
    const held = gate();
    const a = instance('a', () => held.promise);
    const b = instance('b');
    a.handle.trigger();
    await eventually(() => expect(events).toEqual(['a:início']));
    const onB = b.handle.run();
    // B waits for A's claim, however long A runs.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events).toEqual(['a:início']);
    held.open();
    expect(await onB).toBe('b');
    expect(events).toEqual(['a:início', 'a:fim', 'b:início', 'b:fim']);
    expect(mostAtOnce).toBe(1);
  });

  it('runs a timed round once for both instances, however many start it', async () => {
    const a = instance('a', undefined, { everyMs: 60_000, firstAfterMs: 0 });
    const b = instance('b', undefined, { everyMs: 60_000, firstAfterMs: 0 });
    a.runner.start();
    b.runner.start();
    await Promise.all([a.runner.idle(), b.runner.idle()]);
    expect(events).toHaveLength(2);
    // Asked for, it runs whatever the interval.
    await b.handle.run();
    expect(events).toHaveLength(4);
  });

  it('takes the task over from an instance that died holding it, once its lease has passed', async () => {
    await ctx.db.execute(
      sql`insert into tarefas (nome, ocupada_ate, ocupada_por)
          values ('saude', now() + interval '300 milliseconds', 'instancia-morta')`,
    );
    const b = instance('b');
    const started = performance.now();
    expect(await b.handle.run()).toBe('b');
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(await rows(ctx.db, sql`select ocupada_por from tarefas where nome = 'saude'`)).toEqual([
      { ocupada_por: null },
    ]);
  });
});

const WS = '0a0a0a0a-0000-4000-8000-00000000d001';
const vendas: StandInReport = {
  workspaceId: WS,
  reportId: '0b0b0b0b-0000-4000-8000-00000000d001',
  name: 'Vendas',
  datasetId: '0c0c0c0c-0000-4000-8000-00000000d001',
  rls: false,
};

describe('the health check on two apps sharing one database', () => {
  const standIns = useStandIns({ people: [], reports: [vendas] });
  const HELD_MS = 1_500;
  const deps = () => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { timeoutMs: HELD_MS, sleep: async () => undefined },
    tasks: { retryMs: 50 },
  });
  const ctx = useTestApp(deps);
  let other: App;
  beforeEach(async () => {
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports([vendas]);
    other = await buildApp({ ...deps(), database: ctx.database, ownsDatabase: false, logger: false });
    await other.ready();
  });
  afterEach(async () => {
    await other.close();
  });

  it('checks a panel created on B while A runs a round, after A’s round, and lists it on both', async () => {
    const admin = await ctx.tokenFor(await createAdmin(ctx.db));
    await panelOver(ctx.db, vendas);
    standIns.current.powerBi.hangNext();
    const pageCalls = () => standIns.current.powerBi.requests.filter((r) => r.path.endsWith('/pages'));
    const roundOnA = ctx.app.panelHealth!.run();
    await eventually(() => expect(pageCalls()).toHaveLength(1));
    const created = await other.inject({
      method: 'POST',
      url: '/api/paineis',
      headers: { authorization: `Bearer ${admin}` },
      payload: { nomePainel: 'Sem relatório', workspaceId: WS, reportId: randomUUID() },
    });
    expect(created.statusCode).toBe(201);
    const painelId = created.json<{ id: number }>().id;
    const asked = performance.now();
    await roundOnA;
    await other.tasks.idle();
    // B's check came after A's round, which held the claim until it ended.
    expect(performance.now() - asked).toBeGreaterThan(HELD_MS / 2);
    for (const app of [ctx.app, other]) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/paineis/saude',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(res.json<SaudePainel[]>().find((h) => h.painelId === painelId)?.estado).toBe('relatorio-nao-encontrado');
    }
  });
});
