// The budgets for '/uso', measured by benchApi on its seeded database and running portal: a year of views
// (USAGE_SIZES) is written straight into the table, then each call behind '/uso' is asked for one at a time, for
// each period, and its p95 is held against USAGE_P95_MS. The first answer of the day (which reads the past days
// into memory, modules/usage/usage-snapshot.ts) is reported apart, without a budget. Before that, the cost of
// recording an opening that repeats no other: queueing it (timed over many) plus its share of the batched writes.
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.ts';
import type { OpeningRecorder } from '../apps/api/src/modules/usage/usage.ts';
import { forgetUsageSnapshots } from '../apps/api/src/modules/usage/usage.ts';
import { RECORD_VIEW_MS, SIZES, USAGE_P95_MS, USAGE_SIZES } from './budgets.ts';
import { errorRow, formatNumber, quick, type BenchRow } from './report.ts';

const REQUESTS_PER_PERIOD = quick ? 2 : 10;
const PERIODS = [7, 30, 90];

const ms = (value: number) => `${formatNumber(value, value < 10 ? 1 : 0)} ms`;

/** A year of views by USAGE_SIZES.people of the seeded users over every panel, with load times and some errors. */
export async function seedOpenings(db: Db): Promise<{ views: number; seconds: number }> {
  const started = Date.now();
  const views = quick ? 20_000 : USAGE_SIZES.views;
  await db.execute(sql`truncate visualizacoes, ultimos_logins`);
  await db.execute(sql`
    insert into visualizacoes (id, momento, usuario_id, painel_id, identidade, papeis, request_id, token_do_cache,
                               carregado_ms, renderizado_ms, erros)
    select gen_random_uuid(), now() - random() * interval '365 days', 'bench-' || (1 + (g::bigint * 7919) % ${USAGE_SIZES.people}),
           1 + (g::bigint * 104729) % ${SIZES.panels}, null, '{}', gen_random_uuid()::text, g % 5 <> 0,
           800 + (random() * 4000)::int, 1200 + (random() * 6000)::int,
           case when g % 97 = 0 then array['Erro de teste'] else '{}' end
    from generate_series(1, ${views}) g`);
  // Most people signed in at some point in the last half year.
  await db.execute(sql`
    insert into ultimos_logins (usuario_id, momento)
    select id, now() - random() * interval '180 days' from usuarios where random() < 0.7`);
  await db.execute(sql`analyze visualizacoes`);
  forgetUsageSnapshots(db);
  return { views, seconds: (Date.now() - started) / 1000 };
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;

export async function benchUsage(options: {
  db: Db;
  engine: string;
  portalBase: string;
  headers: Record<string, string>;
  recorder: OpeningRecorder;
  /** Views recorded and written during the API's runs (opening panels under load), before this part. */
  get: (url: string, headers: Record<string, string>) => Promise<{ status: number }>;
}): Promise<BenchRow[]> {
  const { db, engine, portalBase, headers, recorder, get } = options;
  const rows: BenchRow[] = [];

  // Recording, as it went while one person opened one panel under load (repeats within a batch are counted on
  // one row): openings recorded, rows written.
  await recorder.flush();
  const load = { ...recorder.stats };
  // Then its cost when no opening repeats another: distinct people and panels, queued (timed one by one over
  // many), then written (their batches timed).
  const distinct = quick ? 1_000 : 20_000;
  const started = performance.now();
  for (let i = 0; i < distinct; i++) {
    recorder.record({
      usuarioId: `bench-${1 + (i % USAGE_SIZES.people)}`,
      painelId: 1 + (i % SIZES.panels),
      identidade: null,
      papeis: [],
      requestId: null,
      tokenDoCache: true,
    });
  }
  const queueMs = (performance.now() - started) / distinct;
  await recorder.flush();
  const rowsWritten = recorder.stats.written - load.written;
  const writeMs = rowsWritten ? (recorder.stats.writeMs - load.writeMs) / rowsWritten : Infinity;
  const perView = queueMs + writeMs;
  rows.push({
    figure: `Registrar uma abertura de painel (${engine})`,
    value:
      `${formatNumber(perView * 1000, 0)} µs por abertura distinta (fila ${formatNumber(queueMs * 1000, 1)} µs + ` +
      `gravação em lote ${formatNumber(writeMs * 1000, 0)} µs, ${formatNumber(rowsWritten)} linhas); sob carga, ` +
      `${formatNumber(load.recorded)} aberturas em ${formatNumber(load.written)} linhas`,
    budget: `≤ ${ms(RECORD_VIEW_MS)}`,
    ok: rowsWritten === distinct && perView <= RECORD_VIEW_MS,
  });

  const seeded = await seedOpenings(db);
  console.log(
    `api (${engine}): ${formatNumber(seeded.views)} visualizações de ${USAGE_SIZES.people} pessoas em um ano, semeadas em ${seeded.seconds.toFixed(1)} s`,
  );

  const calls = [
    { name: 'GET /api/uso/por-dia', path: (dias: number) => `/api/uso/por-dia?dias=${dias}` },
    { name: 'GET /api/uso/paineis', path: (dias: number) => `/api/uso/paineis?dias=${dias}` },
    { name: 'GET /api/uso/paineis/{id}', path: (dias: number) => `/api/uso/paineis/7?dias=${dias}` },
    { name: 'GET /api/uso/sem-login', path: (dias: number) => `/api/uso/sem-login?dias=${dias}` },
  ];
  try {
    const first = performance.now();
    const answer = await get(`${portalBase}/api/uso/paineis?dias=90`, headers);
    if (answer.status !== 200) throw new Error(`/api/uso/paineis respondeu ${answer.status}`);
    rows.push({
      figure: `/uso: primeira resposta do dia (lê 90 dias para a memória) (${engine})`,
      value: ms(performance.now() - first),
      budget: '—',
      ok: true,
    });
  } catch (error) {
    rows.push(errorRow(`/uso: primeira resposta do dia (${engine})`, '—', error));
  }
  for (const call of calls) {
    const figure = `${call.name}, 1 ano de visualizações: p95 (${engine})`;
    const budget = `≤ ${ms(USAGE_P95_MS)}`;
    try {
      const times: number[] = [];
      for (const dias of PERIODS) {
        for (let i = 0; i < REQUESTS_PER_PERIOD; i++) {
          const t = performance.now();
          const answer = await get(portalBase + call.path(dias), headers);
          if (answer.status !== 200) throw new Error(`${call.path(dias)} respondeu ${answer.status}`);
          times.push(performance.now() - t);
        }
      }
      const value = `${ms(p95(times))} (mediana ${ms([...times].sort((a, b) => a - b)[times.length >> 1]!)}, ${times.length} pedidos, 7/30/90 dias)`;
      rows.push({ figure, value, budget, ok: p95(times) <= USAGE_P95_MS });
      console.log(`api: ${figure} ${value}`);
    } catch (error) {
      rows.push(errorRow(figure, budget, error));
    }
  }
  return rows;
}
