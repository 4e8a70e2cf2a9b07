// The Microsoft stand-ins (Entra ID, Graph, Power BI REST and the embed host page) as a process of their own, for the
// journeys against the API configured for Microsoft. Run: node --import tsx e2e/microsoft/stand-ins-server.ts
import { startStandIns } from '@paineis/microsoft-stand-ins/stand-ins';
import { demoDirectory, demoReports } from '../../apps/api/src/demo/demo-directory.ts';

const standIns = await startStandIns({
  people: demoDirectory(),
  reports: demoReports(),
  port: Number(process.env.E2E_MS_PORT),
  embedTokenLifetimeSeconds: Number(process.env.E2E_EMBED_TOKEN_SECONDS ?? 15),
});
process.stdout.write(`Stand-ins da Microsoft em ${standIns.authorityHost} (emissor ${standIns.issuer})\n`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    standIns.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
