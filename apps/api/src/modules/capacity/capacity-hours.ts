import { DateTime } from 'luxon';
import type { Capacidade, EstadoCapacidade } from '@paineis/contract/capacity';

/**
 * The month's hours and cost of the capacity, counted from its history: pure, so that the benchmark replays a fake
 * clock through the same arithmetic as GET /capacidade.
 */

/** A change of state, as the history keeps it. */
export interface StateChange {
  em: Date;
  estado: EstadoCapacidade;
  sku: string | null;
}

export interface MonthInput {
  /** Oldest first; the last change before the month, when there is one, gives the state the month began in. */
  changes: readonly StateChange[];
  now: Date;
  /** The policy's time zone: the month and its days are local to it. */
  fusoHorario: string;
  /** Price per hour of each SKU; a SKU without a price costs 0. */
  precoPorHora: Readonly<Record<string, number>>;
  /** The SKU now, for the time before the first change known. */
  skuAtual: string | null;
}

export type MonthHours = Capacidade['mes'];

/**
 * Azure bills a capacity for every hour it is not paused: 'ativa', 'retomando' and 'escalando', and also the short
 * 'pausando', a failed capacity, and time whose state is unknown (before the first reading, or while Azure could not
 * be asked). Counting those as billed keeps the estimate from claiming a saving nobody knows was made.
 */
export const isBilled = (estado: EstadoCapacidade) => estado !== 'pausada';

const HOUR = 3_600_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Where the month begins (the first of the month, 00:00, local), as an instant. */
export const monthStart = (now: Date, zone: string): DateTime => DateTime.fromJSDate(now, { zone }).startOf('month');

/**
 * Hours running and paused this month until `now`, per local day, and their cost: each stretch of a state costs its
 * hours × the price of the SKU it ran on when billed; always on, every hour would have cost that price.
 */
export function monthHours(input: MonthInput): MonthHours {
  const { now, fusoHorario: zone, precoPorHora } = input;
  const start = monthStart(now, zone);
  const end = DateTime.fromJSDate(now, { zone });
  const price = (sku: string | null) => (sku === null ? 0 : (precoPorHora[sku] ?? 0));

  const before = input.changes.filter((c) => c.em.getTime() <= start.toMillis()).at(-1);
  const within = input.changes.filter((c) => c.em.getTime() > start.toMillis() && c.em.getTime() < now.getTime());
  const firstSku = input.changes.find((c) => c.sku !== null)?.sku ?? input.skuAtual;
  let current: StateChange = before ?? { em: start.toJSDate(), estado: 'desconhecida', sku: firstSku };

  const days = new Map<string, { horasAtiva: number; custo: number }>();
  for (let day = start; day <= end; day = day.plus({ days: 1 })) {
    days.set(day.toISODate()!, { horasAtiva: 0, custo: 0 });
  }
  let billedHours = 0;
  let pausedHours = 0;
  let cost = 0;
  let alwaysOnCost = 0;

  /** Adds the stretch [from, to) in one state, cut at local midnights. */
  const add = (from: DateTime, to: DateTime, change: StateChange) => {
    for (let a = from; a < to;) {
      const midnight = a.startOf('day').plus({ days: 1 });
      const b = midnight < to ? midnight : to;
      const hours = (b.toMillis() - a.toMillis()) / HOUR;
      const skuPrice = price(change.sku ?? input.skuAtual);
      alwaysOnCost += hours * skuPrice;
      if (isBilled(change.estado)) {
        billedHours += hours;
        cost += hours * skuPrice;
        const day = days.get(a.toISODate()!);
        if (day) {
          day.horasAtiva += hours;
          day.custo += hours * skuPrice;
        }
      } else {
        pausedHours += hours;
      }
      a = b;
    }
  };

  let from = start;
  for (const change of within) {
    const at = DateTime.fromJSDate(change.em, { zone });
    add(from, at, current);
    current = change.sku === null && current.sku !== null ? { ...change, sku: current.sku } : change;
    from = at;
  }
  add(from, end, current);

  return {
    mes: start.toFormat('yyyy-MM'),
    horasAtiva: round2(billedHours),
    horasPausada: round2(pausedHours),
    custoEstimado: round2(cost),
    custoSempreAtiva: round2(alwaysOnCost),
    economia: round2(alwaysOnCost - cost),
    dias: [...days].map(([dia, d]) => ({ dia, horasAtiva: round2(d.horasAtiva), custo: round2(d.custo) })),
  };
}
