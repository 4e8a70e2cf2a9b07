import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStandIns } from './stand-ins.ts';
import { REDIRECT_URI } from './test-helpers.ts';
import type { StandInGroup, StandInPerson, StandIns } from './types.ts';

function person(n: number, name: string, extra: Partial<StandInPerson> = {}): StandInPerson {
  const email = `${name.toLowerCase()}@contoso.com.br`;
  return {
    id: `a000000${n}-0000-4000-8000-00000000000${n}`,
    displayName: name,
    mail: email,
    userPrincipalName: email,
    ...extra,
  };
}

const ana = person(1, 'Ana', { appRoles: ['Admin'] });
const bruno = person(2, 'Bruno');
const carla = person(3, 'Carla', { appRoles: ['Admin'], accountEnabled: false });
const duda = person(4, 'Duda');
const edu = person(5, 'Edu', { appRoles: ['Leitor'] });
const fabi = person(6, 'Fabi');

const equipeBi: StandInGroup = {
  id: 'b0000002-0000-4000-8000-000000000002',
  displayName: 'Equipe BI',
  members: [duda.id, fabi.id],
};
/** Holds Admin; Equipe BI is nested in it, and Fabi is a member both directly and through Equipe BI. */
const administradores: StandInGroup = {
  id: 'b0000001-0000-4000-8000-000000000001',
  displayName: 'Administradores do portal',
  members: [bruno.id, equipeBi.id, fabi.id],
  appRoles: ['Admin'],
};
const UNKNOWN_ID = 'c0000000-0000-4000-8000-000000000000';

/** Response bodies are checked by shape, so tests read them untyped. */
function json(response: Response): Promise<any> {
  return response.json();
}

/** The .NET byte order of a GUID, in which Graph's app role assignment ids begin with the principal's id. */
function dotNetGuidBytes(guid: string): string {
  const hex = guid.replace(/-/g, '');
  const swap = (part: string) => part.match(/../g)!.reverse().join('');
  return swap(hex.slice(0, 8)) + swap(hex.slice(8, 12)) + swap(hex.slice(12, 16)) + hex.slice(16);
}

describe('Microsoft Graph stand-in: the app role Admin and who holds it', () => {
  let s: StandIns;
  let appToken: string;
  let servicePrincipalId: string;

  function tokenRequest(fields: Record<string, string>): Promise<any> {
    return fetch(`${s.authorityHost}/${s.tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: s.clientId, client_secret: s.clientSecret, ...fields }),
    }).then(json);
  }

  /** Signs `who` in through the stand-in's pages, asking for `scope`; returns the token endpoint's answer. */
  async function signIn(who: StandInPerson, scope: string): Promise<{ access_token: string; id_token?: string }> {
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
      body: new URLSearchParams({ request: requestId, person: who.id }),
      redirect: 'manual',
    });
    const code = new URL(chosen.headers.get('location') ?? '').searchParams.get('code') ?? '';
    return tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
  }

  function get(path: string, token: string | null = appToken, headers: Record<string, string> = {}) {
    const url = path.startsWith('http') ? path : `${s.graphUrl}${path}`;
    return fetch(url, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  }

  beforeAll(async () => {
    s = await startStandIns({
      people: [ana, bruno, carla, duda, edu, fabi],
      groups: [administradores, equipeBi],
    });
    appToken = (await tokenRequest({ grant_type: 'client_credentials', scope: 'https://graph.microsoft.com/.default' }))
      .access_token;
    servicePrincipalId = String(decodeJwt(appToken).oid);
  });
  beforeEach(() => s.graph.reset());
  afterAll(() => s.close());

  it("serves the application's service principal by appId, with the id its app tokens carry as oid", async () => {
    const response = await get(`/v1.0/servicePrincipals(appId='${s.clientId}')`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await json(response);
    expect(body).toMatchObject({
      '@odata.context': `${s.graphUrl}/v1.0/$metadata#servicePrincipals/$entity`,
      id: servicePrincipalId,
      appId: s.clientId,
      displayName: 'Painéis',
      appOwnerOrganizationId: s.tenantId,
      servicePrincipalType: 'Application',
    });
    expect(servicePrincipalId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.appRoles).toEqual([
      {
        allowedMemberTypes: ['User'],
        description: expect.any(String),
        displayName: 'Administrador',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        isEnabled: true,
        origin: 'Application',
        value: 'Admin',
      },
      {
        allowedMemberTypes: ['User'],
        description: expect.any(String),
        displayName: 'Leitor',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        isEnabled: true,
        origin: 'Application',
        value: 'Leitor',
      },
    ]);
    expect(body.appRoles[0].id).not.toBe(body.appRoles[1].id);

    // The same, addressed with a percent-encoded key.
    const encoded = await json(await get(`/v1.0/servicePrincipals(appId=%27${s.clientId}%27)`));
    expect(encoded).toEqual(body);
  });

  it('serves the service principal by id, honouring $select', async () => {
    const response = await get(`/v1.0/servicePrincipals/${servicePrincipalId}?$select=appId,appRoles`);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(Object.keys(body)).toEqual(['@odata.context', 'id', 'appId', 'appRoles']);
    expect(body['@odata.context']).toBe(`${s.graphUrl}/v1.0/$metadata#servicePrincipals(id,appId,appRoles)/$entity`);
    expect(body.id).toBe(servicePrincipalId);
    expect(body.appRoles.map((role: any) => role.value)).toEqual(['Admin', 'Leitor']);

    const bad = await get(`/v1.0/servicePrincipals/${servicePrincipalId}?$select=naoExiste`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe('BadRequest');
  });

  it('always has the app role Admin, even when nobody holds it', async () => {
    s.graph.setPeople([bruno]);
    s.graph.setGroups([]);
    try {
      const body = await json(await get(`/v1.0/servicePrincipals(appId='${s.clientId}')?$select=appRoles`));
      expect(body.appRoles.map((role: any) => role.value)).toEqual(['Admin']);
      const assignments = await json(await get(`/v1.0/servicePrincipals/${servicePrincipalId}/appRoleAssignedTo`));
      expect(assignments.value).toEqual([]);
    } finally {
      s.graph.setPeople([ana, bruno, carla, duda, edu, fabi]);
      s.graph.setGroups([administradores, equipeBi]);
    }
  });

  it('answers 404 Request_ResourceNotFound for unknown service principals and groups, 400 for malformed ids', async () => {
    for (const path of [
      `/v1.0/servicePrincipals(appId='outro-app')`,
      `/v1.0/servicePrincipals/${UNKNOWN_ID}`,
      `/v1.0/servicePrincipals/${UNKNOWN_ID}/appRoleAssignedTo`,
      `/v1.0/groups/${UNKNOWN_ID}/transitiveMembers/microsoft.graph.user`,
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect((await json(response)).error).toMatchObject({
        code: 'Request_ResourceNotFound',
        message: expect.stringContaining('does not exist'),
        innerError: { 'request-id': expect.any(String), date: expect.any(String) },
      });
    }
    for (const path of [
      '/v1.0/servicePrincipals/nao-e-guid',
      '/v1.0/groups/nao-e-guid/transitiveMembers/microsoft.graph.user',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect((await json(response)).error.code).toBe('Request_BadRequest');
    }
  });

  it('lists the app role assignments, users and groups, paged by $top with @odata.nextLink', async () => {
    const admin = (await json(await get(`/v1.0/servicePrincipals/${servicePrincipalId}?$select=appRoles`))).appRoles;
    const roleId = (value: string) => admin.find((role: any) => role.value === value).id;
    const path = `/v1.0/servicePrincipals/${servicePrincipalId}/appRoleAssignedTo`;

    const first = await get(`${path}?$top=2`);
    expect(first.status).toBe(200);
    const page1 = await json(first);
    expect(page1['@odata.context']).toBe(
      `${s.graphUrl}/v1.0/$metadata#servicePrincipals('${servicePrincipalId}')/appRoleAssignedTo`,
    );
    expect(page1.value).toHaveLength(2);
    const next = new URL(page1['@odata.nextLink']);
    expect(next.origin + next.pathname).toBe(`${s.graphUrl}${path}`);
    expect(next.searchParams.get('$top')).toBe('2');
    expect(next.searchParams.get('$skiptoken')).toBeTruthy();

    const page2 = await json(await get(page1['@odata.nextLink']));
    expect(page2.value).toHaveLength(2);
    expect(page2).not.toHaveProperty('@odata.nextLink');

    const all = [...page1.value, ...page2.value];
    const common = {
      deletedDateTime: null,
      createdDateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      resourceDisplayName: 'Painéis',
      resourceId: servicePrincipalId,
    };
    // Carla's account is disabled: Graph lists her assignment all the same.
    expect(all).toEqual([
      {
        id: expect.any(String),
        appRoleId: roleId('Admin'),
        principalDisplayName: 'Ana',
        principalId: ana.id,
        principalType: 'User',
        ...common,
      },
      {
        id: expect.any(String),
        appRoleId: roleId('Admin'),
        principalDisplayName: 'Carla',
        principalId: carla.id,
        principalType: 'User',
        ...common,
      },
      {
        id: expect.any(String),
        appRoleId: roleId('Leitor'),
        principalDisplayName: 'Edu',
        principalId: edu.id,
        principalType: 'User',
        ...common,
      },
      {
        id: expect.any(String),
        appRoleId: roleId('Admin'),
        principalDisplayName: 'Administradores do portal',
        principalId: administradores.id,
        principalType: 'Group',
        ...common,
      },
    ]);
    for (const assignment of all) {
      expect(assignment.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(assignment.id, 'base64url').toString('hex').slice(0, 32)).toBe(
        dotNetGuidBytes(assignment.principalId),
      );
    }
    expect(new Set(all.map((assignment) => assignment.id)).size).toBe(4);

    // A page token is only good for the list that made it.
    const skiptoken = next.searchParams.get('$skiptoken')!;
    const elsewhere = await get(
      `/v1.0/groups/${administradores.id}/transitiveMembers/microsoft.graph.user?$skiptoken=${skiptoken}`,
    );
    expect(elsewhere.status).toBe(400);
    expect((await json(elsewhere)).error.code).toBe('Directory_ExpiredPageToken');
  });

  it('pages by 100 by default, up to 999, honours $select, and counts with ConsistencyLevel: eventual', async () => {
    const path = `/v1.0/servicePrincipals(appId='${s.clientId}')/appRoleAssignedTo`;
    const all = await json(await get(path));
    expect(all.value).toHaveLength(4);
    expect(all).not.toHaveProperty('@odata.nextLink');
    expect(all).not.toHaveProperty('@odata.count');

    const selected = await json(await get(`${path}?$select=principalId,appRoleId&$top=999`));
    expect(selected['@odata.context']).toMatch(/\/appRoleAssignedTo\(id,principalId,appRoleId\)$/);
    expect(Object.keys(selected.value[0])).toEqual(['id', 'principalId', 'appRoleId']);

    const counted = await json(await get(`${path}?$count=true&$top=1`, appToken, { ConsistencyLevel: 'eventual' }));
    expect(counted['@odata.count']).toBe(4);
    expect(new URL(counted['@odata.nextLink']).searchParams.get('$count')).toBe('true');

    for (const query of ['$top=0', '$top=1000', '$filter=principalType%20eq%20%27User%27']) {
      const response = await get(`${path}?${query}`);
      expect(response.status, query).toBe(400);
      expect((await json(response)).error.code).toBe('Request_UnsupportedQuery');
    }
  });

  it('lists the users of a group and of its nested groups, each once, with $select and paging', async () => {
    const path = `/v1.0/groups/${administradores.id}/transitiveMembers/microsoft.graph.user`;
    const response = await get(`${path}?$select=id`);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toEqual({
      '@odata.context': `${s.graphUrl}/v1.0/$metadata#users(id)`,
      value: [{ id: bruno.id }, { id: duda.id }, { id: fabi.id }],
    });

    const page1 = await json(await get(`${path}?$select=id,displayName,accountEnabled&$top=2`));
    expect(page1.value).toEqual([
      { id: bruno.id, displayName: 'Bruno', accountEnabled: true },
      { id: duda.id, displayName: 'Duda', accountEnabled: true },
    ]);
    const next = new URL(page1['@odata.nextLink']);
    expect(next.pathname).toBe(path);
    expect(next.searchParams.get('$select')).toBe('id,displayName,accountEnabled');
    const page2 = await json(await get(page1['@odata.nextLink']));
    expect(page2.value).toEqual([{ id: fabi.id, displayName: 'Fabi', accountEnabled: true }]);
    expect(page2).not.toHaveProperty('@odata.nextLink');

    // Without $select: Graph's default user properties.
    const full = await json(await get(`/v1.0/groups/${equipeBi.id}/transitiveMembers/microsoft.graph.user`));
    expect(full['@odata.context']).toBe(`${s.graphUrl}/v1.0/$metadata#users`);
    expect(full.value[0]).toMatchObject({ id: duda.id, displayName: 'Duda', mail: duda.mail });
    expect(full.value[0]).not.toHaveProperty('accountEnabled');
  });

  it('lists only the direct users of a group under members', async () => {
    const body = await json(await get(`/v1.0/groups/${administradores.id}/members/microsoft.graph.user?$select=id`));
    expect(body.value).toEqual([{ id: bruno.id }, { id: fabi.id }]);
  });

  it('serves the groups set with setGroups', async () => {
    const solo: StandInGroup = {
      id: 'b0000009-0000-4000-8000-000000000009',
      displayName: 'Só',
      members: [edu.id],
      appRoles: ['Admin'],
    };
    s.graph.setGroups([solo]);
    try {
      const members = await json(
        await get(`/v1.0/groups/${solo.id}/transitiveMembers/microsoft.graph.user?$select=id`),
      );
      expect(members.value).toEqual([{ id: edu.id }]);
      expect((await get(`/v1.0/groups/${administradores.id}/transitiveMembers/microsoft.graph.user`)).status).toBe(404);
      const assignments = await json(
        await get(`/v1.0/servicePrincipals/${servicePrincipalId}/appRoleAssignedTo?$select=principalId`),
      );
      expect(assignments.value.map((assignment: any) => assignment.principalId)).toEqual([
        ana.id,
        carla.id,
        edu.id,
        solo.id,
      ]);
    } finally {
      s.graph.setGroups([administradores, equipeBi]);
    }
  });

  it('answers 403 Authorization_RequestDenied to a token without the permissions, and 401 without a token', async () => {
    // A signed-in person's token with only User.Read, as the portal's sign-in gets.
    const { access_token: userRead } = await signIn(ana, 'openid profile User.Read');
    for (const path of [
      `/v1.0/servicePrincipals(appId='${s.clientId}')`,
      `/v1.0/servicePrincipals/${servicePrincipalId}/appRoleAssignedTo`,
      `/v1.0/groups/${administradores.id}/transitiveMembers/microsoft.graph.user`,
      // Get user: User.Read.All as for the list (User.Read is only the signed-in person's /me).
      `/v1.0/users/${bruno.id}`,
    ]) {
      const denied = await get(path, userRead);
      expect(denied.status, path).toBe(403);
      expect((await json(denied)).error).toMatchObject({
        code: 'Authorization_RequestDenied',
        message: 'Insufficient privileges to complete the operation.',
      });
      const anonymous = await get(path, null);
      expect(anonymous.status, path).toBe(401);
      expect((await json(anonymous)).error.code).toBe('InvalidAuthenticationToken');
    }
    expect(s.graph.requests.map(({ status, authorized }) => [status, authorized])).toEqual([
      [403, true],
      [401, false],
      [403, true],
      [401, false],
      [403, true],
      [401, false],
      [403, true],
      [401, false],
    ]);

    // GroupMember.Read.All without a permission to read users: Graph lists the members with their id only.
    const { access_token: membersOnly } = await signIn(ana, 'openid GroupMember.Read.All');
    const limited = await get(
      `/v1.0/groups/${equipeBi.id}/transitiveMembers/microsoft.graph.user?$select=id,displayName`,
      membersOnly,
    );
    expect(limited.status).toBe(200);
    expect((await json(limited)).value).toEqual([
      { id: duda.id, displayName: null },
      { id: fabi.id, displayName: null },
    ]);
    expect((await get(`/v1.0/servicePrincipals/${servicePrincipalId}/appRoleAssignedTo`, membersOnly)).status).toBe(
      403,
    );
  });

  it('puts group-assigned app roles in the ID token of the group’s direct members, as Entra does', async () => {
    const roles = async (who: StandInPerson) => decodeJwt((await signIn(who, 'openid profile')).id_token!).roles;
    expect(await roles(ana)).toEqual(['Admin']);
    expect(await roles(bruno)).toEqual(['Admin']);
    expect(await roles(fabi)).toEqual(['Admin']);
    expect(await roles(edu)).toEqual(['Leitor']);
    // Duda is only in Equipe BI, nested in the group holding Admin: Entra's group assignment does not cascade.
    expect(await roles(duda)).toBeUndefined();
  });

  it('applies queued throttling and failures to these endpoints too, one queue in request order', async () => {
    const assignedTo = `/v1.0/servicePrincipals/${servicePrincipalId}/appRoleAssignedTo?$top=999`;
    s.graph.throttleNext(5);
    const throttled = await get(assignedTo);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('5');
    expect((await json(throttled)).error.code).toBe('TooManyRequests');
    expect((await get(assignedTo)).status).toBe(200);

    s.graph.failNext(503, 1, 2);
    const statuses = [];
    for (const path of [
      `/v1.0/users?$top=1`,
      `/v1.0/servicePrincipals(appId='${s.clientId}')?$select=id,appRoles`,
      `/v1.0/groups/${administradores.id}/transitiveMembers/microsoft.graph.user?$select=id`,
      `/v1.0/groups/${administradores.id}/transitiveMembers/microsoft.graph.user?$select=id`,
    ]) {
      statuses.push((await get(path)).status);
    }
    expect(statuses).toEqual([200, 200, 503, 200]);
    expect(s.graph.requests.map((request) => [new URL(request.url).pathname, request.status])).toEqual([
      [`/v1.0/servicePrincipals/${servicePrincipalId}/appRoleAssignedTo`, 429],
      [`/v1.0/servicePrincipals/${servicePrincipalId}/appRoleAssignedTo`, 200],
      ['/v1.0/users', 200],
      [`/v1.0/servicePrincipals(appId='${s.clientId}')`, 200],
      [`/v1.0/groups/${administradores.id}/transitiveMembers/microsoft.graph.user`, 503],
      [`/v1.0/groups/${administradores.id}/transitiveMembers/microsoft.graph.user`, 200],
    ]);
  });
});
