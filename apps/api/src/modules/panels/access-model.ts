import type { GrupoVinculado, MotivoAcesso } from '@paineis/contract/groups';
import type { Painel } from '@paineis/contract/panels';
import type { Db } from '../../db/client.ts';
import { VersionedCache, VersionedKeyedCache } from '../../db/versioned-cache.ts';
import {
  directoryEntries,
  groupMembership,
  groupsOfPerson,
  groupsOfPersonNow,
  publicGroups,
  publicGroupsNow,
  type DirectoryEntry,
} from '../users/users.service.ts';
import { catalogue, catalogueNow } from './panel-catalog.repository.ts';
import { groupLinksByPanel } from './panel-groups.repository.ts';
import { linkedUserIds, panelsLinkedTo } from './panel-users.repository.ts';
import { publicGroupGrants, publicGroupsGrantOf, type GroupGrants } from './public-groups.ts';
import type { Requester } from './requester.ts';
import { panelRoles, panelRolesNow, type RoleMembers } from './rls.repository.ts';

/**
 * The access model: the one answer to "may this person open this panel, why, and with which RLS roles"
 * (docs/requirements.md#panel-visibility and #rls-identity, docs/decisions/013 and 018). The opening, the lists, the
 * explanations, export, saved views and subscriptions all ask it and only word its answer.
 *
 * It is held in memory in parts, each kept until its data set changes on any instance
 * (docs/decisions/009-in-memory-reads.md): the catalogue ('paineis'), each person's and each panel's direct links
 * ('vinculos'), every panel's linked groups ('vinculos', 'grupos'), the nested membership ('grupos'), each panel's RLS
 * roles ('rls') and the directory ('usuarios', for the answers about people other than the caller). One answer reads
 * only the panel's links and roles and the person's groups, whatever the size of the portal.
 *
 * A public Microsoft 365 group, which anyone may join unapproved, grants what PUBLIC_GROUPS_GRANT lets it
 * (public-groups.ts): by default it opens the panels it is linked to but gives no RLS role.
 */

/** A person as the rule reads them: as stored from the directory, never from a token's claims (decision 013). */
export interface AccessPerson {
  id: string;
  /** The directory e-mail, as stored. */
  email: string;
  /** The directory UPN, as stored; null for people who never came from Graph. */
  upn: string | null;
  isAdmin: boolean;
  active: boolean;
}

/** Why a person may not open a panel: inactive, linked neither directly nor by a group, or in no RLS role. */
export type Refusal = 'inativo' | 'sem-vinculo' | 'sem-papel';

/** The model's answer for one person and one panel. */
export interface Access {
  panel: Painel;
  /**
   * The panel is theirs to see: in their lists, and its routes answer them (anyone else gets 404, as if it did not
   * exist). Active, and an administrator or linked directly or through a group at any depth.
   */
  sees: boolean;
  /** They may open it: they see it and, on an RLS panel, are an administrator or in one of its roles (else 403). */
  opens: boolean;
  /** The RLS roles their embed token carries, in the panel's order: an administrator's are every role. */
  roles: readonly string[];
  refusal: Refusal | null;
}

/**
 * A public group the person is in that is linked to the panel (`papel` null) or listed in the RLS role `papel`, but
 * grants them nothing by PUBLIC_GROUPS_GRANT; `via` as a reason's.
 */
export interface IgnoredGroup {
  grupo: GrupoVinculado;
  via: string[];
  papel: string | null;
}

/** The same answer with its reasons, for the explanations. */
export interface ExplainedAccess extends Access {
  /** Why they see it: 'administrador', 'direto', and 'grupo' with the path down to their own group. */
  motivos: MotivoAcesso[];
  /** Each of `roles` with why: 'administrador', 'email' (their e-mail or UPN is listed) or 'grupo'. */
  papeisRls: { papel: string; motivos: MotivoAcesso[] }[];
  /** The public groups of theirs that grant nothing here (none for an administrator, whom groups give nothing). */
  ignored: IgnoredGroup[];
}

/** A person of the directory, as the rule reads them. */
export const personOf = (entry: DirectoryEntry): AccessPerson => ({
  id: entry.id,
  email: entry.email,
  upn: entry.upn,
  isAdmin: entry.administrador,
  active: entry.ativo,
});

/** The signed-in person: a session speaks only for an active person (the session hook refuses anyone else). */
export const signedIn = (requester: Requester): AccessPerson => ({
  id: requester.id,
  email: requester.email,
  upn: requester.upn,
  isAdmin: requester.isAdmin,
  active: true,
});

/** Who a list is for: lists are the signed-in person's, and need only who they are and whether they administer. */
export type Viewer = Pick<Requester, 'id' | 'isAdmin'>;

const ADMIN: MotivoAcesso = { tipo: 'administrador' };
const DIRECT: MotivoAcesso = { tipo: 'direto' };
const BY_EMAIL: MotivoAcesso = { tipo: 'email' };
const NO_GROUPS: ReadonlySet<string> = new Set();
const NO_LINKS: readonly GrupoVinculado[] = [];
const NO_ROLES: readonly RoleMembers[] = [];
const NO_PANELS: ReadonlySet<number> = new Set();

/** What one answer reads: the person's side and the panel's. */
interface Facts {
  /** The person is linked to the panel directly. */
  direct: boolean;
  /** The person's groups at any depth. */
  groups: ReadonlySet<string>;
  /** The panel's linked groups. */
  links: readonly GrupoVinculado[];
  /** The panel's RLS roles, in order (read only for a panel with RLS). */
  roles: readonly RoleMembers[];
  /** The public groups' ids (read only for the roles: a linked group says itself whether it is public). */
  publicGroups: ReadonlySet<string>;
  /** What a public group grants here (PUBLIC_GROUPS_GRANT). */
  grants: GroupGrants;
}

/** For the explanations: the path from a group down to the person's own group, and a group as a reason names it. */
interface Explainer {
  via(groupId: string): string[];
  group(groupId: string): GrupoVinculado;
}

/**
 * The addresses RLS roles list a person by, as stored (lower case): their directory e-mail and their UPN (their e-mail
 * when they have none) (docs/decisions/013-identity-from-the-directory.md).
 */
function addressesOf(person: AccessPerson): [email: string, upn: string] {
  const email = person.email.toLowerCase();
  return [email, person.upn?.toLowerCase() ?? email];
}

const viaGroup = (grupo: GrupoVinculado, explain: Explainer): MotivoAcesso => ({
  tipo: 'grupo',
  grupo,
  via: explain.via(grupo.id),
});

/**
 * Whether the person is linked to the panel or administers the portal, and, when explaining, every reason: an
 * administrator, a direct link, each linked group they are in at any depth (docs/decisions/018-access-by-group.md),
 * and each linked public group of theirs that lets nobody in.
 */
function linkage(person: Pick<AccessPerson, 'isAdmin'>, facts: Facts, explain: Explainer | null) {
  const motivos: MotivoAcesso[] = [];
  const ignored: IgnoredGroup[] = [];
  let linked = person.isAdmin;
  if (person.isAdmin && explain) motivos.push(ADMIN);
  if (facts.direct) {
    linked = true;
    if (explain) motivos.push(DIRECT);
  }
  for (const group of facts.links) {
    if (!facts.groups.has(group.id)) continue;
    if (group.publico && !facts.grants.paineis) {
      if (explain && !person.isAdmin) ignored.push({ grupo: group, via: explain.via(group.id), papel: null });
      continue;
    }
    linked = true;
    if (!explain) break;
    motivos.push(viaGroup(group, explain));
  }
  return { linked, motivos, ignored };
}

/** The rule itself, over what one answer reads. */
function judge(person: AccessPerson, panel: Painel, facts: Facts, explain: Explainer | null): ExplainedAccess {
  const { linked, motivos, ignored } = linkage(person, facts, explain);
  const roles: string[] = [];
  const papeisRls: ExplainedAccess['papeisRls'] = [];
  if (panel.usaRls) {
    const [email, upn] = addressesOf(person);
    for (const role of facts.roles) {
      // An administrator opens with every role (or the one they choose: the opening's part).
      if (person.isAdmin) {
        roles.push(role.roleName);
        if (explain) papeisRls.push({ papel: role.roleName, motivos: [ADMIN] });
        continue;
      }
      let listed = role.emails.has(email) || role.emails.has(upn);
      // Every reason only when explaining; to open, the first one found is enough.
      const why = explain && (listed ? [BY_EMAIL] : []);
      for (const id of role.groups) {
        if (!why && listed) break;
        if (!facts.groups.has(id)) continue;
        if (!facts.grants.papeisRls && facts.publicGroups.has(id)) {
          if (explain) ignored.push({ grupo: explain.group(id), via: explain.via(id), papel: role.roleName });
          continue;
        }
        listed = true;
        if (why && explain) why.push(viaGroup(explain.group(id), explain));
      }
      if (!listed) continue;
      roles.push(role.roleName);
      if (why) papeisRls.push({ papel: role.roleName, motivos: why });
    }
  }
  const refusal: Refusal | null = !person.active
    ? 'inativo'
    : !linked
      ? 'sem-vinculo'
      : panel.usaRls && !person.isAdmin && roles.length === 0
        ? 'sem-papel'
        : null;
  return {
    panel,
    sees: person.active && linked,
    opens: refusal === null,
    roles,
    refusal,
    motivos,
    papeisRls,
    ignored,
  };
}

/** What a public group grants for this database's app. */
const grantsOf = (db: Db): GroupGrants => publicGroupGrants(publicGroupsGrantOf(db));

/** Each person's direct links, as panel ids. */
const directOfPerson = new VersionedKeyedCache(['vinculos'], panelsLinkedTo, 50_000);

/** Each panel's directly linked people, for the answers about many people at once. */
const directOfPanel = new VersionedKeyedCache(
  ['vinculos'],
  async (db, painelId: number): Promise<ReadonlySet<string>> => new Set(await linkedUserIds(db, painelId)),
  1_000,
);

/** Every panel's linked groups, by name (a renamed group renames its reason). */
const groupLinks = new VersionedCache(['vinculos', 'grupos'], groupLinksByPanel);

/**
 * The ids of the panels each signed-in person sees (an administrator sees every panel, and is never asked here): the
 * rule's linkage over the catalogue, kept until a panel, a link or a membership changes.
 */
const visibleToPerson = new VersionedKeyedCache(
  ['paineis', 'vinculos', 'grupos'],
  async (db, id: string): Promise<ReadonlySet<number>> => {
    const [{ panels }, direct, links, groups] = await Promise.all([
      catalogue(db),
      directOfPerson.get(db, id),
      groupLinks.get(db),
      groupsOfPerson(db, id),
    ]);
    const viewer = { isAdmin: false };
    const grants = grantsOf(db);
    const seen = panels.filter((p) => {
      const facts = { direct: direct.has(p.id), groups, links: links.get(p.id) ?? NO_LINKS, roles: NO_ROLES };
      return linkage(viewer, { ...facts, publicGroups: NO_GROUPS, grants }, null).linked;
    });
    return new Set(seen.map((p) => p.id));
  },
  50_000,
);

/**
 * The model's answer from memory, without waiting: undefined when part of it is not loaded (then ask `evaluate`), null
 * when there is no such panel. Nearly every opening of a panel is answered here.
 */
export function evaluateNow(db: Db, person: AccessPerson, painelId: number): Access | null | undefined {
  const loaded = catalogueNow(db);
  if (!loaded) return undefined;
  const panel = loaded.byId.get(painelId);
  if (!panel) return null;
  const roles = panel.usaRls ? panelRolesNow(db, painelId) : NO_ROLES;
  if (!roles) return undefined;
  const grants = grantsOf(db);
  // An administrator is linked to every panel: their links and groups change nothing of the answer.
  if (person.isAdmin) {
    const facts = { direct: false, groups: NO_GROUPS, links: NO_LINKS, roles, publicGroups: NO_GROUPS, grants };
    return judge(person, panel, facts, null);
  }
  const direct = directOfPerson.peek(db, person.id);
  const links = groupLinks.peek(db);
  const groups = groupsOfPersonNow(db, person.id);
  const publicIds = publicGroupsNow(db);
  if (!direct || !links || !groups || !publicIds) return undefined;
  return judge(
    person,
    panel,
    {
      direct: direct.has(painelId),
      groups,
      links: links.get(painelId) ?? NO_LINKS,
      roles,
      publicGroups: publicIds,
      grants,
    },
    null,
  );
}

/** The model's answer for one person and one panel; null when there is no such panel. */
export async function evaluate(db: Db, person: AccessPerson, painelId: number): Promise<Access | null> {
  const now = evaluateNow(db, person, painelId);
  if (now !== undefined) return now;
  const panel = (await catalogue(db)).byId.get(painelId);
  if (!panel) return null;
  const [direct, links, groups, roles, publicIds] = await Promise.all([
    person.isAdmin ? NO_PANELS : directOfPerson.get(db, person.id),
    groupLinks.get(db),
    person.isAdmin ? NO_GROUPS : groupsOfPerson(db, person.id),
    panel.usaRls ? panelRoles(db, painelId) : NO_ROLES,
    person.isAdmin ? NO_GROUPS : publicGroups(db),
  ]);
  return judge(
    person,
    panel,
    {
      direct: direct.has(painelId),
      groups,
      links: links.get(painelId) ?? NO_LINKS,
      roles,
      publicGroups: publicIds,
      grants: grantsOf(db),
    },
    null,
  );
}

/** The ids of the panels this signed-in person sees, in the list screen's order. From memory. */
export async function visiblePanelIds(db: Db, viewer: Viewer): Promise<number[]> {
  return (await visibleCatalog(db, viewer)).panels.map((p) => p.id);
}

/** The classifications, and the panels this signed-in person sees, in the list screen's order. From memory. */
export async function visibleCatalog(db: Db, viewer: Viewer) {
  const [loaded, ids] = await Promise.all([catalogue(db), viewer.isAdmin ? null : visibleToPerson.get(db, viewer.id)]);
  return { classes: loaded.classes, panels: ids ? loaded.panels.filter((p) => ids.has(p.id)) : loaded.panels };
}

/** One panel's answers for many people (a subscription's recipients), read once. */
export interface PanelAudience {
  panel: Painel;
  evaluate(person: AccessPerson): Access;
}

/** The panel's answers for anyone, from memory once loaded; null when there is no such panel. */
export async function panelAudience(db: Db, painelId: number): Promise<PanelAudience | null> {
  const panel = (await catalogue(db)).byId.get(painelId);
  if (!panel) return null;
  const [direct, links, membership, roles] = await Promise.all([
    directOfPanel.get(db, painelId),
    groupLinks.get(db),
    groupMembership(db),
    panel.usaRls ? panelRoles(db, painelId) : NO_ROLES,
  ]);
  const linked = links.get(painelId) ?? NO_LINKS;
  const grants = grantsOf(db);
  return {
    panel,
    evaluate: (person) =>
      judge(
        person,
        panel,
        {
          direct: direct.has(person.id),
          groups: membership.groupsOf(person.id),
          links: linked,
          roles,
          publicGroups: membership.publicGroups,
          grants,
        },
        null,
      ),
  };
}

type Membership = Awaited<ReturnType<typeof groupMembership>>;

/** A group as a reason names it: its name (its id when the sync no longer keeps it), and whether it is public. */
const groupOf = (membership: Membership, id: string): GrupoVinculado => ({
  id,
  nome: membership.groups.get(id)?.nome ?? id,
  publico: membership.publicGroups.has(id),
});

/** Paths and names from the membership; `paths` gives a path already worked out for a whole group at once. */
function explainer(membership: Membership, personId: string, paths?: Map<string, Map<string, string[]>>): Explainer {
  const name = (id: string) => membership.groups.get(id)?.nome ?? id;
  return {
    group: (id) => groupOf(membership, id),
    via: (groupId) =>
      (paths?.get(groupId)?.get(personId) ?? membership.pathDown(groupId, personId) ?? [groupId]).map(name),
  };
}

/** Why a person may open each panel, or not, in the list screen's order (GET /usuarios365/{id}/acesso). */
export async function explainPerson(db: Db, person: AccessPerson): Promise<ExplainedAccess[]> {
  const [{ panels }, direct, links, membership] = await Promise.all([
    catalogue(db),
    directOfPerson.get(db, person.id),
    groupLinks.get(db),
    groupMembership(db),
  ]);
  const roles = new Map(
    await Promise.all(panels.filter((p) => p.usaRls).map(async (p) => [p.id, await panelRoles(db, p.id)] as const)),
  );
  const groups = membership.groupsOf(person.id);
  const explain = explainer(membership, person.id);
  const grants = grantsOf(db);
  return panels.map((panel) =>
    judge(
      person,
      panel,
      {
        direct: direct.has(panel.id),
        groups,
        links: links.get(panel.id) ?? NO_LINKS,
        roles: roles.get(panel.id) ?? NO_ROLES,
        publicGroups: membership.publicGroups,
        grants,
      },
      explain,
    ),
  );
}

/**
 * Everyone in the directory with a reason to see the panel (an administrator, a direct link, a linked group at any
 * depth), each with the model's explained answer, inactive people included; and the panel's public groups that
 * grant nothing, linked (`papel` null) or in a role. Null when there is no such panel. Each linked group is walked
 * once, however many people it holds.
 */
export async function explainPanel(
  db: Db,
  painelId: number,
): Promise<{
  panel: Painel;
  people: { entry: DirectoryEntry; access: ExplainedAccess }[];
  ignored: { grupo: GrupoVinculado; papel: string | null }[];
} | null> {
  const panel = (await catalogue(db)).byId.get(painelId);
  if (!panel) return null;
  const [people, membership, direct, links, roles] = await Promise.all([
    directoryEntries(db),
    groupMembership(db),
    directOfPanel.get(db, painelId),
    groupLinks.get(db),
    panel.usaRls ? panelRoles(db, painelId) : NO_ROLES,
  ]);
  const linked = links.get(painelId) ?? NO_LINKS;
  const grants = grantsOf(db);
  // A linked group that lets nobody in gives its people no reason to be asked about.
  const opening = linked.filter((g) => grants.paineis || !g.publico);
  const paths = new Map(opening.map((g) => [g.id, membership.peopleWithPaths(g.id)]));
  const candidates = new Set<string>(direct);
  for (const entry of people.values()) if (entry.administrador) candidates.add(entry.id);
  for (const below of paths.values()) for (const id of below.keys()) candidates.add(id);
  const ignored = [
    ...(grants.paineis ? [] : linked.filter((g) => g.publico).map((grupo) => ({ grupo, papel: null }))),
    ...(grants.papeisRls
      ? []
      : roles.flatMap((role) =>
          [...role.groups]
            .filter((id) => membership.publicGroups.has(id))
            .map((id) => ({ grupo: groupOf(membership, id), papel: role.roleName })),
        )),
  ];
  return {
    panel,
    people: [...candidates].flatMap((id) => {
      const entry = people.get(id);
      if (!entry) return [];
      const facts = {
        direct: direct.has(id),
        groups: membership.groupsOf(id),
        links: linked,
        roles,
        publicGroups: membership.publicGroups,
        grants,
      };
      return [{ entry, access: judge(personOf(entry), panel, facts, explainer(membership, id, paths)) }];
    }),
    ignored,
  };
}
