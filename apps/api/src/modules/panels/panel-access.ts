import { PANEL_NOT_FOUND, type Painel } from '@paineis/contract/panels';
import { sameRoleName } from '@paineis/contract/text';
import type { Db } from '../../db/client.ts';
import { forbidden, invalid, notFound } from '../../lib/domain-failure.ts';
import { evaluate, evaluateNow, signedIn, visiblePanelIds, type Access, type Viewer } from './access-model.ts';
import { catalogue } from './panel-catalog.repository.ts';
import type { Requester } from './requester.ts';

/**
 * The opening of a panel, and the other answers of the signed-in person's panels, worded from the access model
 * (access-model.ts): its 404s, 403s and 400s.
 */

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
export const panelsVisibleTo = (db: Db, viewer: Viewer): Promise<number[]> => visiblePanelIds(db, viewer);

/** Every panel, in the list screen's order, from memory: what the Power BI side reads and checks for. */
export const allPanels = async (db: Db): Promise<readonly Painel[]> => (await catalogue(db)).panels;

/** The access model's answer for a panel this person sees; 404 otherwise, as if it did not exist. */
export async function requireVisibleAccess(db: Db, id: number, requester: Requester): Promise<Access> {
  const access = await evaluate(db, signedIn(requester), id);
  if (!access?.sees) throw notFound(PANEL_NOT_FOUND);
  return access;
}

/** The panel if this person may see it; 404 otherwise, as if it did not exist. */
export async function requireVisiblePanel(db: Db, id: number, requester: Requester): Promise<Painel> {
  return (await requireVisibleAccess(db, id, requester)).panel;
}

/**
 * Who may open a panel, and with which RLS identity, as the access model answers:
 * - a panel the person does not see is 404, as if it did not exist;
 * - on a panel with RLS, a user opens with the roles that list them, and is refused (403) when none does; an admin
 *   opens with every role, or only the one chosen in `papel`, spelled as the panel spells it (with none configured
 *   yet, that is no role: Power BI then refuses the identity);
 * - `papel` is for admins (403 otherwise) and only on panels with RLS (400), naming one of its roles (400).
 */
export async function openPanel(
  db: Db,
  id: number,
  requester: Requester,
  papel: string | undefined,
): Promise<PanelOpening> {
  return openingOf(await requireVisibleAccess(db, id, requester), requester, papel);
}

/**
 * openPanel answered from memory, as nearly every opening can be: undefined when it would have to wait on the
 * database (part of the access model not loaded). Refuses exactly as openPanel does.
 */
export function openPanelNow(
  db: Db,
  id: number,
  requester: Requester,
  papel: string | undefined,
): PanelOpening | undefined {
  const access = evaluateNow(db, signedIn(requester), id);
  if (access === undefined) return undefined;
  if (!access?.sees) throw notFound(PANEL_NOT_FOUND);
  return openingOf(access, requester, papel);
}

/** The opening the model's answer allows a person who sees the panel, with the role an admin chose in `papel`. */
export function openingOf(
  access: Access,
  requester: Pick<Requester, 'isAdmin'>,
  papel: string | undefined,
): PanelOpening {
  const { panel } = access;
  if (papel !== undefined && !requester.isAdmin) throw forbidden(ROLE_CHOICE_ADMIN_ONLY);
  if (papel !== undefined && !panel.usaRls) throw invalid(NO_RLS_ROLE_TO_CHOOSE);
  if (!access.opens) throw forbidden(NO_RLS_ROLE_FOR_PERSON);
  if (papel === undefined) return { panel, roles: [...access.roles] };
  const chosen = access.roles.find((role) => sameRoleName(role, papel));
  if (chosen === undefined) throw invalid(unknownRlsRole(papel));
  return { panel, roles: [chosen] };
}
