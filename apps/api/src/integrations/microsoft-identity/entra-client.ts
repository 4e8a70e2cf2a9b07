import * as oidc from 'openid-client';
import type { MicrosoftSettings } from '../../config/env.ts';
import { ExpiringCache } from '../../lib/expiring-cache.ts';
import { errorFromFetchFailure, MicrosoftError } from '../microsoft-error.ts';

/** What the portal keeps of a Microsoft sign-in (from the validated ID token). */
export interface EntraIdentity {
  oid: string;
  email: string;
  displayName: string;
  department: string | null;
  jobTitle: string | null;
  officeLocation: string | null;
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

/**
 * What a failed discovery or token request stands for: openid-client names the HTTP status when Entra
 * answered (an OAuth error such as a wrong client secret is a refusal), and nothing when it could not.
 */
function entraError(error: unknown): MicrosoftError {
  const status = (error as { status?: unknown }).status;
  if (typeof status !== 'number') return errorFromFetchFailure('entra', error);
  const failure = status === 429 ? 'throttled' : status >= 500 ? 'unavailable' : 'refused';
  const code = (error as { error?: unknown }).error;
  return new MicrosoftError('entra', failure, `Entra ID respondeu ${status}: ${(error as Error).message}`, {
    status,
    code: typeof code === 'string' ? code : undefined,
  });
}

/** A service-principal token is renewed this long before it expires. */
const APP_TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * Entra ID through openid-client: discovery of the tenant's v2.0 issuer (cached; retried after a failure),
 * the authorization-code flow with PKCE, state and nonce, and client-credentials tokens for APIs.
 */
export class EntraClient {
  private configuration: Promise<oidc.Configuration> | null = null;
  private readonly appTokens = new ExpiringCache<string>(100);

  constructor(private readonly settings: MicrosoftSettings) {}

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
        timeout: 10,
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

  async authorizationUrl(redirectUri: string, checks: SignInChecks): Promise<URL> {
    return oidc.buildAuthorizationUrl(await this.config(), {
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
    const tokens = await oidc.authorizationCodeGrant(await this.config(), callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    const oid = text(claims?.oid);
    const email = text(claims?.email) ?? text(claims?.preferred_username);
    if (!claims || !oid || !email) throw new Error('O token de identidade não traz oid e e-mail.');
    return {
      oid,
      email: email.toLowerCase(),
      displayName: text(claims.name) ?? email,
      department: text(claims.department),
      jobTitle: text(claims.jobTitle),
      officeLocation: text(claims.officeLocation),
      appRoles: Array.isArray(claims.roles) ? claims.roles.filter((r): r is string => typeof r === 'string') : [],
    };
  }

  /**
   * A service-principal token for an API (Graph, Power BI), kept until five minutes before it expires;
   * callers asking at the same time share one request.
   */
  appToken(scope: string): Promise<string> {
    return this.appTokens.get(scope, async () => {
      let response: oidc.TokenEndpointResponse;
      try {
        response = await oidc.clientCredentialsGrant(await this.config(), { scope });
      } catch (error) {
        throw entraError(error);
      }
      return {
        value: response.access_token,
        until: Date.now() + (response.expires_in ?? 3600) * 1000 - APP_TOKEN_REFRESH_MARGIN_MS,
      };
    });
  }
}
