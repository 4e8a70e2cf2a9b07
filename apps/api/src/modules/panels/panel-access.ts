import { PANEL_NOT_FOUND, type Painel } from '@paineis/contract/panels';
import { sameRoleName } from '@paineis/contract/text';
import type { Db } from '../../db/client.ts';
import { forbidden, invalid, notFound } from '../../lib/domain-failure.ts';
import type { GrupoVinculado } from '@paineis/contract/groups';
import type { RlsConfiguration } from '@paineis/contract/rls';
import {
  catalogPanel,
  findVisiblePanel,
  visibleCatalog,
  visiblePanelIds,
  visiblePanelNow,
} from './panel-catalog.repository.ts';
import { groupLinksByPanel, linkedGroups } from './panel-groups.repository.ts';
import { linkedUserIds, panelsLinkedTo } from './panel-users.repository.ts';
import type { Requester } from './requester.ts';
import { getRls as panelRlsOf, panelRoles, panelRolesNow, rlsByPanel, type RoleMembers } from './rls.repository.ts';
import { groupsOfPerson, groupsOfPersonNow } from '../users/users.service.ts';

export const NO_RLS_ROLE_FOR_PERSON =
  'Você não está em nenhum papel de segurança em nível de linha (RLS) deste painel. Peça acesso a um administrador.';
export const ROLE_CHOICE_ADMIN_ONLY = 'Somente administradores podem visualizar um painel como um papel RLS escolhido.';
export const NO_RLS_ROLE_TO_CHOOSE = 'Este painel não usa RLS: não há papel a escolher.';
export const unknownRlsRole = (papel: string) => `O papel RLS "${papel}" não existe neste painel.`;

/** A panel this person may open, and the RLS roles its report opens with (none on a panel without RLS). */
export interface PanelOpening {
  panel: Painel;
  roles: string[];
}

/**
 * The ids of the panels this person may see (every panel for an admin), in the list screen's order: what each
 * person keeps for themselves (favourites, recents) is answered only within these.
 */
export const panelsVisibleTo = (db: Db, requester: Pick<Requester, 'id' | 'isAdmin'>): Promise<number[]> =>
  visiblePanelIds(db, requester);

/** Every panel, in the list screen's order, from memory: what the Power BI side reads and checks for. */
export const allPanels = async (db: Db): Promise<readonly Painel[]> =>
  (await visibleCatalog(db, { id: '', isAdmin: true })).panels;

/** The panel if this person may see it; 404 otherwise, as if it did not exist. */
export async function requireVisiblePanel(db: Db, id: number, requester: Requester): Promise<Painel> {
  const panel = await findVisiblePanel(db, id, requester);
  if (!panel) throw notFound(PANEL_NOT_FOUND);
  return panel;
}

/**
 * Who may open a panel, and with which RLS identity:
 * - an admin opens any panel; a user only a panel linked to them (any other is 404, as if it did not exist);
 * - on a panel with RLS, a user gets the roles that list their directory e-mail or UPN, in the panel's order, and
 *   is refused (403) when no role does; an admin gets every role, or only the one chosen in `papel`, spelled as
 *   the panel spells it (with none configured yet, that is no role: Power BI then refuses the identity);
 * - `papel` is for admins (403 otherwise) and only on panels with RLS (400), naming one of its roles (400).
 */
export async function openPanel(
  db: Db,
  id: number,
  requester: Requester,
  papel: string | undefined,
): Promise<PanelOpening> {
  return openingOf(db, await requireVisiblePanel(db, id, requester), requester, papel);
}

/**
 * openPanel answered from memory, as nearly every opening can be: undefined when it would have to wait on the
 * database (the catalogue, this person's links or the panel's roles not loaded). Refuses exactly as openPanel does.
 */
export function openPanelNow(
  db: Db,
  id: number,
  requester: Requester,
  papel: string | undefined,
): PanelOpening | undefined {
  const panel = visiblePanelNow(db, id, requester);
  if (panel === undefined) return undefined;
  if (!panel) throw notFound(PANEL_NOT_FOUND);
  checkRoleChoice(panel, requester, papel);
  if (!panel.usaRls) return { panel, roles: [] };
  const configured = panelRolesNow(db, panel.id);
  const groups = requester.isAdmin ? NO_GROUPS : groupsOfPersonNow(db, requester.id);
  return configured && groups && rolesOf(panel, requester, papel, configured, groups);
}

/** openPanel's answer for a panel the caller already found visible to this person (requireVisiblePanel). */
export async function openingOf(
  db: Db,
  panel: Painel,
  requester: Requester,
  papel: string | undefined,
): Promise<PanelOpening> {
  checkRoleChoice(panel, requester, papel);
  if (!panel.usaRls) return { panel, roles: [] };
  const [configured, groups] = await Promise.all([
    panelRoles(db, panel.id),
    requester.isAdmin ? NO_GROUPS : groupsOfPerson(db, requester.id),
  ]);
  return rolesOf(panel, requester, papel, configured, groups);
}

/** An admin opens with every role, or the one chosen: their groups do not matter. */
const NO_GROUPS: ReadonlySet<string> = new Set();

function checkRoleChoice(panel: Painel, requester: Requester, papel: string | undefined): void {
  if (papel !== undefined && !requester.isAdmin) throw forbidden(ROLE_CHOICE_ADMIN_ONLY);
  if (papel !== undefined && !panel.usaRls) throw invalid(NO_RLS_ROLE_TO_CHOOSE);
}

/** The roles an RLS panel opens with for this person, from its configured roles. */
function rolesOf(
  panel: Painel,
  requester: Requester,
  papel: string | undefined,
  configured: RoleMembers[],
  groups: ReadonlySet<string>,
): PanelOpening {
  if (!requester.isAdmin) {
    const [email, upn] = rlsAddresses(requester);
    // Or a group the person is in at any depth (docs/decisions/018-access-by-group.md).
    const roles = configured
      .filter((role) => role.emails.has(email) || role.emails.has(upn) || sharesGroup(role.groups, groups))
      .map((role) => role.roleName);
    if (roles.length === 0) throw forbidden(NO_RLS_ROLE_FOR_PERSON);
    return { panel, roles };
  }
  const roles = configured.map((role) => role.roleName);
  if (papel !== undefined) {
    const chosen = roles.find((role) => sameRoleName(role, papel));
    if (chosen === undefined) throw invalid(unknownRlsRole(papel));
    return { panel, roles: [chosen] };
  }
  return { panel, roles };
}

/**
 * The addresses an RLS role's e-mails are matched against, as stored (lower case): the person's directory e-mail and
 * UPN (their e-mail when they have none). The stored directory identity, never a token claim
 * (docs/decisions/013-identity-from-the-directory.md).
 */
export function rlsAddresses(person: { email: string; upn: string | null }): [email: string, upn: string] {
  const email = person.email.toLowerCase();
  return [email, person.upn?.toLowerCase() ?? email];
}

function sharesGroup(listed: ReadonlySet<string>, groups: ReadonlySet<string>): boolean {
  for (const group of listed) if (groups.has(group)) return true;
  return false;
}

/** What decides who may open a panel and with which roles: its direct links, its groups and its RLS roles. */
export interface PanelRules {
  panel: Painel;
  /** People linked directly (for one person's view: that person, when linked). */
  people: ReadonlySet<string>;
  groups: GrupoVinculado[];
  roles: RlsConfiguration[];
}

/** The rules of one panel (404 as if it did not exist when there is none). */
export async function panelRules(db: Db, id: number): Promise<PanelRules> {
  const panel = await catalogPanel(db, id);
  if (!panel) throw notFound(PANEL_NOT_FOUND);
  const [people, groups, roles] = await Promise.all([
    linkedUserIds(db, id),
    linkedGroups(db, id),
    panel.usaRls ? panelRlsOf(db, id) : [],
  ]);
  return { panel, people: new Set(people), groups, roles };
}

/** Every panel's rules as they bear on one person, in the list screen's order. */
export async function rulesForPerson(db: Db, usuarioId: string): Promise<PanelRules[]> {
  const [{ panels }, direct, groups] = await Promise.all([
    visibleCatalog(db, { id: '', isAdmin: true }),
    panelsLinkedTo(db, usuarioId),
    groupLinksByPanel(db),
  ]);
  const roles = await rlsByPanel(
    db,
    panels.filter((p) => p.usaRls).map((p) => p.id),
  );
  const linked = new Set([usuarioId]);
  const nobody = new Set<string>();
  return panels.map((panel) => ({
    panel,
    people: direct.has(panel.id) ? linked : nobody,
    groups: groups.get(panel.id) ?? [],
    roles: roles.get(panel.id) ?? [],
  }));
}
