// One part of npm run bench, in a process of its own (bench/run.ts starts it): a part then runs on a fresh heap,
// with none of the earlier parts' databases, servers and garbage in the process that also serves the web app.
// Writes its rows as JSON to the file named last; a throw becomes an error row, as in run.ts.
//
//   node --import tsx bench/part.ts <api-pglite|api-postgres|groups|groups-pglite|groups-postgres|subscriptions|subscriptions-graph|capacity|web|startup> <rows.json> [--quick]
import { writeFileSync } from 'node:fs';
import { benchApi } from './api.ts';
import { benchCapacity } from './capacity.ts';
import { benchGroups } from './groups.ts';
import { errorRow, type BenchRow } from './report.ts';
import { benchStartup, POSTGRES_ADMIN_URL, postgresReachable, withScratchDatabase } from './startup.ts';
import { benchSubscriptions } from './subscriptions.ts';
import { benchSubscriptionsGraph } from './subscriptions-graph.ts';
import { benchWeb } from './web.ts';

const PARTS: Record<string, () => Promise<BenchRow[]>> = {
  'api-pglite': () => benchApi({}),
  'api-postgres': () => withScratchDatabase('api', (databaseUrl) => benchApi({ databaseUrl })),
  // Access by group on PGlite, then on PostgreSQL when one answers (run.ts runs the two apart).
  groups: async () => [
    ...(await benchGroups({})),
    ...((await postgresReachable())
      ? await withScratchDatabase('groups', (databaseUrl) => benchGroups({ databaseUrl }))
      : [
          {
            figure: 'Acesso por grupo no PostgreSQL',
            value: `não medido: nada responde em ${new URL(POSTGRES_ADMIN_URL).host}`,
            budget: '—',
            ok: true,
          },
        ]),
  ],
  'groups-pglite': () => benchGroups({}),
  'groups-postgres': () => withScratchDatabase('groups', (databaseUrl) => benchGroups({ databaseUrl })),
  // Two instances on one database: PostgreSQL only (run.ts runs it when one answers).
  subscriptions: () => withScratchDatabase('subscriptions', (databaseUrl) => benchSubscriptions(databaseUrl)),
  'subscriptions-graph': () =>
    withScratchDatabase('subscriptions_graph', (databaseUrl) => benchSubscriptionsGraph(databaseUrl)),
  capacity: () => benchCapacity(),
  web: () => benchWeb(),
  startup: benchStartup,
};

const [name, out] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const part = name === undefined ? undefined : PARTS[name];
if (!part || !out) {
  console.error(`uso: bench/part.ts <${Object.keys(PARTS).join('|')}> <rows.json> [--quick]`);
  process.exit(2);
}
let rows: BenchRow[];
try {
  rows = await part();
} catch (error) {
  console.error(error);
  rows = [errorRow(name!, '—', error)];
}
writeFileSync(out, JSON.stringify(rows));
process.exit(0);
