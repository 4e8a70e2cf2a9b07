/**
 * One request to a Microsoft service and its answer, as the stand-ins record them and the schemas check them
 * (docs/decisions/016-microsoft-contract-tests.md). Zod-free, so the stand-ins can name it without the schemas.
 */

export type MicrosoftApi = 'entra' | 'graph' | 'power-bi' | 'arm';

/** What a secret (a client secret, a code, a token) is recorded as: a string still, so its place can be checked. */
export const REDACTED = '[omitido]';

export interface Exchange {
  service: MicrosoftApi;
  /** Upper-case, as sent. */
  method: string;
  /** Path and query exactly as sent (still percent-encoded), e.g. `/v1.0/users?$top=999`. */
  url: string;
  request: {
    /**
     * The headers that matter, by lower-case name: `authorization` (its scheme, the credential replaced by
     * REDACTED), `content-type`, `accept`, `consistencylevel`, `client-request-id`.
     */
    headers: Record<string, string>;
    /** The parsed JSON or form body (secrets replaced by REDACTED); absent without one. */
    body?: unknown;
  };
  answer: {
    status: number;
    /**
     * `content-type`, `retry-after`, `requestid`, `request-id`, `x-ms-request-id`, `client-request-id`, `location` (any
     * code in it REDACTED).
     */
    headers: Record<string, string>;
    /** The parsed JSON body (tokens replaced by REDACTED); absent when the answer is not JSON or not readable. */
    body?: unknown;
    /** The body's length in bytes (the only trace of a file). */
    bytes: number;
    /** The claims of the `id_token` the answer carried (its header and signature left out). */
    idTokenClaims?: Record<string, unknown>;
  };
}

/** Something an exchange does that Microsoft's description of the call does not allow. */
export interface Violation {
  /** The operation the exchange was taken for; null when no operation in the schemas matches it. */
  operation: string | null;
  /** `METHOD url` of the exchange, to find it in a list. */
  exchange: string;
  part: 'operation' | 'request' | 'answer';
  /** Where in that part, e.g. `query.$top`, `body.identities[0].roles[3]`, `header retry-after`. */
  at: string;
  message: string;
}
