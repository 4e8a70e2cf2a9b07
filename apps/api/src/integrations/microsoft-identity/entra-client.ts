import * as oidc from 'openid-client';
import type { MicrosoftSettings } from '../../config/env.ts';
import { ExpiringCache } from '../../lib/expiring-cache.ts';
import { causeChain, errorFromFetchFailure, failureOfStatus, MicrosoftError } from '../microsoft-error.ts';

/**
 * What the portal takes from a validated ID token: who signed in (`oid`, in the tenant the issuer names) and the
 * app roles the tenant gave them. Everything else about the person comes from the directory (Graph), never from
 * the token's `email` or `preferred_username` (docs/decisions/013-identity-from-the-directory.md).
 */
export interface EntraIdentity {
  oid: string;
  appRoles: string[];
}

export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Plain http is only ever allowed for a stand-in on this machine. */
export function isLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && (hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]');
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

export interface EntraClientOptions {
  /** Per request to Entra ID (discovery, tokens, signing keys), to the last byte of the answer; default 10 s. */
  timeoutMs?: number;
}

/** openid-client's codes for an answer it could not use: not JSON, not an object, missing or mistyped fields. */
const MALFORMED_CODES = new Set([
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_PARSE_ERROR',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_INVALID_SERVER_METADATA',
  'OAUTH_MISSING_SERVER_METADATA',
]);

/**
 * What a failed discovery or token request stands for. openid-client names the HTTP status when Entra answered with
 * an OAuth error (a wrong client secret is a refusal), and puts the answer in `cause` when it was not one (an HTML
 * 500, say); its own codes say when an answer could not be read, or timed out (also while the body was read).
 */
function entraError(error: unknown): MicrosoftError {
  if (error instanceof MicrosoftError) return error;
  const errors = causeChain(error);
  const answer = errors.find((e) => e instanceof Response);
  const status = (error as { status?: unknown }).status ?? answer?.status;
  const code = (error as { code?: unknown }).code;
  if (typeof status === 'number' && (status < 200 || status > 299)) {
    const failure = failureOfStatus(status);
    const oauthCode = (error as { error?: unknown }).error;
    return new MicrosoftError('entra', failure, `Entra ID respondeu ${status}: ${(error as Error).message}`, {
      status,
      code: typeof oauthCode === 'string' ? oauthCode : undefined,
    });
  }
  if (code === 'OAUTH_TIMEOUT' || errors.some((e) => ['TimeoutError', 'AbortError'].includes((e as Error).name))) {
    return new MicrosoftError('entra', 'timeout', 'Entra ID: sem resposta a tempo.');
  }
  if (typeof code === 'string' && MALFORMED_CODES.has(code)) {
    const details = typeof status === 'number' ? { status, code } : { code };
    return new MicrosoftError(
      'entra',
      'malformed',
      `Entra ID: resposta ilegível (${(error as Error).message})`,
      details,
    );
  }
  return errorFromFetchFailure('entra', error);
}

/** `promise`, or a `timeout` from Entra ID as soon as `signal` aborts (the caller's time is up; the request goes on). */
function within<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  let abort = () => {};
  const timedOut = new Promise<never>((_resolve, reject) => {
    abort = () =>
      reject(new MicrosoftError('entra', 'timeout', 'Entra ID: sem resposta a tempo para o token do portal.'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
  return Promise.race([promise, timedOut]).finally(() => signal.removeEventListener('abort', abort));
}

/** A service-principal token is never used closer than this to its expiry. */
const APP_TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * How long a service-principal token is used after it arrives: its first sixth (10 minutes of Entra's usual hour),
 * and never within five minutes of its expiry. Power BI ends an embed token no later than the access token that
 * asked for it, so an app token kept to near its end would hand out embed tokens of minutes; renewed this early,
 * every embed token gets at least five sixths of its lifetime (docs/decisions/014-power-bi-limits-and-view-only-tokens.md).
 */
export function appTokenUseMs(lifetimeSeconds: number): number {
  const lifetimeMs = lifetimeSeconds * 1000;
  return Math.max(0, Math.min(lifetimeMs / 6, lifetimeMs - APP_TOKEN_REFRESH_MARGIN_MS));
}

/**
 * Entra ID through openid-client: discovery of the tenant's v2.0 issuer (cached; retried after a failure),
 * the authorization-code flow with PKCE, state and nonce, and client-credentials tokens for APIs.
 */
export class EntraClient {
  private configuration: Promise<oidc.Configuration> | null = null;
  private readonly appTokens = new ExpiringCache<string>(100);
  private readonly timeoutMs: number;

  constructor(
    private readonly settings: MicrosoftSettings,
    options: EntraClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  get issuer(): string {
    return `${this.settings.authorityHost}/${this.settings.tenantId}/v2.0`;
  }

  private config(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(new URL(this.issuer), this.settings.clientId, this.settings.clientSecret, undefined, {
        // Signature checks on the ID token too: openid-client otherwise relies on TLS alone for the code flow.
        execute: isLoopback(this.issuer)
          ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks]
          : [oidc.enableNonRepudiationChecks],
        // openid-client counts in seconds, for discovery and every later request of this configuration.
        timeout: this.timeoutMs / 1000,
      })
      .catch((error: unknown) => {
        this.configuration = null;
        throw error;
      });
    return this.configuration;
  }

  static newChecks(): SignInChecks {
    return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  }

  /** The tenant's configuration, or the Entra failure that kept it away. */
  private async configured(): Promise<oidc.Configuration> {
    try {
      return await this.config();
    } catch (error) {
      throw entraError(error);
    }
  }

  async authorizationUrl(redirectUri: string, checks: SignInChecks): Promise<URL> {
    return oidc.buildAuthorizationUrl(await this.configured(), {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      response_type: 'code',
      response_mode: 'query',
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
      prompt: 'select_account',
    });
  }

  /** Redeems the code the browser brought back; throws unless the ID token is valid for this sign-in. */
  async completeSignIn(callbackUrl: URL, checks: SignInChecks): Promise<EntraIdentity> {
    const tokens = await oidc.authorizationCodeGrant(await this.configured(), callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    // The issuer was checked (this tenant's), so `oid` names a person of this tenant.
    const oid = text(claims?.oid);
    if (!claims || !oid) throw new Error('O token de identidade não traz oid.');
    return {
      oid,
      appRoles: Array.isArray(claims.roles) ? claims.roles.filter((r): r is string => typeof r === 'string') : [],
    };
  }

  /**
   * A service-principal token for an API (Graph, Power BI), kept for the first sixth of its life (appTokenUseMs);
   * callers asking at the same time share one request, and a failure is forgotten at once. A caller whose
   * `signal` aborts first gets a `timeout` then (the shared request goes on, within this client's own timeout).
   */
  appToken(scope: string, signal?: AbortSignal): Promise<string> {
    const token = this.appTokens.get(scope, async () => {
      let response: oidc.TokenEndpointResponse;
      try {
        response = await oidc.clientCredentialsGrant(await this.configured(), { scope });
      } catch (error) {
        throw entraError(error);
      }
      if (typeof response.access_token !== 'string' || !response.access_token) {
        throw new MicrosoftError('entra', 'malformed', 'Entra ID: resposta sem access_token.');
      }
      const lifetime = typeof response.expires_in === 'number' ? response.expires_in : 3600;
      return { value: response.access_token, until: Date.now() + appTokenUseMs(lifetime) };
    });
    return within(token, signal);
  }
}
