import { startStandIns } from './stand-ins.ts';
import type { StandInPerson, StandInReport, StandIns } from './types.ts';

/**
 * What the stand-ins' tests share: the people and reports they start the stand-ins with, and the service principal's
 * tokens. Not used by the stand-ins themselves; the API's tests may use it too (e.g. `vendas`).
 */

/** The portal's sign-in callback, as the stand-in app registration lists it. */
export const REDIRECT_URI = 'http://127.0.0.1:5173/auth/callback';

/** The fields the portal posts to the token endpoint to redeem a sign-in's code (with its PKCE verifier). */
export function codeRedemption(s: StandIns, code: string, verifier: string): Record<string, string> {
  return {
    grant_type: 'authorization_code',
    client_id: s.clientId,
    client_secret: s.clientSecret,
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  };
}

/** Ana Souza, a member who signs in with her e-mail address; each test adds what it needs of her directory entry. */
export function anaSouza(more: Partial<StandInPerson> = {}): StandInPerson {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    displayName: 'Ana Souza',
    mail: 'ana.souza@contoso.com.br',
    userPrincipalName: 'ana.souza@contoso.com.br',
    showOnSignIn: true,
    ...more,
  };
}

/** The workspace of the tests' reports. */
export const WORKSPACE = 'aaaaaaaa-0000-4000-8000-000000000001';

/** Report `n` of WORKSPACE, on dataset `n` (made-up ids in Power BI's GUID shape), named and described by the test. */
export function testReport(
  n: number,
  report: Omit<StandInReport, 'workspaceId' | 'reportId' | 'datasetId'>,
): StandInReport {
  const serial = String(n).padStart(12, '0');
  return {
    workspaceId: WORKSPACE,
    reportId: `bbbbbbbb-0000-4000-8000-${serial}`,
    datasetId: `cccccccc-0000-4000-8000-${serial}`,
    ...report,
  };
}

/** Report 1, without RLS, on the stand-in's default pages. */
export const vendas = testReport(1, { name: 'Vendas', rls: false });

/** The token endpoint's answer to the portal's service principal asking for `scope` (client credentials). */
export function clientCredentials(s: StandIns, scope: string): Promise<Response> {
  return fetch(`${s.authorityHost}/${s.tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: s.clientId,
      client_secret: s.clientSecret,
      scope,
    }),
  });
}

/** The service principal's access token for `resource` (its .default scope). */
export async function appToken(s: StandIns, resource: string): Promise<string> {
  const response = await clientCredentials(s, `${resource}/.default`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export const powerBiToken = (s: StandIns) => appToken(s, 'https://analysis.windows.net/powerbi/api');

/** Stand-ins serving these reports (and no people), with the service principal's Power BI token. */
export async function powerBiStandIns(reports: StandInReport[]): Promise<{ s: StandIns; token: string }> {
  const s = await startStandIns({ people: [], reports });
  return { s, token: await powerBiToken(s) };
}
