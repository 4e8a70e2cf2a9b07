import type { Painel } from '@paineis/contract/panels';
import { ASSINATURA_MESSAGES } from '@paineis/contract/subscriptions';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { panelAudience, personOf } from '../panels/access-model.ts';
import { requesterOfPerson, type Requester } from '../panels/requester.ts';
import { directoryEntries, groupMembership, type DirectoryEntry } from '../users/users.service.ts';
import { namedRecipients } from './deliveries.repository.ts';

/**
 * Who receives a subscription's delivery, and with which identity (docs/requirements.md#subscriptions): the owner
 * alone, or the people and the members of the groups an administrator named, each once; every one of them only if
 * the access model says they may open the panel now, with the RLS identity their own opening would carry.
 */

export type Recipient = DirectoryEntry;

/**
 * The people named plus the members at any depth of the groups named, each once, in the order named. People the
 * portal does not hold (a group member never synced) are left out: there is nobody to send to.
 */
export async function peopleAndMembers(
  db: Db,
  named: { usuarios: readonly string[]; grupos: readonly string[] },
): Promise<Recipient[]> {
  const people = await directoryEntries(db);
  const ids = new Set(named.usuarios);
  if (named.grupos.length > 0) {
    const membership = await groupMembership(db);
    for (const grupoId of named.grupos) for (const id of membership.peopleWithPaths(grupoId).keys()) ids.add(id);
  }
  return [...ids].flatMap((id) => {
    const person = people.get(id);
    return person ? [person] : [];
  });
}

/** The recipients as they are now: the owner, or the people and the groups' members an administrator named. */
export async function recipientsOf(
  db: Db,
  subscription: { id: string; usuarioId: string; comDestinatarios: boolean },
): Promise<Recipient[]> {
  return peopleAndMembers(
    db,
    subscription.comDestinatarios
      ? await namedRecipients(db, subscription.id)
      : { usuarios: [subscription.usuarioId], grupos: [] },
  );
}

/** What a recipient's export is rendered with: the username and roles of their effective identity (none without RLS). */
export interface RecipientIdentity {
  /** The panel as it was when they were judged: whether it uses RLS decides whether the export carries the identity. */
  panel: Painel;
  /** The recipient as the directory has them now (their address may have changed since the delivery began). */
  recipient: Recipient;
  requester: Requester;
  /** The RLS roles of their opening, in the panel's order; empty without RLS. */
  roles: string[];
  /** Recipients who share it share one export: `username|roles` on a panel with RLS, '' without. */
  key: string;
}

/**
 * The recipient's identity on the panel now, as the access model answers for them as the directory has them now; null
 * when they get nothing: unknown or inactive, a panel they may not open (no link), an RLS panel where no role lists
 * them, or no panel any more.
 */
export async function identityOf(
  db: Db,
  painelId: number,
  usuarioId: string,
  rlsUsername: Config['rlsUsername'],
): Promise<RecipientIdentity | null> {
  const [audience, people] = await Promise.all([panelAudience(db, painelId), directoryEntries(db)]);
  const recipient = people.get(usuarioId);
  if (!audience || !recipient) return null;
  const access = audience.evaluate(personOf(recipient));
  if (!access.opens) return null;
  const requester = requesterOfPerson(recipient, rlsUsername);
  const roles = [...access.roles];
  const key = audience.panel.usaRls ? `${requester.username}|${[...roles].sort().join(',')}` : '';
  return { panel: audience.panel, recipient, requester, roles, key };
}

/**
 * Why nothing of this subscription may be sent, whoever it is for, as its owner is now (null: nothing stops it): an
 * owner who is inactive, or no longer an administrator for a subscription for others (only administrators may make
 * one). An owner the portal no longer holds is inactive.
 */
export function ownerStop(
  owner: Pick<DirectoryEntry, 'ativo' | 'administrador'> | undefined,
  comDestinatarios: boolean,
): string | null {
  if (!owner?.ativo) return ASSINATURA_MESSAGES.donoInativo;
  if (comDestinatarios && !owner.administrador) return ASSINATURA_MESSAGES.donoNaoAdministrador;
  return null;
}

/** ownerStop for the owner as the directory has them now. */
export async function ownerStopNow(
  db: Db,
  subscription: { usuarioId: string; comDestinatarios: boolean },
): Promise<string | null> {
  return ownerStop((await directoryEntries(db)).get(subscription.usuarioId), subscription.comDestinatarios);
}
