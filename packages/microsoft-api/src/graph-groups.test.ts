import { describe, expect, it } from 'vitest';
import { checkExchange, operationOf } from './check-exchange.ts';
import { REDACTED, type Exchange } from './exchange.ts';

/**
 * Graph's groups as Microsoft Learn describes them: group: delta (its pages, state links and `members@delta`), List
 * groups, Get group, and a group's members of every type. Each failing case breaks one documented thing in an
 * exchange that conforms otherwise, and expects exactly that violation (docs/decisions/016-microsoft-contract-tests.md).
 */

const GRAPH = 'https://graph.microsoft.com';
const SELECT = '$select=displayName,description,securityEnabled,groupTypes,visibility,members';
const COMERCIAL = '0d0d0d0d-0000-4000-8000-000000000001';
const SUL = '0d0d0d0d-0000-4000-8000-000000000002';
const ANA = '11111111-1111-4111-8111-111111111111';
const BRUNO = '11111111-1111-4111-8111-111111111112';
const JSON_TYPE = 'application/json; charset=utf-8';

const nextLink = `${GRAPH}/v1.0/groups/delta?$skiptoken=pqwSUjGYvb3jQpbwVAwEL7yuI3dU1LecfkkfLPtnIjvB7XnF`;
const deltaLink = `${GRAPH}/v1.0/groups/delta?$deltatoken=sZwAFZibx-LQOdZIo1hHhmmDhHzCY0Hs6snoIHJCSIfCHdqK`;

function graphGet(url: string, answer: unknown, status = 200): Exchange {
  return {
    service: 'graph',
    method: 'GET',
    url,
    request: { headers: { authorization: `Bearer ${REDACTED}` } },
    answer: { status, headers: { 'content-type': JSON_TYPE }, body: answer, bytes: JSON.stringify(answer).length },
  };
}

const user = (id: string, removed?: 'deleted' | 'changed') => ({
  '@odata.type': '#microsoft.graph.user',
  id,
  ...(removed ? { '@removed': { reason: removed } } : {}),
});
const nested = (id: string) => ({ '@odata.type': '#microsoft.graph.group', id });

/** Comercial as the first page gives it: its description never set (left out), its members as they are. */
const comercial = (extra: Record<string, unknown> = {}) => ({
  id: COMERCIAL,
  displayName: 'Comercial',
  securityEnabled: true,
  groupTypes: [],
  'members@delta': [user(ANA), nested(SUL)],
  ...extra,
});

const delta = (query: string, page: Record<string, unknown>, path = '/v1.0/groups/delta') =>
  graphGet(`${path}?${query}`, { '@odata.context': `${GRAPH}/v1.0/$metadata#groups`, ...page });

const firstPage = (
  items: unknown[] = [comercial()],
  links: Record<string, unknown> = { '@odata.nextLink': nextLink },
) => delta(SELECT, { ...links, value: items });

/** The violations as `part at: message`, for readable expectations. */
const found = (e: Exchange) => checkExchange(e).map((v) => `${v.part} ${v.at}: ${v.message}`);

describe('group: delta', () => {
  it('is the call of /groups/delta and /groups/microsoft.graph.delta, not Get group', () => {
    expect(operationOf(firstPage())?.operation.id).toBe('group: delta');
    const qualified = delta(SELECT, { '@odata.nextLink': nextLink, value: [] }, '/v1.0/groups/microsoft.graph.delta');
    expect(operationOf(qualified)?.operation.id).toBe('group: delta');
    expect(found(qualified)).toEqual([]);
  });

  it('finds nothing wrong with a first page, a page after it, the last page and an incremental round', () => {
    expect(found(firstPage())).toEqual([]);
    // A large group split across pages: the same group again, with the rest of its members.
    const following = delta(`$skiptoken=${nextLink.split('=')[1]}`, {
      '@odata.nextLink': nextLink,
      value: [comercial({ 'members@delta': [user(BRUNO)] })],
    });
    expect(found(following)).toEqual([]);
    const last = delta(`$skiptoken=${nextLink.split('=')[1]}`, {
      '@odata.deltaLink': deltaLink,
      value: [{ id: SUL, displayName: 'Comercial - Sul', description: 'Vendas do Sul', securityEnabled: true }],
    });
    expect(found(last)).toEqual([]);
    // The next round: a member left, one joined, a property set to null, one group deleted, one restorable.
    const incremental = delta('$deltatoken=sZwAFZibx-LQOdZIo1hHhmmDhHzCY0Hs6snoIHJCSIfCHdqK', {
      '@odata.deltaLink': deltaLink,
      value: [
        { id: COMERCIAL, description: null, 'members@delta': [user(ANA, 'deleted'), user(BRUNO)] },
        { id: SUL, '@removed': { reason: 'deleted' } },
        { id: '0d0d0d0d-0000-4000-8000-000000000003', '@removed': { reason: 'changed' } },
      ],
    });
    expect(found(incremental)).toEqual([]);
    // Sync from now: no groups, only the deltaLink.
    expect(found(delta('$deltatoken=latest', { '@odata.deltaLink': deltaLink, value: [] }))).toEqual([]);
  });

  it('takes the query options group: delta documents: $filter by id, $expand of members, $deltaToken spelled either way', () => {
    const filter = `$filter=id+eq+'${COMERCIAL}'+or+id+eq+'${SUL}'`;
    expect(found(delta(`${SELECT}&${filter}`, { '@odata.deltaLink': deltaLink, value: [] }))).toEqual([]);
    expect(
      found(delta('$select=displayName&$expand=members', { '@odata.deltaLink': deltaLink, value: [comercial()] })),
    ).toEqual([
      'answer body.value[0].securityEnabled: answered though $select did not name it',
      'answer body.value[0].groupTypes: answered though $select did not name it',
    ]);
    expect(found(delta('$deltaToken=latest', { '@odata.deltaLink': deltaLink, value: [] }))).toEqual([]);
    // A deltaLink may be given another $select.
    expect(found(delta(`$deltatoken=x&${SELECT}`, { '@odata.deltaLink': deltaLink, value: [] }))).toEqual([]);
  });

  it('catches a page with both state links, and one with neither', () => {
    expect(found(firstPage(undefined, { '@odata.nextLink': nextLink, '@odata.deltaLink': deltaLink }))).toEqual([
      'answer body: both @odata.nextLink and @odata.deltaLink: a page carries one',
    ]);
    expect(found(firstPage(undefined, {}))).toEqual([
      'answer body: neither @odata.nextLink nor @odata.deltaLink: a delta page carries one',
    ]);
    expect(found(firstPage(undefined, { '@odata.nextLink': deltaLink }))).toEqual([
      'answer body.@odata.nextLink: no $skiptoken in it',
    ]);
  });

  it('catches a member change without an id, and a removal for a reason Graph does not give', () => {
    const { id: _id, ...withoutId } = user(BRUNO);
    expect(found(firstPage([comercial({ 'members@delta': [user(ANA), withoutId] })]))).toEqual([
      'answer body.value[0].members@delta[1].id: Invalid input: expected string, received undefined',
    ]);
    expect(found(firstPage([{ id: SUL, '@removed': { reason: 'gone' } }]))).toEqual([
      'answer body.value[0].@removed.reason: Invalid option: expected one of "changed"|"deleted"',
    ]);
  });

  it('catches a query option delta does not take, and options beside a $skiptoken', () => {
    expect(found(delta(`${SELECT}&$top=100`, { '@odata.nextLink': nextLink, value: [] }))).toEqual([
      'request query: Unrecognized key: "$top"',
    ]);
    expect(
      found(delta(`${SELECT}&$filter=displayName eq 'Comercial'`, { '@odata.deltaLink': deltaLink, value: [] })),
    ).toEqual(["request query.$filter: delta's $filter is only id eq '{value}' (or …)"]);
    expect(found(delta(`$skiptoken=x&${SELECT}`, { '@odata.nextLink': nextLink, value: [] }))).toEqual([
      'request query.$select: given with a $skiptoken: it is encoded in the token',
    ]);
    expect(found(delta('$skiptoken=x&$deltatoken=y', { '@odata.deltaLink': deltaLink, value: [] }))).toEqual([
      'request query: more than one state token ($skiptoken, $deltatoken)',
    ]);
  });

  it('catches a property, or a tracked relationship, $select did not name', () => {
    expect(found(firstPage([comercial({ mail: 'comercial@empresa.com.br' })]))).toEqual([
      'answer body.value[0].mail: answered though $select did not name it',
    ]);
    const withoutMembers = delta('$select=displayName', { '@odata.deltaLink': deltaLink, value: [comercial()] });
    expect(found(withoutMembers)).toEqual([
      'answer body.value[0].securityEnabled: answered though $select did not name it',
      'answer body.value[0].groupTypes: answered though $select did not name it',
      'answer body.value[0].members@delta: answered though $select did not name it',
    ]);
    expect(found(firstPage([comercial({ displayname: 'Comercial' })]))).toEqual([
      "answer body.value[0].displayname: spelled 'displayName' in Microsoft's description",
    ]);
  });

  it("holds visibility to Graph's three values: a Microsoft 365 group's Public, Private or HiddenMembership", () => {
    const projeto = (visibility: unknown) => ({
      id: SUL,
      displayName: 'Projeto Expansão',
      securityEnabled: false,
      groupTypes: ['Unified'],
      visibility,
    });
    for (const visibility of ['Public', 'Private', 'HiddenMembership', null]) {
      expect(found(firstPage([projeto(visibility)])), String(visibility)).toEqual([]);
    }
    expect(found(firstPage([projeto('public')]))).toEqual([
      expect.stringMatching(/^answer body\.value\[0\]\.visibility: /),
    ]);
    expect(
      found(
        delta('$select=displayName', { '@odata.deltaLink': deltaLink, value: [{ id: SUL, visibility: 'Public' }] }),
      ),
    ).toEqual(['answer body.value[0].visibility: answered though $select did not name it']);
  });

  it('answers refusals in Graph’s error shape (an expired token: 410 syncStateNotFound with Location, or another 4xx)', () => {
    const error = { error: { code: 'syncStateNotFound', message: 'The delta token is no longer valid.' } };
    const expired = (status: number, headers: Record<string, string>) => {
      const exchange = graphGet('/v1.0/groups/delta?$deltatoken=old', error, status);
      return { ...exchange, answer: { ...exchange.answer, headers: { ...exchange.answer.headers, ...headers } } };
    };
    // "Synchronization reset": 410 and a Location with an empty $deltaToken, the initial query.
    expect(found(expired(410, { location: `${GRAPH}/v1.0/groups/delta?${SELECT}&$deltatoken=` }))).toEqual([]);
    expect(found(expired(410, {}))).toEqual(['answer header location: required']);
    expect(found(expired(410, { location: deltaLink }))).toEqual([
      'answer header location: not a request URL with an empty $deltaToken (the initial query)',
    ]);
    // "Token duration": "a 40X-series error with error codes such as syncStateNotFound".
    expect(found(expired(403, {}))).toEqual([]);
    expect(found(expired(409, {}))).toEqual([]);
  });

  it('refuses $top in Graph’s error shape: the request disagrees with the description, the refusal does not', () => {
    const refusal = graphGet(
      `/v1.0/groups/delta?${SELECT}&$top=1`,
      { error: { code: 'Request_UnsupportedQuery', message: "Query option '$top' is not supported." } },
      400,
    );
    expect(found(refusal)).toEqual(['request query: Unrecognized key: "$top"']);
  });

  it('takes the same group in several objects of a round, on one page or on pages apart, some with only members@delta', () => {
    const pageOne = firstPage([
      comercial({ 'members@delta': [user(ANA)] }),
      { id: SUL, displayName: 'Comercial - Sul' },
    ]);
    const pageTwo = delta(`$skiptoken=${nextLink.split('=')[1]}`, {
      '@odata.nextLink': nextLink,
      value: [
        { id: COMERCIAL, 'members@delta': [user(BRUNO)] },
        { id: COMERCIAL, 'members@delta': [user(ANA, 'deleted')] },
      ],
    });
    const last = delta(`$skiptoken=${nextLink.split('=')[1]}`, {
      '@odata.deltaLink': deltaLink,
      value: [comercial({ 'members@delta': [user(ANA)] })],
    });
    for (const exchange of [pageOne, pageTwo, last]) expect(found(exchange)).toEqual([]);
  });
});

describe('List groups, Get group, and a group’s members of every type', () => {
  const group = { id: SUL, displayName: 'Comercial - Sul', securityEnabled: true, mailEnabled: false, mail: null };

  it('finds nothing wrong with them as Microsoft describes them', () => {
    expect(
      found(graphGet('/v1.0/groups?$select=id,displayName,securityEnabled,mailEnabled,mail', { value: [group] })),
    ).toEqual([]);
    expect(
      found(graphGet(`/v1.0/groups/${SUL}?$select=id,displayName,securityEnabled,mailEnabled,mail`, group)),
    ).toEqual([]);
    const members = {
      value: [
        { '@odata.type': '#microsoft.graph.user', id: ANA, displayName: 'Ana', mail: 'ana@empresa.com.br' },
        { '@odata.type': '#microsoft.graph.group', id: SUL, displayName: 'Comercial - Sul', mail: null },
        { '@odata.type': '#microsoft.graph.device', id: '0e0e0e0e-0000-4000-8000-000000000001', displayName: 'PC' },
      ],
    };
    expect(operationOf(graphGet(`/v1.0/groups/${COMERCIAL}/members`, members))?.operation.id).toBe(
      'List group members',
    );
    expect(found(graphGet(`/v1.0/groups/${COMERCIAL}/members?$select=id,displayName,mail`, members))).toEqual([]);
    expect(
      found(graphGet(`/v1.0/groups/${COMERCIAL}/transitiveMembers?$select=id,displayName,mail&$top=999`, members)),
    ).toEqual([]);
  });

  it('holds each member to its own type: its @odata.type, its properties and its defaults', () => {
    const withoutType = { value: [{ id: ANA, displayName: 'Ana' }] };
    expect(found(graphGet(`/v1.0/groups/${COMERCIAL}/members?$select=id,displayName`, withoutType))).toEqual([
      'answer body.value[0].@odata.type: Invalid input: expected string, received undefined',
    ]);
    // A group's securityEnabled is selected; a user has none, and is not expected to answer it.
    const mixed = {
      value: [
        { '@odata.type': '#microsoft.graph.user', id: ANA, displayName: 'Ana', department: 'Vendas' },
        { '@odata.type': '#microsoft.graph.group', id: SUL, displayName: 'Comercial - Sul', securityEnabled: 'yes' },
      ],
    };
    expect(found(graphGet(`/v1.0/groups/${COMERCIAL}/members?$select=id,displayName,securityEnabled`, mixed))).toEqual([
      'answer body.value[1].securityEnabled: Invalid input: expected boolean, received string',
      'answer body.value[0].department: answered though $select did not name it',
    ]);
    // Without $select, a group answers the group defaults: securityEnabled among them, a user's jobTitle not.
    const defaults = {
      value: [{ '@odata.type': '#microsoft.graph.group', id: SUL, securityEnabled: true, jobTitle: null }],
    };
    expect(found(graphGet(`/v1.0/groups/${COMERCIAL}/transitiveMembers`, defaults))).toEqual([
      'answer body.value[0].jobTitle: not among the properties answered by default',
    ]);
  });

  it('catches a group property $select did not name, and a path id that is not a GUID', () => {
    expect(found(graphGet(`/v1.0/groups/${SUL}?$select=id,displayName`, group))).toEqual([
      'answer body.securityEnabled: answered though $select did not name it',
      'answer body.mailEnabled: answered though $select did not name it',
      'answer body.mail: answered though $select did not name it',
    ]);
    expect(found(graphGet('/v1.0/groups/comercial', group))).toEqual(['request path.id: Invalid GUID']);
  });
});
