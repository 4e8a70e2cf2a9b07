import type { Usuario365 } from '@paineis/contract/users';
import { searchKey } from '../../../lib/search-key.ts';

/** The picker shows at most this many people: the directory may hold tens of thousands. */
export const MAX_PERSON_MATCHES = 50;

interface SearchablePerson {
  person: Usuario365;
  search: string;
}

// Worked out once per list the server sent (the query keeps the same array while the directory is unchanged).
const searchable = new WeakMap<readonly Usuario365[], SearchablePerson[]>();

function searchablePeople(people: readonly Usuario365[]): SearchablePerson[] {
  let list = searchable.get(people);
  if (!list) {
    list = people.map((person) => ({ person, search: searchKey(`${person.displayName}\n${person.email}`) }));
    searchable.set(people, list);
  }
  return list;
}

/**
 * The first MAX_PERSON_MATCHES people (in the server's name order) whose name or e-mail contains the query,
 * ignoring case and accents, and how many match in all. An empty query matches no one.
 */
export function findPeople(people: readonly Usuario365[], query: string): { matches: Usuario365[]; total: number } {
  const needle = searchKey(query);
  if (!needle) return { matches: [], total: 0 };
  const matches: Usuario365[] = [];
  let total = 0;
  for (const { person, search } of searchablePeople(people)) {
    if (!search.includes(needle)) continue;
    total += 1;
    if (matches.length < MAX_PERSON_MATCHES) matches.push(person);
  }
  return { matches, total };
}
