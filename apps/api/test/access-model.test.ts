import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_GROUP_GRANTS_NO_PANEL, PUBLIC_GROUP_GRANTS_NO_ROLE } from '@paineis/contract/group-constants';
import type { AcessoPainel, AcessoPessoa, MotivoAcesso } from '@paineis/contract/groups';
import { PANEL_NOT_FOUND } from '@paineis/contract/panels';
import { buildApp, type App } from '../src/app.ts';
import { rows, type Database, type Db } from '../src/db/client.ts';
import { loadDemoData } from '../src/demo/load-demo-data.ts';
import type { FailureKind } from '../src/lib/domain-failure.ts';
import { REFUSED } from '../src/modules/access/access-explained.ts';
import { evaluate, panelAudience, personOf } from '../src/modules/panels/access-model.ts';
import {
  NO_RLS_ROLE_FOR_PERSON,
  openPanel,
  openPanelNow,
  panelsVisibleTo,
} from '../src/modules/panels/panel-access.ts';
import { rlsUsernameOf, type Requester } from '../src/modules/panels/requester.ts';
import { identityOf } from '../src/modules/subscriptions/recipients.ts';
import { directoryEntries } from '../src/modules/users/users.service.ts';
import { signSessionToken } from '../src/modules/auth/tokens.ts';
import { testConfig } from './context.ts';
import { recordingEmbedding } from './fixed-embedding.ts';
import { openTestDatabase } from './database.ts';

/**
 * The access model held to the rule (docs/requirements.md#panel-visibility and #rls-identity, decisions 013 and 018)
 * over every person and every panel of the demo organisation: an answer worked out here, from the stored rows read
 * with plain SQL, against the model itself and against every caller that words it (the opening, the lists, both
 * explanations, a subscription's recipients).
 */

const TENANT = 'contoso.onmicrosoft.com';

/** The stored organisation, as plain rows. */
interface Stored {
  people: { id: string; email: string; upn: string | null; nome: string; role: string; active: boolean }[];
  panels: { id: number; nome_painel: string; usa_rls: boolean }[];
  direct: { painel_id: number; usuario_id: string }[];
  groups: { id: string; nome: string; visibilidade: string | null }[];
  members: { grupo_id: string; membro_id: string; membro_tipo: 'usuario' | 'grupo' }[];
  panelGroups: { painel_id: number; grupo_id: string }[];
  roles: { id: number; painel_id: number; role_name: string }[];
  roleEmails: { role_id: number; email: string }[];
  roleGroups: { role_id: number; grupo_id: string }[];
}

async function readStored(db: Db): Promise<Stored> {
  const [people, panels, direct, groups, members, panelGroups, roles, roleEmails, roleGroups] = await Promise.all([
    rows<Stored['people'][number]>(
      db,
      sql`select id, email, upn, display_name as nome, role, active from usuarios order by id`,
    ),
    rows<Stored['panels'][number]>(db, sql`select id, nome_painel, usa_rls from paineis order by id`),
    rows<Stored['direct'][number]>(db, sql`select painel_id, usuario_id from painel_usuarios`),
    rows<Stored['groups'][number]>(db, sql`select id, nome, visibilidade from grupos`),
    rows<Stored['members'][number]>(db, sql`select grupo_id, membro_id, membro_tipo from grupo_membros`),
    rows<Stored['panelGroups'][number]>(db, sql`select painel_id, grupo_id from painel_grupos`),
    rows<Stored['roles'][number]>(
      db,
      sql`select id, painel_id, role_name from painel_rls_roles order by painel_id, posicao, id`,
    ),
    rows<Stored['roleEmails'][number]>(db, sql`select role_id, email from painel_rls_role_emails`),
    rows<Stored['roleGroups'][number]>(db, sql`select role_id, grupo_id from painel_rls_role_grupos`),
  ]);
  return { people, panels, direct, groups, members, panelGroups, roles, roleEmails, roleGroups };
}

/** What the rule says of one person and one panel, and how a group reason's path may go. */
interface Expected {
  linked: boolean;
  sees: boolean;
  opens: boolean;
  roles: string[];
  recusa: string | null;
  /** The reasons, each group one with the group's id instead of its path (checked apart: ties may go either way). */
  motivos: Reason[];
  papeisRls: { papel: string; motivos: Reason[] }[];
  /** The public groups of theirs that grant nothing here: linked (`papel` null) or in a role. */
  ignored: { grupo: Group; papel: string | null }[];
}
type Group = { id: string; nome: string; publico: boolean };
type Reason = { tipo: 'administrador' | 'direto' | 'email' } | { tipo: 'grupo'; grupo: Group };
type Setting = 'all' | 'panels' | 'none';

/**
 * The rule, read straight from the requirements: an administrator sees every panel; anyone else a panel linked to
 * them or to a group they are in at any depth (groups nest); inactive people see nothing. On an RLS panel a
 * non-administrator opens with each role that lists their e-mail or UPN (case ignored) or a group they are in at any
 * depth, in the panel's order, and is refused with none; an administrator opens with every role. A public group
 * (visibility 'Public') opens panels unless the setting is 'none', and gives roles only when it is 'all'.
 */
function oracle(stored: Stored, setting: Setting) {
  const groupName = new Map(stored.groups.map((g) => [g.id, g.nome]));
  const isPublic = new Set(stored.groups.filter((g) => g.visibilidade === 'Public').map((g) => g.id));
  const linksGrant = (id: string) => setting !== 'none' || !isPublic.has(id);
  const rolesGrant = (id: string) => setting === 'all' || !isPublic.has(id);
  const parentsOf = new Map<string, string[]>();
  const childrenOf = new Map<string, string[]>();
  const directGroupsOf = new Map<string, string[]>();
  for (const m of stored.members) {
    if (!groupName.has(m.grupo_id)) continue;
    if (m.membro_tipo === 'grupo') {
      if (!groupName.has(m.membro_id)) continue;
      (parentsOf.get(m.membro_id) ?? parentsOf.set(m.membro_id, []).get(m.membro_id)!).push(m.grupo_id);
      (childrenOf.get(m.grupo_id) ?? childrenOf.set(m.grupo_id, []).get(m.grupo_id)!).push(m.membro_id);
    } else {
      (directGroupsOf.get(m.membro_id) ?? directGroupsOf.set(m.membro_id, []).get(m.membro_id)!).push(m.grupo_id);
    }
  }
  const groupsOf = new Map<string, Set<string>>();
  const allGroupsOf = (personId: string) => {
    let found = groupsOf.get(personId);
    if (found) return found;
    found = new Set();
    const queue = [...(directGroupsOf.get(personId) ?? [])];
    while (queue.length > 0) {
      const group = queue.pop()!;
      if (found.has(group)) continue;
      found.add(group);
      queue.push(...(parentsOf.get(group) ?? []));
    }
    groupsOf.set(personId, found);
    return found;
  };
  /** The number of groups on the shortest path from `top` down to a group that lists the person directly. */
  const shortest = (top: string, personId: string) => {
    const depth = new Map([[top, 1]]);
    const queue = [top];
    for (let i = 0; i < queue.length; i++) {
      for (const child of childrenOf.get(queue[i]!) ?? []) {
        if (depth.has(child)) continue;
        depth.set(child, depth.get(queue[i]!)! + 1);
        queue.push(child);
      }
    }
    return Math.min(...(directGroupsOf.get(personId) ?? []).map((g) => depth.get(g) ?? Infinity));
  };
  /** Whether `names` is a shortest nesting from `top` down to a group that lists the person directly. */
  const isPathDown = (names: string[] | undefined, top: string, personId: string) => {
    const idOf = new Map(stored.groups.map((g) => [g.nome, g.id]));
    const ids = (names ?? []).map((n) => idOf.get(n));
    if (ids[0] !== top || ids.length !== shortest(top, personId)) return false;
    for (let i = 1; i < ids.length; i++) if (!childrenOf.get(ids[i - 1]!)?.includes(ids[i]!)) return false;
    return (directGroupsOf.get(personId) ?? []).includes(ids.at(-1)!);
  };

  const directLinks = new Set(stored.direct.map((d) => `${d.painel_id}/${d.usuario_id}`));
  const byNameThenId = (a: string, b: string) =>
    groupName.get(a)!.toLowerCase().localeCompare(groupName.get(b)!.toLowerCase()) || (a < b ? -1 : 1);
  const linkedGroups = (painelId: number) =>
    stored.panelGroups
      .filter((l) => l.painel_id === painelId)
      .map((l) => l.grupo_id)
      .sort(byNameThenId);
  const rolesOf = (painelId: number) =>
    stored.roles
      .filter((r) => r.painel_id === painelId)
      .map((r) => ({
        name: r.role_name,
        emails: new Set(stored.roleEmails.filter((e) => e.role_id === r.id).map((e) => e.email.toLowerCase())),
        groups: stored.roleGroups
          .filter((g) => g.role_id === r.id)
          .map((g) => g.grupo_id)
          .sort(),
      }));
  const groupOf = (id: string): Group => ({ id, nome: groupName.get(id)!, publico: isPublic.has(id) });
  const group = (id: string): Reason => ({ tipo: 'grupo', grupo: groupOf(id) });

  const expected = (person: Stored['people'][number], panel: Stored['panels'][number]): Expected => {
    const admin = person.role === 'Admin';
    const theirs = allGroupsOf(person.id);
    const direct = directLinks.has(`${panel.id}/${person.id}`);
    const theirLinks = linkedGroups(panel.id).filter((g) => theirs.has(g));
    const viaGroups = theirLinks.filter(linksGrant);
    const motivos: Reason[] = [
      ...(admin ? [{ tipo: 'administrador' as const }] : []),
      ...(direct ? [{ tipo: 'direto' as const }] : []),
      ...viaGroups.map(group),
    ];
    const linked = motivos.length > 0;
    const addresses = [person.email.toLowerCase(), (person.upn ?? person.email).toLowerCase()];
    const ignored: Expected['ignored'] = admin
      ? []
      : theirLinks.filter((g) => !linksGrant(g)).map((g) => ({ grupo: groupOf(g), papel: null }));
    const papeisRls = !panel.usa_rls
      ? []
      : rolesOf(panel.id).flatMap((role) => {
          if (admin) return [{ papel: role.name, motivos: [{ tipo: 'administrador' as const }] }];
          const inRole = role.groups.filter((g) => theirs.has(g));
          ignored.push(...inRole.filter((g) => !rolesGrant(g)).map((g) => ({ grupo: groupOf(g), papel: role.name })));
          const reasons: Reason[] = [
            ...(addresses.some((a) => role.emails.has(a)) ? [{ tipo: 'email' as const }] : []),
            ...inRole.filter(rolesGrant).map(group),
          ];
          return reasons.length > 0 ? [{ papel: role.name, motivos: reasons }] : [];
        });
    const note = (byLink: boolean) => {
      const names = [...new Set(ignored.filter((g) => (g.papel === null) === byLink).map((g) => g.grupo.nome))];
      const why = byLink ? PUBLIC_GROUP_GRANTS_NO_PANEL : PUBLIC_GROUP_GRANTS_NO_ROLE;
      return names.length > 0 ? ` ${why}: ${names.join(', ')}.` : '';
    };
    const recusa = !person.active
      ? REFUSED.inactive
      : !linked
        ? REFUSED.notLinked + note(true)
        : panel.usa_rls && !admin && papeisRls.length === 0
          ? REFUSED.noRole + note(false)
          : null;
    return {
      linked,
      sees: person.active && linked,
      opens: recusa === null,
      roles: papeisRls.map((r) => r.papel),
      recusa,
      motivos,
      papeisRls,
      ignored,
    };
  };
  /** The panel's public groups that grant nothing: the linked ones, by name, then each role's, in order. */
  const ignoredOf = (painelId: number) => [
    ...linkedGroups(painelId)
      .filter((g) => !linksGrant(g))
      .map((g) => ({ grupo: groupOf(g), papel: null, motivo: PUBLIC_GROUP_GRANTS_NO_PANEL })),
    ...rolesOf(painelId).flatMap((role) =>
      role.groups
        .filter((g) => !rolesGrant(g))
        .map((g) => ({ grupo: groupOf(g), papel: role.name, motivo: PUBLIC_GROUP_GRANTS_NO_ROLE })),
    ),
  ];
  return { expected, isPathDown, ignoredOf };
}

/**
 * The reasons as the API tells them, each group reason's path checked to be a shortest nesting down to the person,
 * then left out to compare the rest.
 */
function withoutPaths(motivos: MotivoAcesso[], personId: string, isPathDown: ReturnType<typeof oracle>['isPathDown']) {
  return motivos.map((m) => {
    if (m.tipo !== 'grupo') return { tipo: m.tipo };
    expect(isPathDown(m.via, m.grupo!.id, personId), `caminho ${m.via?.join(' → ')} até ${personId}`).toBe(true);
    return { tipo: m.tipo, grupo: m.grupo };
  });
}

/**
 * The demo organisation, and what the directory would add to it and an administrator might do, so every branch of
 * the rule is walked: UPNs (one in 25 at the tenant's domain, as the demo directory gives them) and some people
 * without one; RLS roles listing some people by UPN only; e-mails stored in capitals; a group nested a level deeper,
 * a nested member the portal does not keep, and a role listing a parent group; inactive people among the linked and
 * the grouped; a second administrator and an inactive one; a public Microsoft 365 group linked to a panel with RLS
 * and to one without, and listed in a role of the first, some of its people in no other group of that panel.
 */
async function organisation(db: Db): Promise<void> {
  expect(await loadDemoData(db, 300, new Date('2026-11-27T12:00:00Z'))).toBe(true);
  await db.execute(sql`
    with numbered as (select id, email, row_number() over (order by id) as n from usuarios where id like '%-%-%-%-%')
    update usuarios u set
      upn = case when n % 25 = 1 then split_part(numbered.email, '@', 1) || ${'@' + TENANT} else numbered.email end,
      tipo = 'Member'
    from numbered where u.id = numbered.id and n % 4 <> 0`);
  // Roles that list someone linked to their panel by their UPN alone (the address the directory signs them in with).
  await db.execute(sql`
    delete from painel_rls_role_emails e using painel_rls_roles r, painel_usuarios pu, usuarios u
    where e.role_id = r.id and pu.painel_id = r.painel_id and pu.usuario_id = u.id and e.email = lower(u.email)
      and u.upn like ${'%@' + TENANT}`);
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select distinct on (u.id, r.painel_id) r.id, lower(u.upn)
    from usuarios u join painel_usuarios pu on pu.usuario_id = u.id join painel_rls_roles r on r.painel_id = pu.painel_id
    where u.upn like ${'%@' + TENANT}
    order by u.id, r.painel_id, r.posicao`);
  await db.execute(sql`
    update usuarios set email = upper(email) where id in (
      select pu.usuario_id from painel_usuarios pu join paineis p on p.id = pu.painel_id
      where p.usa_rls order by pu.usuario_id limit 5)`);
  // 'Comercial - Norte' ⊃ 'Recife - Litoral' ⊃ a few people from elsewhere, and a nested group nobody keeps.
  await db.execute(sql`
    insert into grupos (id, nome, descricao, tipo) values ('litoral-recife', 'Recife - Litoral', null, 'seguranca')`);
  const norte = (await rows<{ id: string }>(db, sql`select id from grupos where nome = 'Comercial - Norte'`))[0]!.id;
  await db.execute(sql`
    insert into grupo_membros (grupo_id, membro_id, membro_tipo) values
      (${norte}, 'litoral-recife', 'grupo'), ('litoral-recife', 'grupo-que-nao-existe', 'grupo')`);
  await db.execute(sql`
    insert into grupo_membros (grupo_id, membro_id, membro_tipo)
    select 'litoral-recife', u.id, 'usuario' from usuarios u
    where u.id like '%-%-%-%-%' and not exists (select 1 from grupo_membros m where m.membro_id = u.id)
    order by u.id limit 12`);
  await db.execute(sql`
    insert into painel_rls_role_grupos (role_id, grupo_id)
    select r.id, g.id from painel_rls_roles r join paineis p on p.id = r.painel_id, grupos g
    where p.nome_painel = 'Metas da Equipe Comercial' and r.role_name = 'Gerente Regional' and g.nome = 'Comercial'`);
  // Inactive: every ninth person linked directly, and some in the nested group.
  await db.execute(sql`
    update usuarios set active = false where id in (
      select usuario_id from (
        select usuario_id, row_number() over (order by usuario_id) as n
        from (select distinct usuario_id from painel_usuarios where usuario_id <> 'demo-usuario') linked
      ) numbered where n % 9 = 0)
      or id in (select membro_id from grupo_membros where grupo_id = 'litoral-recife' order by membro_id limit 3)`);
  await db.execute(sql`
    update usuarios set role = 'Admin' where id in (
      select id from usuarios where id like '%-%-%-%-%' and role = 'User' and active order by id limit 2)`);
  await db.execute(sql`
    update usuarios set active = false where id = (
      select id from usuarios where id like '%-%-%-%-%' and role = 'Admin' order by id limit 1)`);
  await db.execute(sql`update grupos set visibilidade = 'Public' where nome = 'Projeto Expansão'`);
  await db.execute(sql`
    insert into painel_grupos (painel_id, grupo_id)
    select p.id, g.id from paineis p, grupos g
    where p.nome_painel in ('Metas da Equipe Comercial', 'Produção Diária', 'Consumo de Energia')
      and g.nome = 'Projeto Expansão'
    on conflict do nothing`);
  await db.execute(sql`
    insert into painel_rls_role_grupos (role_id, grupo_id)
    select r.id, g.id from painel_rls_roles r join paineis p on p.id = r.painel_id, grupos g
    where (p.nome_painel, r.role_name) in (('Metas da Equipe Comercial', 'Vendedor'), ('Produção Diária', 'Planta Campinas'))
      and g.nome = 'Projeto Expansão'`);
}

describe.each(['panels', 'none', 'all'] as const)(
  'the access model, over every demo person and every demo panel (PUBLIC_GROUPS_GRANT=%s)',
  (setting) => {
    let database: Database;
    let db: Db;
    let app: App;
    let stored: Stored;
    let rule: ReturnType<typeof oracle>;
    const embedding = recordingEmbedding();
    const config = testConfig({ PUBLIC_GROUPS_GRANT: setting });

    beforeAll(async () => {
      database = await openTestDatabase();
      db = database.db;
      app = await buildApp({ config, database, ownsDatabase: false, logger: false, embedding: embedding.service });
      await app.ready();
      await organisation(db);
      stored = await readStored(db);
      rule = oracle(stored, setting);
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const requesterOf = (p: Stored['people'][number]): Requester => ({
      id: p.id,
      email: p.email,
      upn: p.upn,
      username: rlsUsernameOf(p, config.rlsUsername),
      isAdmin: p.role === 'Admin',
    });
    const token = async (p: Stored['people'][number]) =>
      (
        await signSessionToken(config.jwt, {
          id: p.id,
          email: p.email,
          displayName: p.nome,
          role: p.role === 'Admin' ? 'Admin' : 'User',
        })
      ).token;
    const get = (url: string, bearer: string) =>
      app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });

    it('walks every branch of the rule', () => {
      const all = stored.people.flatMap((person) => stored.panels.map((panel) => ({ person, panel })));
      const answers = all.map(({ person, panel }) => ({ person, panel, ...rule.expected(person, panel) }));
      const count = (test: (a: (typeof answers)[number]) => boolean) => answers.filter(test).length;
      expect(stored.people.length).toBeGreaterThan(290);
      expect(stored.panels.length).toBeGreaterThan(25);
      // Seen through a group only (some through two levels of nesting), by UPN only, refused for want of a role,
      // refused as inactive though linked, and administrators, active and not.
      expect(count((a) => a.sees && a.motivos.every((m) => m.tipo === 'grupo'))).toBeGreaterThan(50);
      expect(
        count(
          (a) => a.sees && stored.members.some((m) => m.grupo_id === 'litoral-recife' && m.membro_id === a.person.id),
        ),
      ).toBeGreaterThan(5);
      expect(
        count(
          (a) =>
            a.opens &&
            a.panel.usa_rls &&
            a.person.role !== 'Admin' &&
            a.papeisRls.some((r) => r.motivos.some((m) => m.tipo === 'email')) &&
            a.person.upn?.endsWith(`@${TENANT}`) === true,
        ),
      ).toBeGreaterThan(0);
      expect(count((a) => a.recusa === REFUSED.noRole)).toBeGreaterThan(5);
      expect(count((a) => a.linked && !a.person.active)).toBeGreaterThan(10);
      expect(stored.people.filter((p) => p.role === 'Admin' && p.active).length).toBeGreaterThan(1);
      expect(stored.people.filter((p) => p.role === 'Admin' && !p.active).length).toBe(1);
      // A public group: letting people in, or giving them roles, or only saying it does not.
      const throughPublic = (reasons: Reason[]) => reasons.some((m) => m.tipo === 'grupo' && m.grupo.publico);
      const opensThroughPublic = count((a) => a.opens && throughPublic(a.motivos));
      const roleThroughPublic = count((a) => a.papeisRls.some((r) => throughPublic(r.motivos)));
      const ignoredLink = count((a) => a.ignored.some((g) => g.papel === null));
      const ignoredRole = count((a) => a.ignored.some((g) => g.papel !== null));
      expect({ opensThroughPublic, roleThroughPublic, ignoredLink, ignoredRole }).toEqual({
        opensThroughPublic: setting === 'none' ? 0 : expect.toSatisfy((n: number) => n > 2),
        roleThroughPublic: setting === 'all' ? expect.toSatisfy((n: number) => n > 2) : 0,
        ignoredLink: setting === 'none' ? expect.toSatisfy((n: number) => n > 2) : 0,
        ignoredRole: setting === 'all' ? 0 : expect.toSatisfy((n: number) => n > 2),
      });
      // Refused for want of a role only because the public group gives none.
      if (setting === 'panels') {
        expect(count((a) => a.recusa?.includes(PUBLIC_GROUP_GRANTS_NO_ROLE) === true)).toBeGreaterThan(0);
      }
    });

    it("is the model's answer, and a subscription's: sees, opens, the roles and the refusal", async () => {
      const entries = await directoryEntries(db);
      for (const panel of stored.panels) {
        const audience = (await panelAudience(db, panel.id))!;
        for (const person of stored.people) {
          const want = rule.expected(person, panel);
          const answer = { sees: want.sees, opens: want.opens, roles: want.roles };
          const where = `${person.id} × painel ${panel.id}`;
          const model = (await evaluate(db, personOf(entries.get(person.id)!), panel.id))!;
          expect({ sees: model.sees, opens: model.opens, roles: model.roles }, where).toEqual(answer);
          const many = audience.evaluate(personOf(entries.get(person.id)!));
          expect({ sees: many.sees, opens: many.opens, roles: many.roles }, where).toEqual(answer);
          const identity = await identityOf(db, panel.id, person.id, config.rlsUsername);
          expect(identity && { roles: identity.roles, username: identity.requester.username }, where).toEqual(
            want.opens ? { roles: want.roles, username: rlsUsernameOf(person, config.rlsUsername) } : null,
          );
        }
      }
    });

    it('is what opening each panel answers, from memory and not, with the RLS roles of the effective identity', async () => {
      const kinds: Record<string, FailureKind> = { 404: 'not-found', 403: 'forbidden' };
      for (const person of stored.people.filter((p) => p.active)) {
        const requester = requesterOf(person);
        const visible = new Set(await panelsVisibleTo(db, requester));
        for (const panel of stored.panels) {
          const want = rule.expected(person, panel);
          const where = `${person.id} × painel ${panel.id}`;
          expect(visible.has(panel.id), where).toBe(want.sees);
          const waited = await openPanel(db, panel.id, requester, undefined).then(
            (opening) => ({ roles: opening.roles }),
            (failure: { kind: FailureKind; message: string }) => ({ kind: failure.kind, message: failure.message }),
          );
          expect(waited, where).toEqual(
            !want.sees
              ? { kind: kinds[404], message: PANEL_NOT_FOUND }
              : !want.opens
                ? { kind: kinds[403], message: NO_RLS_ROLE_FOR_PERSON }
                : { roles: panel.usa_rls ? want.roles : [] },
          );
          let now: unknown;
          try {
            now = { roles: openPanelNow(db, panel.id, requester, undefined)!.roles };
          } catch (failure) {
            now = { kind: (failure as { kind: FailureKind }).kind, message: (failure as Error).message };
          }
          expect(now, `${where}, da memória`).toEqual(waited);
        }
      }
    });

    it('is what GET /api/paineis/{id} answers and the identity the embed token is asked for, on a sample', async () => {
      let asked = 0;
      for (const [i, person] of stored.people.entries()) {
        const bearer = await token(person);
        for (const [j, panel] of stored.panels.entries()) {
          if ((i * 31 + j * 7) % 6 !== 0) continue;
          asked += 1;
          const want = rule.expected(person, panel);
          const where = `${person.id} × painel ${panel.id}`;
          const before = embedding.calls.length;
          const answer = await get(`/api/paineis/${panel.id}`, bearer);
          // An inactive person's session is refused before any panel is looked at.
          expect(answer.statusCode, where).toBe(!person.active ? 401 : !want.sees ? 404 : !want.opens ? 403 : 200);
          if (answer.statusCode !== 200) {
            expect(embedding.calls.length, where).toBe(before);
            continue;
          }
          expect(embedding.calls.slice(before), where).toEqual([
            {
              painelId: panel.id,
              viewer: expect.objectContaining({
                id: person.id,
                username: rlsUsernameOf(person, config.rlsUsername),
                roles: panel.usa_rls ? want.roles : [],
              }),
            },
          ]);
        }
      }
      expect(asked).toBeGreaterThan(1_500);
    });

    it("is who '/paineis/{id}/acesso' lists, with every reason: the active people who may open the panel", async () => {
      const admin = await token(stored.people.find((p) => p.id === 'demo-admin')!);
      for (const panel of stored.panels) {
        const answer = await get(`/api/paineis/${panel.id}/acesso`, admin);
        expect(answer.statusCode).toBe(200);
        const listed = answer.json<AcessoPainel>().pessoas;
        expect(answer.json<AcessoPainel>().gruposSemEfeito, `painel ${panel.id}`).toEqual(rule.ignoredOf(panel.id));
        const expected = stored.people.filter((person) => rule.expected(person, panel).opens);
        expect(listed.map((p) => p.usuarioId).sort(), `painel ${panel.id}`).toEqual(expected.map((p) => p.id).sort());
        for (const entry of listed) {
          const person = stored.people.find((p) => p.id === entry.usuarioId)!;
          expect(
            { nome: entry.nome, email: entry.email, motivos: withoutPaths(entry.motivos, person.id, rule.isPathDown) },
            `${person.id} × painel ${panel.id}`,
          ).toEqual({ nome: person.nome, email: person.email, motivos: rule.expected(person, panel).motivos });
        }
      }
    });

    it("is what '/usuarios365/{id}/acesso' tells of each person and panel: podeAbrir, reasons, roles, refusal", async () => {
      const admin = await token(stored.people.find((p) => p.id === 'demo-admin')!);
      for (const person of stored.people) {
        const answer = await get(`/api/usuarios365/${encodeURIComponent(person.id)}/acesso`, admin);
        expect(answer.statusCode).toBe(200);
        const { pessoa, paineis } = answer.json<AcessoPessoa>();
        expect(pessoa).toMatchObject({ id: person.id, administrador: person.role === 'Admin', ativo: person.active });
        expect(paineis.map((p) => p.painelId).sort((a, b) => a - b)).toEqual(stored.panels.map((p) => p.id));
        for (const told of paineis) {
          const want = rule.expected(
            person,
            stored.panels.find((p) => p.id === told.painelId)!,
          );
          expect(
            {
              podeAbrir: told.podeAbrir,
              recusa: told.recusa,
              motivos: withoutPaths(told.motivos, person.id, rule.isPathDown),
              papeisRls: told.papeisRls.map((r) => ({
                papel: r.papel,
                motivos: withoutPaths(r.motivos, person.id, rule.isPathDown),
              })),
              ignored: told.gruposSemEfeito.map(({ grupo, papel, via }) => {
                expect(rule.isPathDown(via, grupo.id, person.id), `caminho ${via.join(' → ')}`).toBe(true);
                return { grupo, papel };
              }),
            },
            `${person.id} × painel ${told.painelId}`,
          ).toEqual({
            podeAbrir: want.opens,
            recusa: want.recusa,
            motivos: want.motivos,
            papeisRls: want.papeisRls,
            ignored: want.ignored,
          });
        }
      }
    });
  },
);
