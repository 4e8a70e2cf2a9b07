import type { Painel } from '@paineis/contract/panels';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { DomainFailure } from '../../lib/domain-failure.ts';
import { openingOf, requireVisiblePanel } from '../panels/panel-access.ts';
import { rlsUsernameOf, type Requester } from '../panels/requester.ts';
import { directoryEntries, groupMembership, type DirectoryEntry } from '../users/users.service.ts';
import { namedRecipients } from './deliveries.repository.ts';

/**
 * Who receives a subscription's delivery, and with which identity (docs/requirements.md#subscriptions): the owner
 * alone, or the people and the members of the groups an administrator named, each once; every one of them only if
 * they may open the panel now, with the RLS identity their own opening would carry.
 */

export type Recipient = DirectoryEntry;

/**
 * The recipients as they are now: the owner, or the people named plus the members at any depth of the groups named,
 * each once, in the order named. People the portal does not hold (a group member never synced) are left out: there is
 * nobody to send to.
 */
export async function recipientsOf(
  db: Db,
  subscription: { id: string; usuarioId: string; comDestinatarios: boolean },
): Promise<Recipient[]> {
  const people = await directoryEntries(db);
  const ids = new Set<string>();
  if (!subscription.comDestinatarios) {
    ids.add(subscription.usuarioId);
  } else {
    const named = await namedRecipients(db, subscription.id);
    for (const id of named.usuarios) ids.add(id);
    if (named.grupos.length > 0) {
      const membership = await groupMembership(db);
      for (const grupoId of named.grupos) for (const id of membership.peopleWithPaths(grupoId).keys()) ids.add(id);
    }
  }
  return [...ids].flatMap((id) => {
    const person = people.get(id);
    return person ? [person] : [];
  });
}

/** What a recipient's export is rendered with: the username and roles of their effective identity (none without RLS). */
export interface RecipientIdentity {
  requester: Requester;
  /** The RLS roles of their opening, in the panel's order; empty without RLS. */
  roles: string[];
  /** Recipients who share it share one export: `username|roles` on a panel with RLS, '' without. */
  key: string;
}

/**
 * The recipient's identity on the panel now, or null when they get nothing: an inactive account, a panel they may not
 * open (not linked to them), or an RLS panel where no role lists them.
 */
export async function identityOf(
  db: Db,
  panel: Painel,
  recipient: Recipient,
  rlsUsername: Config['rlsUsername'],
): Promise<RecipientIdentity | null> {
  if (!recipient.ativo) return null;
  const requester: Requester = {
    id: recipient.id,
    email: recipient.email,
    upn: recipient.upn,
    username: rlsUsernameOf(recipient, rlsUsername),
    isAdmin: recipient.administrador,
  };
  try {
    const visible = await requireVisiblePanel(db, panel.id, requester);
    const { roles } = await openingOf(db, visible, requester, undefined);
    const key = visible.usaRls ? `${requester.username}|${[...roles].sort().join(',')}` : '';
    return { requester, roles, key };
  } catch (error) {
    // 404 (not theirs to open) or 403 (no RLS role): the refusals an opening would answer them.
    if (error instanceof DomainFailure && (error.kind === 'not-found' || error.kind === 'forbidden')) return null;
    throw error;
  }
}
