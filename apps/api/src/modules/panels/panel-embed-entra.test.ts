import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { createUser, link, panel } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { ENTRA_REFUSED, ENTRA_UNAVAILABLE } from '../../plugins/microsoft-error-answers.ts';

/** Opening a panel needs a service-principal token from Entra ID first: its failures have their own answers. */
const WORKSPACE = '0a0a0a0a-0000-4000-8000-000000000009';
const report: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-000000000009',
  name: 'Vendas',
  datasetId: '0c0c0c0c-0000-4000-8000-000000000009',
  rls: false,
};

async function openAsLinkedUser(ctx: ReturnType<typeof useTestApp>) {
  const user = await createUser(ctx.db);
  const p = await panel(ctx.db, { workspaceId: WORKSPACE, reportId: report.reportId });
  await link(ctx.db, p.id, [user.id]);
  return ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(user) });
}

describe('opening a panel when Entra ID refuses the portal’s credentials', () => {
  const standIns = useStandIns({ people: [], reports: [report] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, { AZURE_CLIENT_SECRET: 'um-segredo-que-nao-confere' }),
  }));

  it('answers 502 saying so, and asks Power BI nothing', async () => {
    const res = await openAsLinkedUser(ctx);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: ENTRA_REFUSED });
    expect(standIns.current.powerBi.requests).toHaveLength(0);
  });
});

describe('opening a panel when Entra ID is out of reach', () => {
  const standIns = useStandIns({ people: [], reports: [report] });
  const ctx = useTestApp(async () => {
    // A port nothing listens on, for Entra only: discovery and tokens fail to connect.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    return { config: microsoftConfig(standIns.current, { AZURE_AUTHORITY_HOST: `http://127.0.0.1:${port}` }) };
  });

  it('answers 503 with a Portuguese message, not a 500', async () => {
    const res = await openAsLinkedUser(ctx);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: ENTRA_UNAVAILABLE });
  });
});
