import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/context.ts';
import { createAdmin } from '../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../test/microsoft.ts';
import { rows } from '../db/client.ts';
import { recordMicrosoftSignIn } from '../modules/users/users.service.ts';
import { DEMO_ADMIN, DEMO_GUEST, DEMO_USER, loadDemoData } from './demo-data.ts';
import { demoDirectory, demoReports } from './demo-directory.ts';

/** The demo's directory, as the stand-ins serve it in demo mode, over the demo data (docs/decisions/013). */
describe('the demo directory', () => {
  const standIns = useStandIns({ people: demoDirectory(), reports: demoReports() });
  const ctx = useTestApp(() => ({ config: microsoftConfig(standIns.current) }));

  it('is the demo data’s people, some with a UPN that is not their mail, and a guest', async () => {
    const directory = demoDirectory();
    expect(directory.filter((p) => p.userPrincipalName !== p.mail).length).toBeGreaterThanOrEqual(10);
    expect(directory.filter((p) => p.userType === 'Guest')).toEqual([
      expect.objectContaining({
        id: DEMO_GUEST.id,
        mail: 'marina.costa@fornecedor.com.br',
        userPrincipalName: 'marina.costa_fornecedor.com.br#EXT#@contoso.onmicrosoft.com',
        emailClaim: 'mcosta@fornecedor.com.br',
      }),
    ]);
    // The demo's own accounts keep their mail as UPN, so their RLS identity is the same whichever way they sign in.
    for (const user of [DEMO_ADMIN, DEMO_USER]) {
      expect(directory.find((p) => p.id === user.id)).toMatchObject({
        mail: user.email,
        userPrincipalName: user.email,
      });
    }

    await loadDemoData(ctx.db);
    const seeded = new Set((await rows<{ id: string }>(ctx.db, sql`select id from usuarios`)).map((u) => u.id));
    expect(directory.every((p) => seeded.has(p.id))).toBe(true);
  });

  it('lets the demo’s people sign in with Microsoft: Graph knows them by the demo’s own ids', async () => {
    await loadDemoData(ctx.db);
    const signIn = (id: string, appRoles: string[]) =>
      recordMicrosoftSignIn(ctx.db, ctx.app.graph!, { oid: id, appRoles }, [], ctx.app.log);
    expect(await signIn(DEMO_ADMIN.id, ['Admin'])).toEqual({
      user: expect.objectContaining({ id: DEMO_ADMIN.id, email: DEMO_ADMIN.email, role: 'Admin' }),
    });
    expect(await signIn(DEMO_USER.id, [])).toEqual({
      user: expect.objectContaining({ id: DEMO_USER.id, email: DEMO_USER.email, department: 'Comercial' }),
    });
    expect(await signIn(DEMO_GUEST.id, [])).toEqual({
      user: expect.objectContaining({ id: DEMO_GUEST.id, email: DEMO_GUEST.email, role: 'User' }),
    });
  });

  it('brings the UPNs and the guest’s type in at the sync, and the guest opens her panel with her UPN', async () => {
    await loadDemoData(ctx.db);
    const admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    expect((await ctx.request('POST', '/api/usuarios365/sincronizar', { token: admin })).statusCode).toBe(200);
    const [guest] = await rows(ctx.db, sql`select email, upn, tipo from usuarios where id = ${DEMO_GUEST.id}`);
    expect(guest).toEqual({
      email: 'marina.costa@fornecedor.com.br',
      upn: 'marina.costa_fornecedor.com.br#EXT#@contoso.onmicrosoft.com',
      tipo: 'Guest',
    });
    const [differing] = await rows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from usuarios where tipo = 'Member' and upn like '%@contoso.onmicrosoft.com'`,
    );
    expect(differing!.n).toBeGreaterThanOrEqual(10);

    const token = await ctx.tokenFor({ ...DEMO_GUEST, role: 'User' });
    const [panel] = await rows<{ id: number }>(
      ctx.db,
      sql`select id from paineis where nome_painel = 'Vendas por Região'`,
    );
    expect((await ctx.request('GET', `/api/paineis/${panel!.id}`, { token })).statusCode).toBe(200);
    const [generated] = standIns.current.powerBi.requests.filter((r) => r.path === '/v1.0/myorg/GenerateToken');
    expect((generated!.body as { identities: unknown[] }).identities).toEqual([
      expect.objectContaining({
        username: 'marina.costa_fornecedor.com.br#EXT#@contoso.onmicrosoft.com',
        roles: ['Vendedor'],
      }),
    ]);
  });
});
