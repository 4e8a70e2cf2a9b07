// The capacity's cost (docs/decisions/024-capacity-cost.md): the demo's 90 days of panel openings replayed on a fake
// clock through the portal's own CapacityControl, its own Azure client and the Azure Resource Manager stand-in, with
// the default policy (weekdays 08:00–19:00 in São Paulo, a pause after 30 idle minutes outside them, anyone wakes it by
// opening a panel). The rule runs once a minute, as the task 'capacidade' does; an opening asks forOpening, as the
// opening route does, and one told to wait asks again after its Retry-After, as the viewer does. Azure's operations
// take RESUME_S and SUSPEND_S of the fake clock. The bare baseline is the same capacity always on: 24 × 7.
//
// Alone: node --import tsx bench/part.ts capacity <rows.json> [--quick]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { openDatabase, rows } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { loadDemoData } from '../apps/api/src/demo/load-demo-data.ts';
import { CapacityClient, parseCapacityResourceId } from '../apps/api/src/integrations/azure/capacity-client.ts';
import { EntraClient } from '../apps/api/src/integrations/microsoft-identity/entra-client.ts';
import { CapacityControl } from '../apps/api/src/modules/capacity/capacity.ts';
import { DEFAULT_POLICY } from '../apps/api/src/modules/capacity/capacity-policy.ts';
import { startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import type { StandInCapacityState } from '../packages/microsoft-stand-ins/src/types.ts';
import { CAPACITY_BUDGETS } from './budgets.ts';
import { formatNumber, quick, type BenchRow } from './report.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const { resumeSeconds: RESUME_S, suspendSeconds: SUSPEND_S } = CAPACITY_BUDGETS;
/** The replay's last instant: a fixed day, so that two runs replay the same openings (midnight in São Paulo). */
const END = new Date('2026-11-28T03:00:00Z');
/** The demo's history is 90 days; the quick run (CI) replays its last week. */
const DAYS = quick ? 7 : 90;
const PRICE = DEFAULT_POLICY.precoPorHora.A1!;

interface Opening {
  /** When the person first asked. */
  first: number;
  /** When this ask is made (a retry after Retry-After). */
  at: number;
}

export async function benchCapacity(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paineis-bench-capacidade-'));
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const standIns = await startStandIns({
    people: [],
    capacities: [
      {
        subscriptionId: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
        resourceGroup: 'rg',
        name: 'paineisa1',
        kind: 'embedded',
        sku: 'A1',
      },
    ],
    // Operations end when the replay says (settle), on its clock, never on a real timer.
    capacityTimings: { resumeMs: DAY, suspendMs: DAY, scaleMs: DAY },
  });
  try {
    await migrateDatabase(database);
    await loadDemoData(database.db, 300, END);
    const start = END.getTime() - DAYS * DAY;
    const openings = (
      await rows<{ momento: Date | string }>(
        database.db,
        sql`select momento from visualizacoes where momento >= ${new Date(start).toISOString()} order by momento`,
      )
    ).map((r) => new Date(r.momento).getTime());
    // The control's tables start empty, as in a portal just configured with the capacity.
    await database.db.execute(sql`delete from capacidade_historico`);
    await database.db.execute(sql`delete from capacidade`);

    let now = start;
    const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const resource = parseCapacityResourceId(standIns.capacities.resourceId('paineisa1'));
    const entra = new EntraClient({
      tenantId: standIns.tenantId,
      clientId: standIns.clientId,
      clientSecret: standIns.clientSecret,
      authorityHost: standIns.authorityHost,
      graphUrl: standIns.graphUrl,
      powerBiApiUrl: standIns.powerBiApiUrl,
    });
    const control = new CapacityControl(
      database.db,
      new CapacityClient(standIns.managementUrl, entra, resource),
      log,
      () => now,
      { resource, resumeSeconds: RESUME_S, sleep: async () => undefined },
    );

    // Azure's side on the fake clock: an operation the stand-in began ends its duration later.
    const timeline: { at: number; state: StandInCapacityState }[] = [{ at: start, state: 'running' }];
    let began: { state: StandInCapacityState; at: number } | null = null;
    const follow = () => {
      const state = standIns.capacities.state('paineisa1');
      if (state === 'resuming' || state === 'pausing' || state === 'scaling') {
        if (began?.state !== state) began = { state, at: now };
        const seconds = state === 'pausing' ? SUSPEND_S : RESUME_S;
        if (now - began.at >= seconds * 1000) {
          standIns.capacities.settle();
          began = null;
          return follow();
        }
      } else began = null;
      if (timeline.at(-1)!.state !== state) timeline.push({ at: now, state });
    };

    const queue: Opening[] = openings.map((at) => ({ first: at, at }));
    const waits: number[] = [];
    let retries = 0;
    let next = 0;
    const wallStart = performance.now();
    for (let minute = start; minute < END.getTime(); minute += MINUTE) {
      // The openings (and retries) of this minute, in order, then the rule at its end.
      for (;;) {
        queue.sort((a, b) => a.at - b.at);
        const opening = queue[next];
        if (!opening || opening.at >= minute + MINUTE) break;
        next++;
        now = opening.at;
        follow();
        const refused =
          control.servesNow() === true ? null : await control.forOpening({ isAdmin: false, nome: 'replay' });
        follow();
        if (!refused) {
          if (opening.at > opening.first) waits.push(opening.at - opening.first);
          continue;
        }
        retries++;
        queue.push({ first: opening.first, at: opening.at + (refused.retryAfterSeconds ?? RESUME_S) * 1000 });
      }
      now = minute + MINUTE;
      follow();
      await control.tick();
      follow();
    }
    const wallSeconds = (performance.now() - wallStart) / 1000;

    // Hours billed: every hour not paused (pausing, resuming and scaling are billed as Azure bills them).
    let billed = 0;
    timeline.forEach((span, i) => {
      const until = timeline[i + 1]?.at ?? END.getTime();
      if (span.state !== 'paused') billed += until - span.at;
    });
    const totalHours = (END.getTime() - start) / HOUR;
    const billedHours = billed / HOUR;
    const ratio = billedHours / totalHours;
    const longest = waits.length ? Math.max(...waits) / 1000 : 0;
    const resumes = timeline.filter((s) => s.state === 'resuming').length;
    const pauses = timeline.filter((s) => s.state === 'pausing').length;
    const period = `${DAYS} dias, ${formatNumber(openings.length)} aberturas`;
    return [
      {
        figure: `Horas da capacidade ligada: política padrão vs. sempre ligada 24×7 (${period})`,
        value: `${formatNumber(billedHours, 1)} h vs ${formatNumber(totalHours)} h (${formatNumber(ratio * 100, 1)}%); ${resumes} retomadas, ${pauses} pausas`,
        budget: `≤ ${formatNumber(CAPACITY_BUDGETS.hoursRatioMax * 100)}% das horas`,
        ok: ratio <= CAPACITY_BUDGETS.hoursRatioMax,
      },
      {
        figure: `Custo estimado de uma A1 a US$ ${formatNumber(PRICE, 4)}/h: com a política vs. sempre ligada`,
        value: `US$ ${formatNumber(billedHours * PRICE, 2)} vs US$ ${formatNumber(totalHours * PRICE, 2)}; economia de US$ ${formatNumber((totalHours - billedHours) * PRICE, 2)} (${formatNumber((1 - ratio) * 100, 1)}%)`,
        budget: '—',
        ok: true,
      },
      {
        figure: `Maior espera de uma abertura pela retomada (retomada de ${RESUME_S} s no relógio simulado)`,
        value: `${formatNumber(longest)} s; ${formatNumber(waits.length)} aberturas esperaram (${formatNumber((waits.length / Math.max(1, openings.length)) * 100, 2)}%), ${retries} novas tentativas`,
        budget: `≤ ${CAPACITY_BUDGETS.longestWaitSecondsMax} s`,
        ok: longest <= CAPACITY_BUDGETS.longestWaitSecondsMax,
      },
      {
        figure: 'Tempo real da reprodução (regra a cada minuto simulado, pelo Azure do stand-in)',
        value: `${formatNumber(wallSeconds, 1)} s para ${formatNumber(DAYS * 24 * 60)} minutos`,
        budget: '—',
        ok: true,
      },
    ];
  } finally {
    await standIns.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
