import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { EntraClient, type SignInChecks } from '../../integrations/microsoft-identity/entra-client.ts';
import type { GraphClient } from '../../integrations/microsoft-graph/graph-client.ts';
import { recordRefusedSignIn } from '../audit/audit.ts';
import { recordMicrosoftSignIn } from '../users/users.service.ts';
import { signedIn } from './sign-ins.ts';
import { signSessionToken } from './tokens.ts';

export interface MicrosoftSignInDeps {
  db: Db;
  entra: EntraClient | null;
  graph: GraphClient | null;
  config: Pick<Config, 'jwt' | 'adminUsers'>;
}

export interface MicrosoftCallback {
  /** The sign-in's state, nonce and PKCE verifier, from the state cookie once its signature checked; else null. */
  checks: string | null;
  /** The address Entra ID sent the person back to, with its query. */
  callbackUrl: URL;
  ip: string;
  log: FastifyBaseLogger;
}

/**
 * The start of a Microsoft sign-in (OIDC, code with PKCE): the address of Entra ID's sign-in page, and the state,
 * nonce and verifier the state cookie carries until the person comes back; null when Microsoft is not configured or
 * Entra ID cannot be reached (logged).
 */
export async function startMicrosoftSignIn(
  entra: EntraClient | null,
  callbackUrl: string,
  log: FastifyBaseLogger,
): Promise<{ url: string; checks: string } | null> {
  if (!entra) return null;
  const checks = EntraClient.newChecks();
  try {
    return { url: (await entra.authorizationUrl(callbackUrl, checks)).href, checks: JSON.stringify(checks) };
  } catch (error) {
    log.error({ err: error }, 'Entra ID indisponível para iniciar o login');
    return null;
  }
}

/**
 * The end of a Microsoft sign-in (docs/decisions/005-sign-in-and-sessions.md): Entra ID's answer checked against the
 * state cookie, the person recorded from the directory, a session token made, and the sign-in audited. Answers the
 * token, or null when the sign-in is refused (the reason logged and audited; the person sees one message for all).
 */
export async function completeMicrosoftSignIn(
  deps: MicrosoftSignInDeps,
  callback: MicrosoftCallback,
): Promise<string | null> {
  const refused = async (reason: string, error?: unknown, usuarioId: string | null = null) => {
    callback.log.warn({ err: error, reason, userId: usuarioId ?? undefined }, 'login Microsoft recusado');
    const actor = { usuarioId, usuario: null, endereco: callback.ip };
    await recordRefusedSignIn(deps.db, actor, 'Microsoft', 'login_recusado', reason);
    return null;
  };
  const { entra, graph } = deps;
  if (!entra || !graph) return refused('Microsoft não configurado');
  if (!callback.checks) return refused('sem cookie de estado válido');
  let checks: SignInChecks;
  try {
    checks = JSON.parse(callback.checks) as SignInChecks;
  } catch (error) {
    return refused('cookie de estado ilegível', error);
  }
  let identity;
  try {
    identity = await entra.completeSignIn(callback.callbackUrl, checks);
  } catch (error) {
    return refused('resposta do Entra ID recusada', error);
  }
  // Who signed in is the token's oid; what the portal keeps of them comes from the directory.
  const recorded = await recordMicrosoftSignIn(deps.db, graph, identity, deps.config.adminUsers, callback.log);
  if ('refused' in recorded) return refused(recorded.refused, undefined, identity.oid);
  const { user } = recorded;
  const { token } = await signSessionToken(deps.config.jwt, {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    department: user.department,
    jobTitle: user.jobTitle,
    officeLocation: user.officeLocation,
  });
  await signedIn(deps.db, { usuarioId: user.id, usuario: user.email, endereco: callback.ip }, 'Microsoft');
  callback.log.info({ userId: user.id, role: user.role }, 'login Microsoft');
  return token;
}
