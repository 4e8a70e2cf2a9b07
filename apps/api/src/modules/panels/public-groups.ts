import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';

/**
 * What a public Microsoft 365 group may grant (PUBLIC_GROUPS_GRANT, docs/decisions/018-access-by-group.md, "Public
 * groups"): anyone in the organisation may join one unapproved, so linking it to a panel or listing it in an RLS role
 * hands that panel or role to whoever wants it.
 */

export type PublicGroupsGrant = Config['publicGroupsGrant'];

/** What a group linked to a panel (`paineis`: it opens the panel) or listed in an RLS role (`papeisRls`) grants. */
export interface GroupGrants {
  paineis: boolean;
  papeisRls: boolean;
}

/** Each setting's grants for a public group; any other group grants both. */
const PUBLIC_GROUP_GRANTS: Record<PublicGroupsGrant, GroupGrants> = {
  all: { paineis: true, papeisRls: true },
  panels: { paineis: true, papeisRls: false },
  none: { paineis: false, papeisRls: false },
};

/** What a public group grants under this setting. */
export const publicGroupGrants = (setting: PublicGroupsGrant): GroupGrants => PUBLIC_GROUP_GRANTS[setting];

/**
 * The setting of the app that opened each database. The access model is asked with a database alone, by the opening,
 * the lists, the explanations and the deliveries alike, and the tests run apps with different settings side by side:
 * so the setting goes with the database, as the model's caches do. A database no app registered (a transaction, say)
 * follows the last one registered: one app per process outside the tests.
 */
const settings = new WeakMap<Db, PublicGroupsGrant>();
let latest: PublicGroupsGrant = 'panels';

/** Called once by the panels module with the app's database and configuration. */
export function configurePublicGroups(db: Db, setting: PublicGroupsGrant): void {
  settings.set(db, setting);
  latest = setting;
}

/** The setting for this database. */
export const publicGroupsGrantOf = (db: Db): PublicGroupsGrant => settings.get(db) ?? latest;
