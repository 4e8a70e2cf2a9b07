import type { Usuario365, UsuarioVinculado } from '@paineis/contract/users';
import { searchKey } from '../../../lib/search-key.ts';

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
const byName = (a: PickerUser, b: PickerUser) =>
  collator.compare(a.displayName, b.displayName) || collator.compare(a.email, b.email);

function pickerUser(u: Omit<PickerUser, 'search'>): PickerUser {
  return {
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    department: u.department,
    // Newlines keep a query from matching across the end of one field and the start of the next.
    search: searchKey(`${u.displayName}\n${u.email}\n${u.department ?? ''}`),
  };
}

interface PreparedDirectory {
  users: PickerUser[];
  ids: ReadonlySet<string>;
}

// The directory as the table needs it, once per list the server sent (the query keeps the same array while the
// directory is unchanged), so opening the modal for another panel does not sort and normalize it all again.
const preparedDirectories = new WeakMap<readonly Usuario365[], PreparedDirectory>();

function prepareDirectory(active: readonly Usuario365[]): PreparedDirectory {
  let prepared = preparedDirectories.get(active);
  if (!prepared) {
    const byId = new Map<string, PickerUser>();
    for (const u of active) byId.set(u.id, pickerUser(u));
    // The server sends them in name order already: the sort then only checks it.
    prepared = { users: Array.from(byId.values()).sort(byName), ids: new Set(byId.keys()) };
    preparedDirectories.set(active, prepared);
  }
  return prepared;
}

/** Where `user` goes in `users` (sorted by name) to keep the order. */
function insertionPoint(users: readonly PickerUser[], user: PickerUser): number {
  let low = 0;
  let high = users.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byName(users[mid]!, user) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The active users by name (pt-BR), plus any linked user no longer active, so that every selected id has a row
 * and stays linked unless the admin unticks it.
 */
export function preparePickerUsers(active: readonly Usuario365[], linked: readonly UsuarioVinculado[]): PickerUser[] {
  const directory = prepareDirectory(active);
  const missing = new Map<string, PickerUser>();
  for (const u of linked) {
    if (!directory.ids.has(u.id) && !missing.has(u.id)) missing.set(u.id, pickerUser({ ...u, department: null }));
  }
  if (missing.size === 0) return directory.users;
  const users = directory.users.slice();
  for (const user of missing.values()) users.splice(insertionPoint(users, user), 0, user);
  return users;
}

/** Selected users first, each part keeping the name order of `users`: linear, no re-sort. */
export function selectedFirst(users: PickerUser[], selected: ReadonlySet<string>): PickerUser[] {
  const chosen: PickerUser[] = [];
  const others: PickerUser[] = [];
  for (const u of users) (selected.has(u.id) ? chosen : others).push(u);
  return chosen.length === 0 ? others : chosen.concat(others);
}

// Per list, the last query's result: the next character typed only filters that (see filterUsers).
const lastResults = new WeakMap<readonly PickerUser[], { needle: string; users: PickerUser[] }>();

/**
 * Users whose name, e-mail or department contains the query, ignoring case and accents. A query containing the
 * previous one on the same list (the next character typed) only filters the previous result: every user whose text
 * contains the longer query contains the shorter one, so is among them, in the same order.
 */
export function filterUsers(users: PickerUser[], query: string): PickerUser[] {
  const needle = searchKey(query);
  if (!needle) return users;
  const previous = lastResults.get(users);
  const pool = previous && needle.includes(previous.needle) ? previous.users : users;
  const found = pool.filter((u) => u.search.includes(needle));
  lastResults.set(users, { needle, users: found });
  return found;
}
