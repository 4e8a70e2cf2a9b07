import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One line of the benchmark's table: what was measured, its figure, the budget it is held to, and the verdict. */
export interface BenchRow {
  figure: string;
  value: string;
  budget: string;
  ok: boolean;
  /**
   * Set when the figure could not be measured (a crash, a page that never showed its rows, a non-2xx answer):
   * such a row fails the run even in quick mode, where a missed budget is only reported.
   */
  error?: string;
}

/** Whether this run only checks that the benchmark still works (CI): short runs, budgets reported, not enforced. */
export const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export function printTable(title: string, rows: BenchRow[]): void {
  const width = Math.max(...rows.map((r) => r.figure.length), 10);
  console.log(`\n${title}\n`);
  console.log(`| ${'figura'.padEnd(width)} | medido | orçamento | resultado |`);
  console.log(`|${'-'.repeat(width + 2)}|---|---|---|`);
  for (const r of rows)
    console.log(
      `| ${r.figure.padEnd(width)} | ${r.error ? `erro: ${r.error}` : r.value} | ${r.budget} | ${r.error ? 'ERRO' : r.ok ? 'ok' : 'FALHOU'} |`,
    );
}

/** A row for a figure that could not be measured. */
export function errorRow(figure: string, budget: string, error: unknown): BenchRow {
  const message = error instanceof Error ? error.message : String(error);
  return { figure, value: '—', budget, ok: false, error: message.split('\n')[0]!.slice(0, 300) };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** 1234.5 → '1.235' (pt-BR thousands), for the figures people read. */
export const formatNumber = (value: number, digits = 0) =>
  value.toLocaleString('pt-BR', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Builds the web app and the API when a source changed since the last build (or there is none). */
export function ensureBuilt(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-changed'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error('o build falhou (node scripts/build.mjs --if-changed)');
}
