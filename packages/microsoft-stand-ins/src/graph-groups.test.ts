import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStandIns } from './stand-ins.ts';
import { appToken, REDIRECT_URI } from './test-helpers.ts';
import type { StandInGroup, StandInPerson, StandIns } from './types.ts';

const guid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;

function person(n: number, name: string): StandInPerson {
  const email = `${name.toLowerCase()}@contoso.com.br`;
  return { id: guid('a0000000', n), displayName: name, mail: email, userPrincipalName: email };
}

const ana = person(1, 'Ana');
const bruno = person(2, 'Bruno');
const carla = person(3, 'Carla');
const duda = person(4, 'Duda');
/** 45 people in Financeiro: more than one object's worth of members@delta (20). */
const financeiroPeople = Array.from({ length: 45 }, (_, i) => person(100 + i, `Financeiro${i}`));

const sul: StandInGroup = {
  id: guid('b0000000', 2),
  displayName: 'Comercial - Sul',
  description: 'Vendas da região Sul',
  members: [bruno.id, carla.id],
};
const norte: StandInGroup = { id: guid('b0000000', 3), displayName: 'Comercial - Norte', members: [duda.id] };
const comercial: StandInGroup = {
  id: guid('b0000000', 1),
  displayName: 'Comercial',
  description: 'Toda a área comercial',
  members: [sul.id, norte.id, ana.id],
};
const financeiro: StandInGroup = {
  id: guid('b0000000', 4),
  displayName: 'Financeiro',
  members: financeiroPeople.map((p) => p.id),
};
const vazio: StandInGroup = { id: guid('b0000000', 5), displayName: 'Vazio', members: [] };
const projeto: StandInGroup = {
  id: guid('b0000000', 6),
  displayName: 'Projeto Expansão',
  description: 'Grupo do Microsoft 365 do projeto',
  groupTypes: ['Unified'],
  mail: 'projeto.expansao@contoso.com.br',
  members: [ana.id, duda.id],
};
const GROUPS = [comercial, sul, norte, financeiro, vazio, projeto];
const PEOPLE = [ana, bruno, carla, duda, ...financeiroPeople];

/** Response bodies are checked by shape, so tests read them untyped. */
function json(response: Response): Promise<any> {
  return response.json();
}

describe('Microsoft Graph stand-in: groups, their members and the delta query', () => {
  let s: StandIns;
  let token: string;

  function get(path: string, bearer: string | null = token, headers: Record<string, string> = {}) {
    const url = path.startsWith('http') ? path : `${s.graphUrl}${path}`;
    return fetch(url, { headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...headers } });
  }

  /** Every page of a round, from `start` (a path or a link) to the page with the deltaLink. */
  async function round(start: string, headers: Record<string, string> = {}) {
    const pages: any[] = [];
    let next: string | undefined = start;
    while (next) {
      const response = await get(next, token, headers);
      expect(response.status, next).toBe(200);
      const page = await json(response);
      pages.push(page);
      expect(pages.length).toBeLessThan(50);
      next = page['@odata.nextLink'];
    }
    const deltaLink: string = pages.at(-1)['@odata.deltaLink'];
    return { pages, objects: pages.flatMap((page) => page.value as any[]), deltaLink };
  }

  /** Merges the objects of a round per group, as the docs tell clients to. */
  function merged(objects: any[]) {
    const groups = new Map<string, { props: any; members: any[] }>();
    for (const { 'members@delta': members = [], ...props } of objects) {
      const entry = groups.get(props.id) ?? { props: {}, members: [] };
      entry.props = { ...entry.props, ...props };
      entry.members.push(...members);
      groups.set(props.id, entry);
    }
    return groups;
  }

  /** A delegated token for Graph with these scopes, through the stand-in's sign-in pages. */
  async function delegated(scope: string): Promise<string> {
    const verifier = randomBytes(32).toString('base64url');
    const authorize = `${s.authorityHost}/${s.tenantId}/oauth2/v2.0/authorize`;
    const params = new URLSearchParams({
      client_id: s.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const page = await (await fetch(`${authorize}?${params.toString()}`)).text();
    const requestId = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const chosen = await fetch(authorize, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request: requestId, person: ana.id }),
      redirect: 'manual',
    });
    const code = new URL(chosen.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const answer = await fetch(`${s.authorityHost}/${s.tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: s.clientId,
        client_secret: s.clientSecret,
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      }),
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  beforeAll(async () => {
    s = await startStandIns({ people: PEOPLE, groups: GROUPS });
    token = await appToken(s, 'https://graph.microsoft.com');
  });
  beforeEach(() => {
    s.graph.reset();
    s.graph.setDeltaPaging({});
  });
  afterAll(() => s.close());

  it('lists groups with their default properties, $select, $top and @odata.nextLink', async () => {
    const all = await json(await get('/v1.0/groups'));
    expect(all['@odata.context']).toBe(`${s.graphUrl}/v1.0/$metadata#groups`);
    expect(all.value.map((g: any) => g.displayName)).toEqual(GROUPS.map((g) => g.displayName));
    expect(all.value[0]).toMatchObject({
      id: comercial.id,
      displayName: 'Comercial',
      description: 'Toda a área comercial',
      securityEnabled: true,
      mailEnabled: false,
      groupTypes: [],
      mail: null,
      mailNickname: 'comercial',
      createdDateTime: '2024-01-02T12:00:00Z',
      visibility: null,
      securityIdentifier: expect.stringMatching(/^S-1-12-1-\d+-\d+-\d+-\d+$/),
    });
    expect(all.value[0]).not.toHaveProperty('members');
    expect(all.value.at(-1)).toMatchObject({
      displayName: 'Projeto Expansão',
      groupTypes: ['Unified'],
      mailEnabled: true,
      securityEnabled: false,
      mail: 'projeto.expansao@contoso.com.br',
      proxyAddresses: ['SMTP:projeto.expansao@contoso.com.br'],
      visibility: 'Public',
    });

    const select = 'displayName,description,securityEnabled,mailEnabled,groupTypes,mail,createdDateTime';
    const first = await json(await get(`/v1.0/groups?$select=${select}&$top=4`));
    expect(first['@odata.context']).toBe(`${s.graphUrl}/v1.0/$metadata#groups(id,${select})`);
    expect(Object.keys(first.value[0])).toEqual(['id', ...select.split(',')]);
    expect(first.value).toHaveLength(4);
    const next = new URL(first['@odata.nextLink']);
    expect(next.searchParams.get('$select')).toBe(select);
    expect(next.searchParams.get('$skiptoken')).toBeTruthy();
    const second = await json(await get(first['@odata.nextLink']));
    expect(second.value.map((g: any) => g.id)).toEqual([vazio.id, projeto.id]);
    expect(second).not.toHaveProperty('@odata.nextLink');

    for (const query of ['$select=naoExiste', '$top=0', '$top=1000', '$skiptoken=lixo', '$orderby=displayName']) {
      const response = await get(`/v1.0/groups?${query}`);
      expect(response.status, query).toBe(400);
      expect((await json(response)).error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const unknownProperty = await json(await get('/v1.0/groups?$select=naoExiste'));
    expect(unknownProperty.error.message).toContain("'microsoft.graph.group'");
  });

  it('gets one group with $select, 404 for an unknown id and 400 for one that is not a GUID', async () => {
    const one = await json(await get(`/v1.0/groups/${sul.id}?$select=displayName,description`));
    expect(one).toEqual({
      '@odata.context': `${s.graphUrl}/v1.0/$metadata#groups(id,displayName,description)/$entity`,
      id: sul.id,
      displayName: 'Comercial - Sul',
      description: 'Vendas da região Sul',
    });
    const unknown = await get(`/v1.0/groups/${guid('c0000000', 9)}`);
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('Request_ResourceNotFound');
    const malformed = await get('/v1.0/groups/nao-e-guid');
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error.code).toBe('Request_BadRequest');
  });

  it('lists direct members as users and groups, each with its @odata.type', async () => {
    const body = await json(await get(`/v1.0/groups/${comercial.id}/members`));
    expect(body['@odata.context']).toBe(`${s.graphUrl}/v1.0/$metadata#directoryObjects`);
    expect(body.value).toEqual([
      expect.objectContaining({ '@odata.type': '#microsoft.graph.group', id: sul.id, displayName: 'Comercial - Sul' }),
      expect.objectContaining({ '@odata.type': '#microsoft.graph.group', id: norte.id, securityEnabled: true }),
      expect.objectContaining({ '@odata.type': '#microsoft.graph.user', id: ana.id, mail: ana.mail }),
    ]);
    // Each type with its own default properties.
    expect(body.value[0]).not.toHaveProperty('userPrincipalName');
    expect(body.value[2]).not.toHaveProperty('groupTypes');

    const selected = await json(await get(`/v1.0/groups/${comercial.id}/members?$select=displayName,groupTypes`));
    expect(selected['@odata.context']).toBe(`${s.graphUrl}/v1.0/$metadata#directoryObjects(id,displayName,groupTypes)`);
    expect(selected.value).toEqual([
      { '@odata.type': '#microsoft.graph.group', id: sul.id, displayName: 'Comercial - Sul', groupTypes: [] },
      { '@odata.type': '#microsoft.graph.group', id: norte.id, displayName: 'Comercial - Norte', groupTypes: [] },
      { '@odata.type': '#microsoft.graph.user', id: ana.id, displayName: 'Ana' },
    ]);

    const paged = await json(await get(`/v1.0/groups/${financeiro.id}/members?$select=id&$top=20`));
    expect(paged.value).toHaveLength(20);
    expect(paged['@odata.nextLink']).toContain('$skiptoken=');

    const bad = await get(`/v1.0/groups/${comercial.id}/members?$select=naoExiste`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toContain("'microsoft.graph.directoryObject'");
  });

  it('lists transitive members without a cast: nested groups and their people, each once', async () => {
    const body = await json(await get(`/v1.0/groups/${comercial.id}/transitiveMembers?$select=id,displayName`));
    expect(body.value.map((m: any) => [m['@odata.type'], m.displayName])).toEqual([
      ['#microsoft.graph.group', 'Comercial - Sul'],
      ['#microsoft.graph.user', 'Bruno'],
      ['#microsoft.graph.user', 'Carla'],
      ['#microsoft.graph.group', 'Comercial - Norte'],
      ['#microsoft.graph.user', 'Duda'],
      ['#microsoft.graph.user', 'Ana'],
    ]);
    // The cast keeps its meaning: users only.
    const users = await json(
      await get(`/v1.0/groups/${comercial.id}/transitiveMembers/microsoft.graph.user?$select=id`),
    );
    expect(users.value).toEqual([{ id: bruno.id }, { id: carla.id }, { id: duda.id }, { id: ana.id }]);
  });

  it('gives every group and its direct members in the initial delta round, over several pages', async () => {
    s.graph.setDeltaPaging({ groupsPerPage: 2 });
    const { pages, objects, deltaLink } = await round('/v1.0/groups/delta?$select=displayName,description,members');
    expect(pages.length).toBeGreaterThan(3);
    expect(pages[0]['@odata.context']).toBe(`${s.graphUrl}/v1.0/$metadata#groups(displayName,description,members)`);
    for (const page of pages.slice(0, -1)) {
      expect(page['@odata.nextLink']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\.0\/groups\/delta\?\$skiptoken=\S+$/);
      expect(page).not.toHaveProperty('@odata.deltaLink');
      expect(page.value.length).toBeLessThanOrEqual(2);
    }
    expect(deltaLink).toMatch(/\/v1\.0\/groups\/delta\?\$deltatoken=\S+$/);

    // Financeiro's 45 members come as three objects (20, 20, 5), each on its own page, with the same properties.
    const financeiroObjects = objects.filter((o) => o.id === financeiro.id);
    expect(financeiroObjects.map((o) => o['members@delta'].length)).toEqual([20, 20, 5]);
    expect(new Set(financeiroObjects.map((o) => o.displayName))).toEqual(new Set(['Financeiro']));
    for (const page of pages) expect(page.value.filter((o: any) => o.id === financeiro.id).length).toBeLessThan(2);

    const groups = merged(objects);
    expect([...groups.keys()]).toEqual(GROUPS.map((g) => g.id));
    expect(groups.get(comercial.id)).toEqual({
      props: { id: comercial.id, displayName: 'Comercial', description: 'Toda a área comercial' },
      members: [
        { '@odata.type': '#microsoft.graph.group', id: sul.id },
        { '@odata.type': '#microsoft.graph.group', id: norte.id },
        { '@odata.type': '#microsoft.graph.user', id: ana.id },
      ],
    });
    // A property never set is left out; a group without members has no members@delta.
    expect(groups.get(norte.id)!.props).toEqual({ id: norte.id, displayName: 'Comercial - Norte' });
    expect(objects.find((o) => o.id === vazio.id)).toEqual({ id: vazio.id, displayName: 'Vazio' });
    expect(groups.get(financeiro.id)!.members.map((m) => m.id)).toEqual(financeiro.members);

    // Financeiro's objects are not one after the other: other groups come between them, on other pages.
    const pageOf = (object: any) => pages.findIndex((page) => page.value.includes(object));
    const financeiroPages = financeiroObjects.map(pageOf);
    expect(financeiroPages[1]! - financeiroPages[0]!).toBeGreaterThan(1);
    const between = objects.slice(objects.indexOf(financeiroObjects[0]), objects.indexOf(financeiroObjects[1]));
    expect(between.filter((o) => o.id !== financeiro.id).length).toBeGreaterThan(0);

    // Nothing changed: the next round is empty, with a deltaLink.
    const again = await json(await get(deltaLink));
    expect(again.value).toEqual([]);
    expect(again['@odata.deltaLink']).toContain('$deltatoken=');
  });

  it('reports exactly the changes made through the controls since the deltaLink, then nothing', async () => {
    const { deltaLink } = await round('/v1.0/groups/microsoft.graph.delta?$select=displayName,description,members');
    try {
      s.graph.addGroupMember(sul.id, ana.id);
      s.graph.removeGroupMember(sul.id, carla.id);
      s.graph.addGroupMember(norte.id, bruno.id);
      s.graph.removeGroupMember(norte.id, bruno.id); // added and removed: no net change
      s.graph.deleteGroup(projeto.id);
      s.graph.deleteGroup(vazio.id);
      s.graph.setGroups([
        {
          ...comercial,
          description: 'Área comercial (nova)',
          members: comercial.members.filter((id) => id !== norte.id),
        },
        { ...sul, members: [bruno.id, ana.id] },
        norte,
        financeiro,
        { id: guid('b0000000', 7), displayName: 'Novo', members: [carla.id] },
      ]);

      const changes = await round(deltaLink);
      expect(changes.deltaLink).not.toBe(deltaLink);
      expect(changes.objects).toEqual([
        {
          id: comercial.id,
          displayName: 'Comercial',
          description: 'Área comercial (nova)',
          'members@delta': [
            { '@odata.type': '#microsoft.graph.group', id: norte.id, '@removed': { reason: 'deleted' } },
          ],
        },
        {
          id: sul.id,
          displayName: 'Comercial - Sul',
          description: 'Vendas da região Sul',
          'members@delta': [
            { '@odata.type': '#microsoft.graph.user', id: ana.id },
            { '@odata.type': '#microsoft.graph.user', id: carla.id, '@removed': { reason: 'deleted' } },
          ],
        },
        {
          id: guid('b0000000', 7),
          displayName: 'Novo',
          'members@delta': [{ '@odata.type': '#microsoft.graph.user', id: carla.id }],
        },
        { id: vazio.id, '@removed': { reason: 'deleted' } },
        // A Microsoft 365 group is restorable after deletion.
        { id: projeto.id, '@removed': { reason: 'changed' } },
      ]);

      const nothing = await json(await get(changes.deltaLink));
      expect(nothing.value).toEqual([]);
      expect(nothing['@odata.deltaLink']).toContain('$deltatoken=');

      // The other routes see the same state.
      const members = await json(await get(`/v1.0/groups/${sul.id}/members?$select=id`));
      expect(members.value.map((m: any) => m.id)).toEqual([bruno.id, ana.id]);
      expect((await get(`/v1.0/groups/${projeto.id}`)).status).toBe(404);
    } finally {
      s.graph.setGroups(GROUPS);
    }
  });

  it('tracks only the selected properties, and gives only what changed with Prefer: return=minimal', async () => {
    const { deltaLink: withoutMembers } = await round('/v1.0/groups/delta?$select=displayName');
    const { deltaLink: everything } = await round('/v1.0/groups/delta');
    try {
      s.graph.addGroupMember(norte.id, ana.id);
      s.graph.upsertGroup({ ...sul, description: null });
      // Membership is not tracked without members in $select; description not either.
      expect((await round(withoutMembers)).objects).toEqual([]);

      const minimal = await round(everything, { Prefer: 'return=minimal' });
      expect(minimal.objects).toEqual([
        { id: sul.id, description: null },
        { id: norte.id, 'members@delta': [{ '@odata.type': '#microsoft.graph.user', id: ana.id }] },
      ]);
    } finally {
      s.graph.setGroups(GROUPS);
    }
  });

  it('gives visibility in $select and delta: Public unless set, null for a security group, and each change of it', async () => {
    const select = '/v1.0/groups/delta?$select=displayName,groupTypes,visibility';
    const { objects, deltaLink } = await round(select);
    const first = merged(objects);
    // A security group has none (left out); a Microsoft 365 group created without one is Public, as Graph makes it.
    expect(first.get(sul.id)!.props).toEqual({ id: sul.id, displayName: 'Comercial - Sul', groupTypes: [] });
    expect(first.get(projeto.id)!.props).toMatchObject({ visibility: 'Public' });
    const privado: StandInGroup = {
      ...projeto,
      id: guid('b0000000', 7),
      displayName: 'Diretoria',
      visibility: 'Private',
    };
    try {
      s.graph.upsertGroup({ ...projeto, visibility: 'Private' });
      s.graph.upsertGroup(privado);
      const { objects: changed, deltaLink: next } = await round(deltaLink, { Prefer: 'return=minimal' });
      expect(changed).toEqual([
        { id: projeto.id, visibility: 'Private' },
        { id: privado.id, displayName: 'Diretoria', groupTypes: ['Unified'], visibility: 'Private' },
      ]);
      expect((await json(await get(`/v1.0/groups/${privado.id}?$select=visibility`))).visibility).toBe('Private');
      // Made public again: anyone may join it from now on.
      s.graph.upsertGroup(projeto);
      expect((await round(next)).objects).toEqual([
        { id: projeto.id, displayName: 'Projeto Expansão', groupTypes: ['Unified'], visibility: 'Public' },
      ]);
    } finally {
      s.graph.setGroups(GROUPS);
    }
  });

  it('starts from now with $deltatoken=latest', async () => {
    const latest = await json(await get('/v1.0/groups/delta?$deltaToken=latest&$select=displayName'));
    expect(latest.value).toEqual([]);
    try {
      s.graph.upsertGroup({ ...norte, displayName: 'Comercial - Norte e Nordeste' });
      const changes = await round(latest['@odata.deltaLink']);
      expect(changes.objects).toEqual([{ id: norte.id, displayName: 'Comercial - Norte e Nordeste' }]);
    } finally {
      s.graph.setGroups(GROUPS);
    }
  });

  it('answers 400 to a state token it never issued, and 410 syncStateNotFound to one of an earlier run', async () => {
    for (const query of [
      '$deltatoken=lixo',
      '$skiptoken=lixo',
      '$deltatoken=a&$skiptoken=b',
      '$filter=id%20eq%20%27x%27',
    ]) {
      const response = await get(`/v1.0/groups/delta?${query}`);
      expect(response.status, query).toBe(400);
      expect((await json(response)).error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const selectNotMember = await get('/v1.0/groups/delta?$select=naoExiste');
    expect(selectNotMember.status).toBe(400);

    s.graph.setDeltaPaging({ groupsPerPage: 1 });
    const first = await json(await get('/v1.0/groups/delta?$select=displayName,members'));
    const { deltaLink } = await round('/v1.0/groups/delta?$select=displayName,members');
    s.graph.expireDeltaTokens();
    for (const link of [first['@odata.nextLink'], deltaLink]) {
      const response = await get(link);
      expect(response.status).toBe(410);
      expect((await json(response)).error.code).toBe('syncStateNotFound');
      const location = response.headers.get('location') ?? '';
      expect(location).toContain('/v1.0/groups/delta?');
      // The Location starts a new round.
      expect((await get(location)).status).toBe(200);
    }
  });

  it('refuses $top on delta, which Graph does not support for groups', async () => {
    for (const query of ['$select=displayName&$top=1', '$top=999', '$TOP=5']) {
      const response = await get(`/v1.0/groups/delta?${query}`);
      expect(response.status, query).toBe(400);
      expect((await json(response)).error).toMatchObject({
        code: 'Request_UnsupportedQuery',
        message: "Query option '$top' is not supported.",
      });
    }
  });

  it('answers an expired token with another 4xx when told, syncStateNotFound without Location', async () => {
    const { deltaLink } = await round('/v1.0/groups/delta?$select=displayName,members');
    try {
      s.graph.expireDeltaTokens({ status: 403 });
      const response = await get(deltaLink);
      expect(response.status).toBe(403);
      expect((await json(response)).error.code).toBe('syncStateNotFound');
      expect(response.headers.get('location')).toBeNull();
      expect(() => s.graph.expireDeltaTokens({ status: 500 })).toThrow();
    } finally {
      s.graph.expireDeltaTokens();
    }
    const { deltaLink: again } = await round('/v1.0/groups/delta?$select=displayName,members');
    s.graph.expireDeltaTokens();
    expect((await get(again)).status).toBe(410);
  });

  it('gives each membership change as made with everyChange: removed on one page, added again on a later one', async () => {
    const { deltaLink } = await round('/v1.0/groups/delta?$select=displayName,members');
    // Read when a round starts: this one from the deltaLink.
    s.graph.setDeltaPaging({ groupsPerPage: 1, membersPerObject: 1, everyChange: true });
    try {
      s.graph.removeGroupMember(sul.id, bruno.id);
      s.graph.addGroupMember(sul.id, ana.id);
      s.graph.addGroupMember(sul.id, bruno.id);
      s.graph.removeGroupMember(norte.id, duda.id);
      const { pages, objects } = await round(deltaLink);
      const sulObjects = objects.filter((o) => o.id === sul.id);
      expect(sulObjects.map((o) => o['members@delta'])).toEqual([
        [{ '@odata.type': '#microsoft.graph.user', id: bruno.id, '@removed': { reason: 'deleted' } }],
        [{ '@odata.type': '#microsoft.graph.user', id: ana.id }],
        [{ '@odata.type': '#microsoft.graph.user', id: bruno.id }],
      ]);
      // Each with the group's properties, on its own page, Norte's change dealt out between them.
      expect(sulObjects.every((o) => o.displayName === 'Comercial - Sul')).toBe(true);
      expect(pages.map((page) => page.value.map((o: any) => o.id))).toEqual([[sul.id], [norte.id], [sul.id], [sul.id]]);
    } finally {
      s.graph.setGroups(GROUPS);
    }
  });

  it('throttles the groups routes with the queued faults, Retry-After included', async () => {
    s.graph.throttleNext(7, 4);
    for (const path of [
      '/v1.0/groups',
      `/v1.0/groups/${sul.id}`,
      `/v1.0/groups/${comercial.id}/members`,
      '/v1.0/groups/delta',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(429);
      expect(response.headers.get('retry-after')).toBe('7');
      expect((await json(response)).error.code).toBe('TooManyRequests');
    }
    expect((await get('/v1.0/groups/delta')).status).toBe(200);
    expect(s.graph.requests.map((r) => r.status)).toEqual([429, 429, 429, 429, 200]);
  });

  it('answers 403 without a group permission and 401 without a token', async () => {
    const userRead = await delegated('openid User.Read');
    for (const path of [
      '/v1.0/groups',
      `/v1.0/groups/${sul.id}`,
      `/v1.0/groups/${comercial.id}/members`,
      `/v1.0/groups/${comercial.id}/transitiveMembers`,
      '/v1.0/groups/delta',
    ]) {
      const denied = await get(path, userRead);
      expect(denied.status, path).toBe(403);
      expect((await json(denied)).error.code).toBe('Authorization_RequestDenied');
      expect((await get(path, null)).status, path).toBe(401);
    }
    // GroupMember.Read.All alone reads groups, and users as members with their id only.
    const membersOnly = await delegated('openid GroupMember.Read.All');
    expect((await get('/v1.0/groups/delta', membersOnly)).status).toBe(200);
    const members = await json(await get(`/v1.0/groups/${comercial.id}/members?$select=displayName`, membersOnly));
    const byId = (id: string) => members.value.find((member: any) => member.id === id);
    expect(byId(ana.id)).toEqual({ '@odata.type': '#microsoft.graph.user', id: ana.id, displayName: null });
    expect(byId(sul.id)).toEqual({
      '@odata.type': '#microsoft.graph.group',
      id: sul.id,
      displayName: 'Comercial - Sul',
    });
  });
});
