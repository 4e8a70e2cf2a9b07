/** One line of the benchmark's table: what was measured, its figure, the budget it is held to, and the verdict. */
export interface BenchRow {
  figure: string;
  value: string;
  budget: string;
  ok: boolean;
}

/** Whether this run only checks that the benchmark still works (CI): short runs, budgets reported, not enforced. */
export const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export function printTable(title: string, rows: BenchRow[]): void {
  const width = Math.max(...rows.map((r) => r.figure.length), 10);
  console.log(`\n${title}\n`);
  console.log(`| ${'figura'.padEnd(width)} | medido | orçamento | resultado |`);
  console.log(`|${'-'.repeat(width + 2)}|---|---|---|`);
  for (const r of rows)
    console.log(`| ${r.figure.padEnd(width)} | ${r.value} | ${r.budget} | ${r.ok ? 'ok' : 'FALHOU'} |`);
}
