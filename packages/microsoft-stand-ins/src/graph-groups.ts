import { createHash, randomBytes } from 'node:crypto';
import type { StandInContext } from './stand-in-context.ts';
import type { StandInGroup, StandInPerson } from './types.ts';

/*
 * The stand-in directory's groups as Graph v1.0 describes them (the group resource), and their history: a change
 * log from which /groups/delta answers (learn.microsoft.com/graph/delta-query-groups, /graph/api/group-delta).
 * graph.ts serves the routes; this file knows nothing of HTTP beyond the bodies and errors it hands back.
 */

type Body = Record<string, unknown>;

/**
 * The group properties the stand-in serves (and $select accepts), in the order Graph v1.0 writes them: those the
 * group resource returns by default. Properties returned only on $select (allowExternalSenders, unseenCount…) are
 * not served.
 */
export const GROUP_PROPERTIES: readonly string[] = [
  'id',
  'deletedDateTime',
  'classification',
  'createdDateTime',
  'creationOptions',
  'description',
  'displayName',
  'expirationDateTime',
  'groupTypes',
  'isAssignableToRole',
  'mail',
  'mailEnabled',
  'mailNickname',
  'membershipRule',
  'membershipRuleProcessingState',
  'onPremisesDomainName',
  'onPremisesLastSyncDateTime',
  'onPremisesNetBiosName',
  'onPremisesSamAccountName',
  'onPremisesSecurityIdentifier',
  'onPremisesSyncEnabled',
  'preferredDataLocation',
  'preferredLanguage',
  'proxyAddresses',
  'renewedDateTime',
  'resourceBehaviorOptions',
  'resourceProvisioningOptions',
  'securityEnabled',
  'securityIdentifier',
  'theme',
  'visibility',
  'onPremisesProvisioningErrors',
  'serviceProvisioningErrors',
];
/** What List groups, Get group and delta answer without $select. */
export const GROUP_DEFAULT_PROPERTIES = GROUP_PROPERTIES;

/** When the groups the stand-ins start with were created (fixed, like their ids). */
const SEEDED_AT = '2024-01-02T12:00:00Z';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isMicrosoft365 = (group: Pick<StandInGroup, 'groupTypes'>) =>
  (group.groupTypes ?? []).some((type) => type.toLowerCase() === 'unified');

/** A group with every optional field given its default (members and app roles copied). */
function normalized(group: StandInGroup, createdDateTime: string): StandInGroup {
  const unified = isMicrosoft365(group);
  return {
    ...group,
    description: group.description ?? null,
    // A Microsoft 365 group is mail-enabled and, unless made one, not a security group; a security group the opposite.
    securityEnabled: group.securityEnabled ?? !unified,
    mailEnabled: group.mailEnabled ?? unified,
    groupTypes: [...(group.groupTypes ?? [])],
    mail: group.mail ?? null,
    visibility: group.visibility !== undefined ? group.visibility : unified ? 'Public' : null,
    createdDateTime: group.createdDateTime ?? createdDateTime,
    members: [...group.members],
    ...(group.appRoles ? { appRoles: [...group.appRoles] } : {}),
  };
}

/** The mail alias Entra would suggest: ASCII letters and digits of the name, words joined by hyphens. */
function mailNickname(displayName: string): string {
  const ascii = displayName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return ascii.slice(0, 64) || 'grupo';
}

/** Entra's SID of a cloud object: S-1-12-1- and the four 32-bit words of its id, as .NET lays the GUID out. */
function securityIdentifier(id: string): string {
  const hex = GUID.test(id) ? id.replace(/-/g, '') : createHash('sha256').update(id).digest('hex').slice(0, 32);
  const bytes = Buffer.from(hex, 'hex');
  const dotNet = Buffer.concat([
    Buffer.from(bytes.subarray(0, 4)).reverse(),
    Buffer.from(bytes.subarray(4, 6)).reverse(),
    Buffer.from(bytes.subarray(6, 8)).reverse(),
    bytes.subarray(8),
  ]);
  const words = [0, 4, 8, 12].map((offset) => dotNet.readUInt32LE(offset));
  return `S-1-12-1-${words.join('-')}`;
}

/** Every served property of the group, as Graph writes it. */
export function groupValues(group: StandInGroup): Body {
  const unified = isMicrosoft365(group);
  const mail = group.mail ?? null;
  const created = group.createdDateTime ?? SEEDED_AT;
  return {
    id: group.id,
    deletedDateTime: null,
    classification: null,
    createdDateTime: created,
    creationOptions: [],
    description: group.description ?? null,
    displayName: group.displayName,
    expirationDateTime: null,
    groupTypes: [...(group.groupTypes ?? [])],
    isAssignableToRole: null,
    mail,
    mailEnabled: group.mailEnabled ?? unified,
    mailNickname: mailNickname(group.displayName),
    membershipRule: null,
    membershipRuleProcessingState: null,
    onPremisesDomainName: null,
    onPremisesLastSyncDateTime: null,
    onPremisesNetBiosName: null,
    onPremisesSamAccountName: null,
    onPremisesSecurityIdentifier: null,
    onPremisesSyncEnabled: null,
    preferredDataLocation: null,
    preferredLanguage: null,
    proxyAddresses: mail ? [`SMTP:${mail}`] : [],
    renewedDateTime: created,
    resourceBehaviorOptions: [],
    resourceProvisioningOptions: [],
    securityEnabled: group.securityEnabled ?? !unified,
    securityIdentifier: securityIdentifier(group.id),
    theme: null,
    // Graph makes Microsoft 365 groups Public unless told otherwise; security groups have none.
    visibility: group.visibility !== undefined ? group.visibility : unified ? 'Public' : null,
    onPremisesProvisioningErrors: [],
    serviceProvisioningErrors: [],
  };
}

/** A member of a group, as GET /groups/{id}/members lists directory objects. */
type DirectoryMember = { kind: 'user'; person: StandInPerson } | { kind: 'group'; group: StandInGroup };

/**
 * The users and groups that are members of `group`: directly, or also through the groups nested in it (each once;
 * transitiveMembers lists the nested groups themselves too). Ids the directory does not know are left out.
 */
export function memberObjects(ctx: StandInContext, group: StandInGroup, transitive: boolean): DirectoryMember[] {
  const people = new Map(ctx.people.map((person) => [person.id.toLowerCase(), person]));
  const groups = new Map(ctx.groups.map((each) => [each.id.toLowerCase(), each]));
  const found = new Map<string, DirectoryMember>();
  const visited = new Set<string>();
  const visit = (current: StandInGroup) => {
    visited.add(current.id.toLowerCase());
    for (const raw of current.members) {
      const id = raw.toLowerCase();
      const person = people.get(id);
      if (person && !found.has(id)) found.set(id, { kind: 'user', person });
      const nested = groups.get(id);
      if (!nested || id === group.id.toLowerCase()) continue;
      if (!found.has(id)) found.set(id, { kind: 'group', group: nested });
      if (transitive && !visited.has(id)) visit(nested);
    }
  };
  visit(group);
  return [...found.values()];
}

/** One change to the groups, in the order made: what /groups/delta reports. */
type Change =
  | { kind: 'put'; group: StandInGroup }
  | { kind: 'add' | 'remove'; groupId: string; memberId: string }
  | { kind: 'delete'; groupId: string };

interface GroupState {
  group: StandInGroup;
  /** Direct members, in the order added. */
  members: string[];
}

type Groups = Map<string, GroupState>;

const key = (id: string) => id.toLowerCase();

function apply(groups: Groups, change: Change): void {
  switch (change.kind) {
    case 'put': {
      const current = groups.get(key(change.group.id));
      groups.set(key(change.group.id), { group: change.group, members: current?.members ?? [] });
      return;
    }
    case 'add': {
      const state = groups.get(key(change.groupId));
      if (state && !state.members.some((id) => key(id) === key(change.memberId))) {
        state.members = [...state.members, change.memberId];
      }
      return;
    }
    case 'remove': {
      const state = groups.get(key(change.groupId));
      if (state) state.members = state.members.filter((id) => key(id) !== key(change.memberId));
      return;
    }
    case 'delete':
      groups.delete(key(change.groupId));
      return;
  }
}

/** An answer Graph would give instead of a page: its status, error code and message, and any headers. */
export class DirectoryError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface DeltaRequest {
  /** e.g. http://127.0.0.1:41234, for the links. */
  host: string;
  /** The path as requested (/v1.0/groups/delta or /v1.0/groups/microsoft.graph.delta), for the links. */
  path: string;
  /** The properties named in $select ('members' among them, to track membership), or null without $select. */
  select: string[] | null;
  deltaToken: string | null;
  skipToken: string | null;
  /** Prefer: return=minimal: a later round gives only the properties that changed. */
  minimal: boolean;
}

/** What a state token holds: the log's run (epoch), the round (from, to), the position in it and the query. */
interface TokenState {
  /** Changes after this sequence number are the round's (0: the initial round, every group as it is). */
  from: number;
  /** The round's snapshot: the last change it reports. */
  to: number;
  /** Objects of the round already served (skip tokens only). */
  position: number;
  select: string[] | null;
  /** Members per object the round was cut with (skip tokens only), so its positions stay put. */
  membersPerObject: number;
  /** Whether the round reports every membership change as made (setDeltaPaging's everyChange), likewise. */
  everyChange: boolean;
}

const TOKEN_KEY = 'paineis-stand-in-groups-delta';
const DEFAULT_GROUPS_PER_PAGE = 100;
const DEFAULT_MEMBERS_PER_OBJECT = 20;

/**
 * The directory's groups and every change made to them, numbered. `ctx.groups` always holds the current state
 * (other routes and the sign-in's roles read it); the log lets /groups/delta reconstruct the state at any earlier
 * change, so a delta token is simply the number of the last change its round reported.
 */
export class GroupDirectory {
  private readonly log: Change[] = [];
  /** The state after every change of the log, kept as the log grows (ctx.groups is published from it). */
  private readonly live: Groups = new Map();
  /**
   * The last rounds cut, by everything that shapes them: the log only grows, so a round from change `from` to
   * change `to` never changes, and each page of it is served without replaying the log and cutting it again.
   */
  private readonly rounds = new Map<string, { groupKey: string; body: Body }[]>();
  /** States after so many changes (stateAt), the last few asked for. */
  private readonly snapshots = new Map<number, Groups>();
  /** Changes since the stand-ins started; tokens of another epoch (a restart, expireDeltaTokens) are refused. */
  private epoch = randomBytes(6).toString('base64url');
  private groupsPerPage = DEFAULT_GROUPS_PER_PAGE;
  private membersPerObject = DEFAULT_MEMBERS_PER_OBJECT;
  private everyChange = false;
  /** The status an expired token is answered with (expireDeltaTokens): 410 with Location unless told otherwise. */
  private expiredStatus = 410;

  constructor(private readonly ctx: StandInContext) {
    const seeded = ctx.groups.map((group) => normalized(group, SEEDED_AT));
    for (const group of seeded) this.record({ kind: 'put', group: { ...group, members: [] } });
    for (const group of seeded) {
      for (const memberId of group.members) this.record({ kind: 'add', groupId: group.id, memberId });
    }
    this.publish();
  }

  /**
   * The state after the first `sequence` changes: read only. The last few are kept, and a later one is replayed from
   * the nearest kept before it, so that a round from a delta link replays only the changes since.
   */
  private stateAt(sequence: number): Groups {
    const kept = this.snapshots.get(sequence);
    if (kept) return kept;
    let from = 0;
    for (const at of this.snapshots.keys()) if (at < sequence && at > from) from = at;
    const groups: Groups = new Map();
    // apply() replaces a state's members instead of changing them: the states are copied, their members shared.
    for (const [id, state] of this.snapshots.get(from) ?? []) groups.set(id, { ...state });
    for (let i = from; i < sequence; i++) apply(groups, this.log[i]!);
    this.snapshots.set(sequence, groups);
    if (this.snapshots.size > 4) this.snapshots.delete(this.snapshots.keys().next().value!);
    return groups;
  }

  private record(change: Change): void {
    this.log.push(change);
    apply(this.live, change);
  }

  /** Writes the current state where the other routes read it. */
  private publish(): void {
    this.ctx.groups = [...this.live.values()].map(({ group, members }) => ({
      ...group,
      members: [...members],
    }));
  }

  private current(groupId: string): StandInGroup | undefined {
    return this.ctx.groups.find((group) => key(group.id) === key(groupId));
  }

  private requireGroup(groupId: string): StandInGroup {
    const group = this.current(groupId);
    if (!group) throw new Error(`The stand-in directory has no group ${groupId}.`);
    return group;
  }

  /** Records the difference between the group as it is (if it exists) and `group`. */
  private recordUpsert(group: StandInGroup): void {
    const existing = this.current(group.id);
    const next = normalized(group, existing?.createdDateTime ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
    const fields = { ...next, members: [] };
    if (!existing || JSON.stringify(groupValues(existing)) !== JSON.stringify(groupValues(next))) {
      this.record({ kind: 'put', group: fields });
    } else if (JSON.stringify(existing.appRoles ?? []) !== JSON.stringify(next.appRoles ?? [])) {
      // Not a Graph property of the group: kept in the log for the state, invisible to delta.
      this.record({ kind: 'put', group: fields });
    }
    const before = new Set((existing?.members ?? []).map(key));
    const after = new Set(next.members.map(key));
    for (const memberId of existing?.members ?? []) {
      if (!after.has(key(memberId))) this.record({ kind: 'remove', groupId: next.id, memberId });
    }
    for (const memberId of next.members) {
      if (!before.has(key(memberId))) {
        this.record({ kind: 'add', groupId: next.id, memberId });
        before.add(key(memberId));
      }
    }
  }

  /** Deletes the group, and (as Entra does) its memberships in other groups. */
  private recordDelete(groupId: string): void {
    for (const other of this.ctx.groups) {
      if (key(other.id) === key(groupId)) continue;
      if (other.members.some((id) => key(id) === key(groupId))) {
        this.record({ kind: 'remove', groupId: other.id, memberId: groupId });
      }
    }
    this.record({ kind: 'delete', groupId });
  }

  setGroups(groups: StandInGroup[]): void {
    const kept = new Set(groups.map((group) => key(group.id)));
    for (const group of [...this.ctx.groups]) {
      if (!kept.has(key(group.id))) {
        this.recordDelete(group.id);
        this.publish();
      }
    }
    for (const group of groups) {
      this.recordUpsert(group);
      this.publish();
    }
  }

  upsertGroup(group: StandInGroup): void {
    this.recordUpsert(group);
    this.publish();
  }

  deleteGroup(groupId: string): void {
    this.requireGroup(groupId);
    this.recordDelete(groupId);
    this.publish();
  }

  addGroupMember(groupId: string, memberId: string): void {
    const group = this.requireGroup(groupId);
    if (key(groupId) === key(memberId)) throw new Error('A group cannot be a member of itself.');
    if (group.members.some((id) => key(id) === key(memberId))) return;
    this.record({ kind: 'add', groupId: group.id, memberId });
    this.publish();
  }

  removeGroupMember(groupId: string, memberId: string): void {
    const group = this.requireGroup(groupId);
    const member = group.members.find((id) => key(id) === key(memberId));
    if (member === undefined) return;
    this.record({ kind: 'remove', groupId: group.id, memberId: member });
    this.publish();
  }

  /**
   * Every token issued so far expires. `status`: what Graph answers them with. The delta query overview's
   * "Synchronization reset" is a 410 Gone with a Location to start again (the default); its "Token duration" says an
   * expired token gets "a 40X-series error with error codes such as syncStateNotFound", so any 4xx may carry it.
   */
  expireDeltaTokens(options: { status?: number } = {}): void {
    const status = options.status ?? 410;
    if (!Number.isInteger(status) || status < 400 || status > 499) {
      throw new Error(`An expired delta token is answered with a 4xx status, not ${status}.`);
    }
    this.expiredStatus = status;
    this.epoch = randomBytes(6).toString('base64url');
  }

  setDeltaPaging(paging: { groupsPerPage?: number; membersPerObject?: number; everyChange?: boolean }): void {
    const positive = (value: number | undefined, fallback: number) =>
      value === undefined ? fallback : Math.max(1, Math.floor(value));
    this.groupsPerPage = positive(paging.groupsPerPage, DEFAULT_GROUPS_PER_PAGE);
    this.membersPerObject = positive(paging.membersPerObject, DEFAULT_MEMBERS_PER_OBJECT);
    this.everyChange = paging.everyChange ?? false;
  }

  private encode(kind: 'd' | 's', state: TokenState): string {
    const payload = Buffer.from(
      JSON.stringify({
        e: this.epoch,
        k: kind,
        f: state.from,
        t: state.to,
        p: state.position,
        s: state.select,
        m: state.membersPerObject,
        h: state.everyChange,
      }),
    ).toString('base64url');
    return `${payload}.${checksum(payload)}`;
  }

  /** The token's state, 'expired' for one of another epoch, or null for one the stand-in never issued. */
  private decode(token: string, kind: 'd' | 's'): TokenState | 'expired' | null {
    const [payload = '', sum, ...rest] = token.split('.');
    if (rest.length > 0 || sum !== checksum(payload)) return null;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
    const count = (value: unknown): value is number =>
      typeof value === 'number' && Number.isInteger(value) && value >= 0;
    const { e, k, f, t, p, s, m, h } = parsed;
    const names = (value: unknown): value is string[] | null =>
      value === null || (Array.isArray(value) && value.every((name) => typeof name === 'string'));
    if (k !== kind || !count(f) || !count(t) || !count(p) || !count(m) || m < 1 || f > t || !names(s)) return null;
    if (typeof h !== 'boolean') return null;
    if (e !== this.epoch) return 'expired';
    if (t > this.log.length) return null;
    return { from: f, to: t, position: p, select: s, membersPerObject: m, everyChange: h };
  }

  /**
   * One page of GET /groups/delta. A round is the difference between the state at its `from` change and at its
   * `to` change (every group, for the initial round), cut into objects of at most `membersPerObject` member
   * changes: a group with more members comes as several objects with the same properties, never two of them on one
   * page, and not one after the other: the objects are dealt out in turns (every group's first, then every second…),
   * so that a large group's objects come on pages apart with other groups between. Graph splits large groups
   * across pages ("Paging through members in a large group", learn.microsoft.com/graph/delta-query-groups) and
   * warns: "Assume that the same group could show up anywhere in the nextLink sequence and handle that in your merge
   * logic". The last page carries the deltaLink for the next round.
   */
  delta(request: DeltaRequest): Body | DirectoryError {
    const { deltaToken, skipToken } = request;
    if (deltaToken && skipToken) return malformedToken();
    let state: TokenState;
    if (skipToken !== null) {
      // The query was encoded in the token: Graph does not take $select with a $skiptoken.
      if (request.select) {
        return new DirectoryError(
          400,
          'Request_UnsupportedQuery',
          'Query options cannot be combined with $skiptoken; follow @odata.nextLink as given.',
        );
      }
      const decoded = this.decode(skipToken, 's');
      if (decoded === 'expired') return this.expired(request);
      if (!decoded) return malformedToken();
      state = decoded;
    } else if (deltaToken && deltaToken.toLowerCase() === 'latest') {
      // "Sync from now": no state, only a deltaLink to the changes from here on.
      const latest = { from: this.log.length, to: this.log.length, position: 0 };
      return {
        '@odata.context': `${request.host}/v1.0/$metadata#groups`,
        '@odata.deltaLink': this.link(request, 'd', {
          ...latest,
          select: request.select,
          membersPerObject: this.membersPerObject,
          everyChange: this.everyChange,
        }),
        value: [],
      };
    } else if (deltaToken) {
      const decoded = this.decode(deltaToken, 'd');
      if (decoded === 'expired') return this.expired(request);
      if (!decoded) return malformedToken();
      // A deltaLink may be given another $select: the next round tracks those properties.
      state = {
        from: decoded.to,
        to: this.log.length,
        position: 0,
        select: request.select ?? decoded.select,
        membersPerObject: this.membersPerObject,
        everyChange: this.everyChange,
      };
    } else {
      state = {
        from: 0,
        to: this.log.length,
        position: 0,
        select: request.select,
        membersPerObject: this.membersPerObject,
        everyChange: this.everyChange,
      };
    }

    const objects = this.cutRound(state, request.minimal);
    if (state.position > objects.length) return malformedToken();
    const page: Body[] = [];
    const onPage = new Set<string>();
    let position = state.position;
    while (position < objects.length && page.length < this.groupsPerPage) {
      const next = objects[position]!;
      if (onPage.has(next.groupKey)) break;
      onPage.add(next.groupKey);
      page.push(next.body);
      position += 1;
    }

    const selected = request.select ? `(${request.select.join(',')})` : '';
    const context = `${request.host}/v1.0/$metadata#groups${selected}`;
    const body: Body = { '@odata.context': context };
    if (position < objects.length) {
      body['@odata.nextLink'] = this.link(request, 's', { ...state, position });
    } else {
      body['@odata.deltaLink'] = this.link(request, 'd', { ...state, from: state.to, position: 0 });
    }
    body.value = page;
    return body;
  }

  private link(request: DeltaRequest, kind: 'd' | 's', state: TokenState): string {
    const name = kind === 'd' ? '$deltatoken' : '$skiptoken';
    return `${request.host}${request.path}?${name}=${this.encode(kind, state)}`;
  }

  /**
   * The answer to a token of another run of the stand-ins (or expired by expireDeltaTokens), code syncStateNotFound.
   * By default 410 Gone with the initial query in Location: the delta query overview's "Synchronization reset" ("a
   * response code of 410 (gone) and a Location header containing a request URL with an empty $deltaToken (same as
   * the initial query)"). Its "Token duration" gives an expired token "a 40X-series error with error codes such as
   * syncStateNotFound": another 4xx (expireDeltaTokens({ status })) comes without Location, which only the 410 is
   * documented to carry. (learn.microsoft.com/graph/delta-query-overview)
   */
  private expired(request: DeltaRequest): DirectoryError {
    const message = 'The delta token is no longer valid; start change tracking again with an initial delta request.';
    if (this.expiredStatus !== 410) return new DirectoryError(this.expiredStatus, 'syncStateNotFound', message);
    const select = request.select ? `$select=${request.select.join(',')}&` : '';
    return new DirectoryError(410, 'syncStateNotFound', message, {
      location: `${request.host}${request.path}?${select}$deltatoken=`,
    });
  }

  /** The round's objects, cut once for all its pages (the last few rounds are kept). */
  private cutRound(state: TokenState, minimal: boolean): { groupKey: string; body: Body }[] {
    const roundKey = JSON.stringify([
      state.from,
      state.to,
      state.select,
      state.membersPerObject,
      state.everyChange,
      minimal,
    ]);
    let objects = this.rounds.get(roundKey);
    if (!objects) {
      objects = this.round(state, minimal);
      this.rounds.set(roundKey, objects);
      if (this.rounds.size > 4) this.rounds.delete(this.rounds.keys().next().value!);
    }
    return objects;
  }

  /**
   * Every object of the round, in order: the groups as they stand at `to`, then the groups removed, each group's
   * objects dealt out in turns with the others' (delta()).
   */
  private round(state: TokenState, minimal: boolean): { groupKey: string; body: Body }[] {
    const before = this.stateAt(state.from);
    const after = this.stateAt(state.to);
    const select = state.select;
    const properties = (select ?? GROUP_DEFAULT_PROPERTIES).filter((name) => name !== 'id' && name !== 'members');
    const withMembers = select === null || select.includes('members');
    const isGroup = (id: string) => after.has(key(id)) || before.has(key(id));
    const reference = (id: string): Body => ({
      '@odata.type': isGroup(id) ? '#microsoft.graph.group' : '#microsoft.graph.user',
      id,
    });

    // A later round looks only at the groups its changes touched: the others are as they were.
    const touched = state.from === 0 ? null : new Set<string>();
    /** With everyChange, a later round's membership changes of each group as made, in order. */
    const made = new Map<string, Body[]>();
    for (const change of touched ? this.log.slice(state.from, state.to) : []) {
      const groupKey = key(change.kind === 'put' ? change.group.id : change.groupId);
      touched!.add(groupKey);
      if (state.everyChange && (change.kind === 'add' || change.kind === 'remove')) {
        const entry = reference(change.memberId);
        if (change.kind === 'remove') entry['@removed'] = { reason: 'deleted' };
        const entries = made.get(groupKey);
        if (entries) entries.push(entry);
        else made.set(groupKey, [entry]);
      }
    }
    /** Each group's objects, in the order of the groups. */
    const perGroup: { groupKey: string; bodies: Body[] }[] = [];
    for (const [groupKey, now] of after) {
      if (touched && !touched.has(groupKey)) continue;
      const then = before.get(groupKey);
      const values = groupValues(now.group);
      const old = then ? groupValues(then.group) : null;
      const changed = properties.filter((name) => !old || JSON.stringify(old[name]) !== JSON.stringify(values[name]));

      let memberChanges: Body[] = [];
      if (withMembers && touched && state.everyChange) {
        // A member removed and added again (or the reverse) comes twice, the later last: Graph's replays ("the same
        // change appears in subsequent responses") and "a single entity will be contained multiple times in the
        // response, if that entity was changed multiple times" (delta query overview).
        memberChanges = made.get(groupKey) ?? [];
      } else if (withMembers) {
        const had = new Set((then?.members ?? []).map(key));
        const has = new Set(now.members.map(key));
        for (const id of now.members) if (!had.has(key(id))) memberChanges.push(reference(id));
        for (const id of then?.members ?? []) {
          if (!has.has(key(id))) memberChanges.push({ ...reference(id), '@removed': { reason: 'deleted' } });
        }
      }
      if (then && changed.length === 0 && memberChanges.length === 0) continue;

      // A property never set (null) is left out; one set to null since the last round is given as null.
      const shown = minimal && then ? changed : properties;
      const base: Body = { id: now.group.id };
      for (const name of shown) {
        if (values[name] !== null || (old && old[name] !== null)) base[name] = values[name];
      }
      if (memberChanges.length === 0) {
        perGroup.push({ groupKey, bodies: [base] });
        continue;
      }
      const bodies: Body[] = [];
      for (let start = 0; start < memberChanges.length; start += state.membersPerObject) {
        bodies.push({ ...base, 'members@delta': memberChanges.slice(start, start + state.membersPerObject) });
      }
      perGroup.push({ groupKey, bodies });
    }
    for (const [groupKey, then] of before) {
      if (after.has(groupKey)) continue;
      // A deleted Microsoft 365 group can be restored ('changed'); a deleted security group cannot ('deleted').
      const reason = isMicrosoft365(then.group) ? 'changed' : 'deleted';
      perGroup.push({ groupKey, bodies: [{ id: then.group.id, '@removed': { reason } }] });
    }
    // Dealt out in turns: every group's first object, then the second of those that have one, and so on.
    const objects: { groupKey: string; body: Body }[] = [];
    let pending = perGroup;
    for (let turn = 0; pending.length > 0; turn++) {
      for (const { groupKey, bodies } of pending) objects.push({ groupKey, body: bodies[turn]! });
      pending = pending.filter(({ bodies }) => bodies.length > turn + 1);
    }
    return objects;
  }
}

function checksum(payload: string): string {
  return createHash('sha256').update(`${TOKEN_KEY}|${payload}`).digest('base64url').slice(0, 16);
}

/**
 * A $deltatoken or $skiptoken the stand-in never issued. Graph's documentation is silent on a malformed state
 * token; the stand-in answers 400 in Graph's error shape.
 */
function malformedToken(): DirectoryError {
  return new DirectoryError(400, 'Request_BadRequest', 'The state token in the request is not valid.');
}
