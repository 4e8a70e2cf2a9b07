import { normalizeSearch } from '@paineis/contract/text';
import type { Usuario365, UsuarioVinculado } from '@paineis/contract/users';

/** A row of the links table, with its search text worked out once per user list. */
export interface PickerUser {
  id: string;
  displayName: string;
  email: string;
  department: string | null;
  search: string;
}

// One collator for every comparison: creating one per call would dominate sorting tens of thousands.
const collator = new Intl.Collator('pt-BR');

/**
 * The active users by name (pt-BR), plus any linked user no longer active, so that every selected id has a row
 * and stays linked unless the admin unticks it.
 */
export function preparePickerUsers(active: Usuario365[], linked: UsuarioVinculado[]): PickerUser[] {
  const byId = new Map<string, Omit<PickerUser, 'search'>>();
  for (const u of linked) byId.set(u.id, { ...u, department: null });
  for (const u of active) byId.set(u.id, u);
  return Array.from(byId.values(), (u) => ({
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    department: u.department,
    // Newlines keep a query from matching across the end of one field and the start of the next.
    search: normalizeSearch(`${u.displayName}\n${u.email}\n${u.department ?? ''}`),
  })).sort((a, b) => collator.compare(a.displayName, b.displayName) || collator.compare(a.email, b.email));
}

/** Selected users first, each part keeping the name order of `users`: linear, no re-sort. */
export function selectedFirst(users: PickerUser[], selected: ReadonlySet<string>): PickerUser[] {
  const chosen: PickerUser[] = [];
  const others: PickerUser[] = [];
  for (const u of users) (selected.has(u.id) ? chosen : others).push(u);
  return chosen.length === 0 ? others : chosen.concat(others);
}

/** Users whose name, e-mail or department contains the query, ignoring case and accents. */
export function filterUsers(users: PickerUser[], query: string): PickerUser[] {
  const needle = normalizeSearch(query);
  return needle ? users.filter((u) => u.search.includes(needle)) : users;
}
