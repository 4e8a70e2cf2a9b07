import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/env.ts';

/** Who is asking, as far as panels care: admins see and manage every panel, everyone else only their links. */
export interface Requester {
  id: string;
  /** The directory's e-mail, as stored (docs/decisions/013-identity-from-the-directory.md). */
  email: string;
  /** The directory's user principal name, as stored; null for people who never came from Graph. */
  upn: string | null;
  /** The effective identity's username on RLS panels (rlsUsernameOf). */
  username: string;
  isAdmin: boolean;
}

/**
 * The RLS username of a stored person: their UPN (RLS_USERNAME=upn, the default), which USERPRINCIPALNAME() returns
 * in the report, or their directory e-mail (RLS_USERNAME=mail). People without a UPN (local accounts, demo data)
 * use their e-mail either way.
 */
export const rlsUsernameOf = (person: { email: string; upn: string | null }, setting: Config['rlsUsername']) =>
  setting === 'mail' ? person.email : (person.upn ?? person.email);

/** A stored person as the panel rules see them, for work done on their behalf without a session (subscriptions). */
export const requesterOfPerson = (
  person: { id: string; email: string; upn: string | null; administrador: boolean },
  setting: Config['rlsUsername'],
): Requester => ({
  id: person.id,
  email: person.email,
  upn: person.upn,
  username: rlsUsernameOf(person, setting),
  isAdmin: person.administrador,
});

export const requesterOf = (request: FastifyRequest): Requester => ({
  id: request.user.id,
  email: request.user.email,
  upn: request.user.upn,
  username: rlsUsernameOf(request.user, request.server.config.rlsUsername),
  isAdmin: request.user.role === 'Admin',
});
