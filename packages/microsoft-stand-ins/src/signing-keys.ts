import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';

/** The stand-in's RS256 key pair, published in the JWKS, plus a second key that is never published. */
export interface SigningKeys {
  jwks: { keys: JWK[] };
  /** `forged` signs with the unpublished key under the same kid, as a token tampered with in transit would be. */
  sign(claims: JWTPayload, options?: { forged?: boolean }): Promise<string>;
  /** The token's claims when it was signed by the published key for this issuer and one of `audiences`. */
  verify(token: string, issuer: string, audiences: string[]): Promise<JWTPayload | null>;
}

export async function createSigningKeys(): Promise<SigningKeys> {
  const [published, unpublished] = await Promise.all([
    generateKeyPair('RS256', { extractable: true }),
    generateKeyPair('RS256'),
  ]);
  const publicJwk = await exportJWK(published.publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);

  return {
    jwks: { keys: [{ ...publicJwk, kid, use: 'sig', alg: 'RS256' }] },
    sign(claims, options) {
      const key = options?.forged ? unpublished.privateKey : published.privateKey;
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
    },
    async verify(token, issuer, audiences) {
      try {
        const { payload } = await jwtVerify(token, published.publicKey, {
          issuer,
          audience: audiences,
          algorithms: ['RS256'],
        });
        return payload;
      } catch {
        return null;
      }
    },
  };
}
