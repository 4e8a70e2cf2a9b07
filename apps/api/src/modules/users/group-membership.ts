import type { Grupo365 } from '@paineis/contract/groups';
import type { Db } from '../../db/client.ts';
import { VersionedCache } from '../../db/versioned-cache.ts';
import { byNome } from '../../lib/collation.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { isPublicGroup, loadGroups, type StoredGroup } from './groups.repository.ts';

/**
 * Who belongs to which Entra group, at any depth, from memory (docs/decisions/018-access-by-group.md): the groups and
 * their direct members are loaded once per change of either (data set 'grupos', pushed to every instance), and each
 * person's groups are worked out upwards through the nesting on first use, then kept with that load.
 */

export type DirectoryGroup = StoredGroup;

class Membership {
  readonly groups = new Map<string, DirectoryGroup>();
  /** The public Microsoft 365 groups: anyone in the organisation may join them unapproved. */
  readonly publicGroups = new Set<string>();
  /** Each member's (person's or group's) groups that list it directly. */
  private readonly parents = new Map<string, string[]>();
  /** Each group's direct members: nested groups and people. */
  private readonly childGroups = new Map<string, string[]>();
  private readonly people = new Map<string, string[]>();
  /** Each group's groups above it, itself included; each person's groups at any depth. Filled on first use. */
  private readonly above = new Map<string, ReadonlySet<string>>();
  private readonly ofPerson = new Map<string, ReadonlySet<string>>();
  private counts: Map<string, number> | null = null;

  constructor({ groups, memberships }: Awaited<ReturnType<typeof loadGroups>>) {
    for (const group of groups) {
      this.groups.set(group.id, group);
      if (isPublicGroup(group)) this.publicGroups.add(group.id);
    }
    for (const [grupoId, membroId, isGroup] of memberships) {
      push(this.parents, membroId, grupoId);
      push(isGroup ? this.childGroups : this.people, grupoId, membroId);
    }
  }

  /** The group and every group it is nested in, at any depth (a cycle, which Entra refuses, ends the walk). */
  private groupsAbove(groupId: string): ReadonlySet<string> {
    let found = this.above.get(groupId);
    if (found) return found;
    const seen = new Set<string>([groupId]);
    const queue = [groupId];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      for (const parent of this.parents.get(next) ?? []) {
        if (!seen.has(parent) && this.groups.has(parent)) {
          seen.add(parent);
          queue.push(parent);
        }
      }
    }
    this.above.set(groupId, (found = seen));
    return found;
  }

  /** The groups a person belongs to, directly or through nested groups. */
  groupsOf(personId: string): ReadonlySet<string> {
    let found = this.ofPerson.get(personId);
    if (found) return found;
    const all = new Set<string>();
    for (const direct of this.parents.get(personId) ?? []) {
      if (!this.groups.has(direct)) continue;
      for (const group of this.groupsAbove(direct)) all.add(group);
    }
    this.ofPerson.set(personId, (found = all));
    return found;
  }

  /** How many people each group holds at any depth, each once. */
  memberCounts(): Map<string, number> {
    if (this.counts) return this.counts;
    const counts = new Map<string, number>();
    const everyone = new Set<string>();
    for (const members of this.people.values()) for (const person of members) everyone.add(person);
    for (const person of everyone) {
      for (const group of this.groupsOf(person)) counts.set(group, (counts.get(group) ?? 0) + 1);
    }
    return (this.counts = counts);
  }

  /**
   * The nesting from `top` down to a group that lists the person directly: [top, …, their own group], the shortest
   * such path; null when the person is not in `top` at any depth.
   */
  pathDown(top: string, personId: string): string[] | null {
    const theirs = this.groupsOf(personId);
    if (!theirs.has(top)) return null;
    const direct = new Set(this.parents.get(personId));
    let found: string[] | null = null;
    // Only the person's own groups lead down to them, and every group above one of theirs is theirs too: the walk
    // kept to them visits those groups as the whole walk would, in the same order, without the rest of `top`.
    this.walkDown(
      top,
      (group, path) => {
        if (direct.has(group)) found = path;
        return found !== null;
      },
      theirs,
    );
    return found;
  }

  /**
   * Every person in the group at any depth, each with the shortest nesting from `top` down to a group that lists
   * them directly ([top, …, their own group]). One walk down, however many people.
   */
  peopleWithPaths(top: string): Map<string, string[]> {
    const found = new Map<string, string[]>();
    this.walkDown(top, (group, path) => {
      for (const person of this.people.get(group) ?? []) if (!found.has(person)) found.set(person, path);
      return false;
    });
    return found;
  }

  /**
   * Visits `top` and the groups nested in it, breadth first and each once, with the path from `top` down to it;
   * stops when `visit` answers true. With `within`, only the groups it holds are visited.
   */
  private walkDown(top: string, visit: (group: string, path: string[]) => boolean, within?: ReadonlySet<string>): void {
    if (!this.groups.has(top)) return;
    const pathOf = new Map<string, string[]>([[top, [top]]]);
    const queue = [top];
    for (let i = 0; i < queue.length; i++) {
      const group = queue[i]!;
      const path = pathOf.get(group)!;
      if (visit(group, path)) return;
      for (const child of this.childGroups.get(group) ?? []) {
        if (!pathOf.has(child) && this.groups.has(child) && (!within || within.has(child))) {
          pathOf.set(child, [...path, child]);
          queue.push(child);
        }
      }
    }
  }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const membership = new VersionedCache(['grupos'], async (db) => new Membership(await loadGroups(db)));

/** The membership as loaded now: callers must not modify what it returns. */
export const groupMembership = (db: Db): Promise<Membership> => membership.get(db);

const listings = new WeakMap<Membership, PreparedJson>();

/**
 * GET /grupos365: every group by name, with its people at any depth, whether it is public and what linking it grants
 * (`publicGrants`: what a public group may grant here, constant for the database); built once per load of the
 * membership.
 */
export async function directoryGroupsJson(db: Db, publicGrants: Grupo365['concede']): Promise<PreparedJson> {
  const loaded = await membership.get(db);
  let json = listings.get(loaded);
  if (!json) {
    const counts = loaded.memberCounts();
    const everything = { paineis: true, papeisRls: true };
    const list: Grupo365[] = [...loaded.groups.values()]
      .map(({ id, nome, descricao, tipo }) => {
        const publico = loaded.publicGroups.has(id);
        const concede = publico ? publicGrants : everything;
        return { id, nome, descricao, tipo, membros: counts.get(id) ?? 0, publico, concede };
      })
      .sort((a, b) => byNome(a, b) || (a.id < b.id ? -1 : 1));
    listings.set(loaded, (json = new PreparedJson(list)));
  }
  return json;
}

/** A person's groups at any depth. */
export async function groupsOfPerson(db: Db, personId: string): Promise<ReadonlySet<string>> {
  return (await membership.get(db)).groupsOf(personId);
}

/** groupsOfPerson without waiting: undefined when the membership is not in memory. */
export function groupsOfPersonNow(db: Db, personId: string): ReadonlySet<string> | undefined {
  return membership.peek(db)?.groupsOf(personId);
}

/** The public Microsoft 365 groups' ids (anyone may join them). */
export async function publicGroups(db: Db): Promise<ReadonlySet<string>> {
  return (await membership.get(db)).publicGroups;
}

/** publicGroups without waiting: undefined when the membership is not in memory. */
export function publicGroupsNow(db: Db): ReadonlySet<string> | undefined {
  return membership.peek(db)?.publicGroups;
}

export type { Membership };
