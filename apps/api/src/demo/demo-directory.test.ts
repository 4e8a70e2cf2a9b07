import { sql } from 'drizzle-orm';
import { appToken } from '@paineis/microsoft-stand-ins/test-helpers';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/context.ts';
import { createAdmin } from '../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../test/microsoft.ts';
import { rows } from '../db/client.ts';
import { recordMicrosoftSignIn } from '../modules/users/users.service.ts';
import { DEMO_ADMIN, DEMO_GUEST, DEMO_USER } from './demo-data.ts';
import { loadDemoData } from './load-demo-data.ts';
import { demoDirectory, demoGroupId, demoGroups, demoReports } from './demo-directory.ts';

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

/** The demo's Entra groups, as the stand-in Graph serves them in demo mode. */
describe('the demo groups', () => {
  const standIns = useStandIns({ people: demoDirectory(), groups: demoGroups() });

  async function graph(path: string): Promise<any> {
    const s = standIns.current;
    const token = await appToken(s, 'https://graph.microsoft.com');
    const response = await fetch(`${s.graphUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status, path).toBe(200);
    return response.json();
  }

  it('are the departments’ security groups, the nested sales teams and a Microsoft 365 group, with stable ids', () => {
    const groups = demoGroups();
    expect(groups.map((g) => g.displayName)).toEqual([
      'Comercial',
      'Comercial - Sul',
      'Comercial - Norte',
      'Financeiro',
      'Diretoria',
      'Tecnologia',
      'Recursos Humanos',
      'Operações',
      'Projeto Expansão',
    ]);
    expect(groups.map((g) => g.id)).toEqual(demoGroups().map((g) => g.id));
    expect(groups.every((g) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/.test(g.id))).toBe(
      true,
    );
    expect(groups.every((g) => !g.appRoles?.length && g.description)).toBe(true);
    expect(groups.find((g) => g.displayName === 'Projeto Expansão')).toMatchObject({
      groupTypes: ['Unified'],
      mailEnabled: true,
      mail: 'projeto.expansao@contoso.com.br',
      // The demo's public group: the screens mark it 'Grupo público: qualquer pessoa pode entrar'.
      visibility: 'Public',
    });
    const people = new Set(demoDirectory().map((p) => p.id));
    const ids = new Set(groups.map((g) => g.id));
    for (const group of groups) {
      expect(group.members.length, group.displayName).toBeGreaterThan(0);
      expect(group.members.every((id) => people.has(id) || ids.has(id))).toBe(true);
    }
    // demo.usuario is a direct member of 'Comercial - Sul' and of nothing else; demo.admin of 'Diretoria'.
    expect(groups.filter((g) => g.members.includes(DEMO_USER.id)).map((g) => g.displayName)).toEqual([
      'Comercial - Sul',
    ]);
    expect(groups.filter((g) => g.members.includes(DEMO_ADMIN.id)).map((g) => g.displayName)).toEqual(['Diretoria']);
  });

  it('put demo.usuario in Comercial - Sul, which is nested in Comercial', async () => {
    const sul = demoGroupId('Comercial - Sul');
    const comercial = demoGroupId('Comercial');
    const direct = await graph(`/v1.0/groups/${sul}/members?$select=id,displayName`);
    expect(direct.value).toContainEqual({
      '@odata.type': '#microsoft.graph.user',
      id: DEMO_USER.id,
      displayName: DEMO_USER.displayName,
    });
    const nested = await graph(`/v1.0/groups/${comercial}/members?$select=id,displayName`);
    expect(nested.value).toContainEqual({
      '@odata.type': '#microsoft.graph.group',
      id: sul,
      displayName: 'Comercial - Sul',
    });
    expect(nested.value.map((m: { id: string }) => m.id)).not.toContain(DEMO_USER.id);
    const transitive = await graph(`/v1.0/groups/${comercial}/transitiveMembers/microsoft.graph.user?$select=id`);
    expect(transitive.value).toContainEqual({ id: DEMO_USER.id });

    const delta = await graph('/v1.0/groups/delta?$select=displayName,members');
    expect(delta.value.map((g: { displayName: string }) => g.displayName)).toContain('Comercial - Sul');
  });
});

/** Access through the demo groups, loaded with the demo data and kept by the first sync. */
describe('access through the demo groups', () => {
  const standIns = useStandIns({ people: demoDirectory(), reports: demoReports(), groups: demoGroups() });
  const ctx = useTestApp(() => ({ config: microsoftConfig(standIns.current) }));

  interface Reason {
    tipo: string;
    grupo?: { nome: string };
    via?: string[];
  }
  interface PersonAccess {
    paineis: {
      nomePainel: string;
      podeAbrir: boolean;
      motivos: Reason[];
      papeisRls: { papel: string; motivos: Reason[] }[];
    }[];
  }

  it('opens panels through groups before and after the first sync, and leaves the demo user’s roles alone', async () => {
    await loadDemoData(ctx.db);
    const admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    const accessOf = async (id: string) => {
      const response = await ctx.request('GET', `/api/usuarios365/${id}/acesso`, { token: admin });
      expect(response.statusCode).toBe(200);
      return response.json<PersonAccess>();
    };
    const panel = (access: PersonAccess, nome: string) => access.paineis.find((p) => p.nomePainel === nome)!;
    const norte = demoGroups().find((g) => g.displayName === 'Comercial - Norte')!.members[0]!;

    for (const moment of ['before the sync', 'after the sync']) {
      if (moment === 'after the sync') {
        expect((await ctx.request('POST', '/api/usuarios365/sincronizar', { token: admin })).statusCode).toBe(200);
      }
      const bruno = await accessOf(DEMO_USER.id);
      const metas = panel(bruno, 'Metas da Equipe Comercial');
      expect(metas.motivos, moment).toEqual([
        { tipo: 'direto' },
        { tipo: 'grupo', grupo: expect.objectContaining({ nome: 'Comercial' }), via: ['Comercial', 'Comercial - Sul'] },
      ]);
      expect(
        metas.papeisRls.map((r) => r.papel),
        moment,
      ).toEqual(['Gerente Regional']);
      // The panels the browser journeys take away from him are his by direct link only.
      for (const nome of ['Vendas por Região', 'Sazonalidade de Vendas', 'Devoluções e Trocas']) {
        expect(panel(bruno, nome).motivos, nome).toEqual([{ tipo: 'direto' }]);
      }
      // Every panel he opens he is linked to directly: his list is the demo's as before the groups.
      for (const p of bruno.paineis.filter((p) => p.podeAbrir)) {
        expect(
          p.motivos.map((m) => m.tipo),
          p.nomePainel,
        ).toContain('direto');
      }

      const seller = panel(await accessOf(norte), 'Metas da Equipe Comercial');
      expect(seller.podeAbrir, moment).toBe(true);
      expect(seller.papeisRls, moment).toContainEqual({
        papel: 'Vendedor',
        motivos: [
          { tipo: 'grupo', grupo: expect.objectContaining({ nome: 'Comercial - Norte' }), via: ['Comercial - Norte'] },
        ],
      });
    }
  });
});
