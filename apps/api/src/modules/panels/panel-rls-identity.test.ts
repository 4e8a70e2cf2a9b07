import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp, type TestContext } from '../../../test/context.ts';
import { createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { rows } from '../../db/client.ts';
import type { PowerBiEmbeddingService } from '../../integrations/power-bi/power-bi-embedding-service.ts';
import { NO_RLS_ROLE_FOR_PERSON } from './panel-access.ts';

/**
 * The RLS identity comes from the person the directory describes, as stored (docs/decisions/013): their UPN or
 * directory e-mail as the effective identity's username (RLS_USERNAME), and RLS roles that list either address.
 */

const regional: StandInReport = {
  workspaceId: '0a0a0a0a-0000-4000-8000-000000000001',
  reportId: '0b0b0b0b-0000-4000-8000-000000000002',
  name: 'Vendas por Região',
  datasetId: '0c0c0c0c-0000-4000-8000-000000000002',
  rls: true,
};

/** Dani's UPN is not her mail; Caio came from no directory (no UPN); the admin has a UPN of his own. */
async function setUp(ctx: TestContext) {
  const dani = await createUser(ctx.db, {
    email: 'dani@empresa.com.br',
    upn: 'D.Souza@empresa.onmicrosoft.com',
    tipo: 'Member',
  });
  const caio = await createUser(ctx.db, { email: 'caio@empresa.com.br' });
  const admin = await createAdmin(ctx.db, {
    email: 'chefe@empresa.com.br',
    upn: 'chefe.ti@empresa.onmicrosoft.com',
    tipo: 'Member',
  });
  const p = await panel(ctx.db, {
    nomePainel: 'Vendas por Região',
    workspaceId: regional.workspaceId,
    reportId: regional.reportId,
    usaRls: true,
    rlsConfigurations: [
      { roleName: 'Norte', userEmails: ['d.souza@empresa.onmicrosoft.com'] },
      { roleName: 'Sul', userEmails: ['dani@empresa.com.br', 'caio@empresa.com.br'] },
      { roleName: 'Leste', userEmails: ['outra@empresa.com.br'] },
    ],
  });
  await link(ctx.db, p.id, [dani.id, caio.id]);
  return {
    panel: p,
    dani: await ctx.tokenFor(dani),
    caio: await ctx.tokenFor(caio),
    admin: await ctx.tokenFor(admin),
  };
}

function useRlsStandIns(overrides: Record<string, string> = {}) {
  const standIns = useStandIns({ people: [], reports: [regional] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, overrides),
    powerBiOptions: { sleep: async () => undefined },
  }));
  beforeEach(() => {
    standIns.current.powerBi.reset();
    (ctx.app.embedding as PowerBiEmbeddingService).clear();
  });
  /** The effective identities of the GenerateToken calls made, read from what the stand-in Power BI received. */
  const identities = () =>
    standIns.current.powerBi.requests
      .filter((r) => r.path === '/v1.0/myorg/GenerateToken')
      .map((r) => (r.body as { identities?: { username: string; roles: string[] }[] }).identities);
  return { ctx, identities };
}

describe('RLS identity from the directory, with RLS_USERNAME=upn (the default)', () => {
  const { ctx, identities } = useRlsStandIns();

  it('names the person by their UPN, with the roles that list their UPN or their e-mail', async () => {
    const s = await setUp(ctx);
    expect((await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.dani })).statusCode).toBe(200);
    expect(identities()).toEqual([
      [{ username: 'D.Souza@empresa.onmicrosoft.com', roles: ['Norte', 'Sul'], datasets: [regional.datasetId] }],
    ]);
    // The view's record keeps the identity the token carried.
    await ctx.app.openingRecorder.flush();
    expect(await rows(ctx.db, sql`select identidade, papeis from visualizacoes`)).toEqual([
      { identidade: 'D.Souza@empresa.onmicrosoft.com', papeis: ['Norte', 'Sul'] },
    ]);
  });

  it('names a person without a UPN (a local account, demo data) by their e-mail', async () => {
    const s = await setUp(ctx);
    expect((await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.caio })).statusCode).toBe(200);
    expect(identities()).toEqual([
      [{ username: 'caio@empresa.com.br', roles: ['Sul'], datasets: [regional.datasetId] }],
    ]);
  });

  it('names an administrator previewing a role by their UPN too', async () => {
    const s = await setUp(ctx);
    const res = await ctx.request('GET', `/api/paineis/${s.panel.id}?papel=leste`, { token: s.admin });
    expect(res.statusCode).toBe(200);
    expect(identities()).toEqual([
      [{ username: 'chefe.ti@empresa.onmicrosoft.com', roles: ['Leste'], datasets: [regional.datasetId] }],
    ]);
  });

  it('follows the stored person: a new UPN from the directory is the next token’s username and role match', async () => {
    const s = await setUp(ctx);
    await ctx.db.execute(
      sql`update usuarios set upn = 'dani.souza@empresa.com.br' where email = 'dani@empresa.com.br'`,
    );
    expect((await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.dani })).statusCode).toBe(200);
    // Norte listed her old UPN only.
    expect(identities()).toEqual([
      [{ username: 'dani.souza@empresa.com.br', roles: ['Sul'], datasets: [regional.datasetId] }],
    ]);
    await ctx.db.execute(sql`update usuarios set email = 'd@empresa.com.br' where email = 'dani@empresa.com.br'`);
    const refused = await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.dani });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: NO_RLS_ROLE_FOR_PERSON });
  });
});

describe('RLS identity from the directory, with RLS_USERNAME=mail', () => {
  const { ctx, identities } = useRlsStandIns({ RLS_USERNAME: 'mail' });

  it('names the person by their directory e-mail, with the same roles', async () => {
    const s = await setUp(ctx);
    expect((await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.dani })).statusCode).toBe(200);
    expect((await ctx.request('GET', `/api/paineis/${s.panel.id}?papel=sul`, { token: s.admin })).statusCode).toBe(200);
    expect(identities()).toEqual([
      [{ username: 'dani@empresa.com.br', roles: ['Norte', 'Sul'], datasets: [regional.datasetId] }],
      [{ username: 'chefe@empresa.com.br', roles: ['Sul'], datasets: [regional.datasetId] }],
    ]);
  });
});
