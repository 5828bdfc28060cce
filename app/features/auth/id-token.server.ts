import { timingSafeEqual } from "node:crypto";
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";

/**
 * Checks an OpenID Connect ID token as OIDC Core §3.1.3.7 asks of a confidential client that got
 * it straight from the token endpoint: the signature against the provider's keys (asymmetric
 * algorithms only, never `none` or a shared secret), `iss`, `aud` (and `azp` when there are several
 * audiences), `exp` and `iat` (not in the future, at most ten minutes old, a minute of clock skew
 * either way), a `sub`, and the `nonce` this browser was given when the sign-in started.
 */
export type IdTokenExpectations = {
  issuer: string;
  clientId: string;
  /** The provider's keys: jose's remote JWKS in the service, a local set in tests. */
  keys: JWTVerifyGetKey;
  /** The nonce kept in the signed state cookie. */
  nonce: string;
  /** The algorithms the provider announces; anything else (and anything symmetric) is refused. */
  algorithms?: readonly string[];
  currentDate?: Date;
};

export type IdTokenClaims = JWTPayload & { sub: string; email?: unknown; email_verified?: unknown };

const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];
export const ID_TOKEN_MAX_AGE_SECONDS = 10 * 60;
export const CLOCK_TOLERANCE_SECONDS = 60;

/** Why an ID token was refused: for the log, never shown to the user. */
export class IdTokenError extends Error {
  override name = "IdTokenError";
}

export async function verifyIdToken(idToken: string, expected: IdTokenExpectations): Promise<IdTokenClaims> {
  const announced = expected.algorithms?.filter((alg) => ASYMMETRIC.includes(alg)) ?? [];
  const algorithms = announced.length > 0 ? announced : ["RS256"];
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, expected.keys, {
      issuer: expected.issuer,
      audience: expected.clientId,
      algorithms,
      requiredClaims: ["iss", "sub", "aud", "exp", "iat", "nonce"],
      maxTokenAge: ID_TOKEN_MAX_AGE_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      ...(expected.currentDate ? { currentDate: expected.currentDate } : {}),
    }));
  } catch (error) {
    if (error instanceof errors.JOSEError) throw new IdTokenError(`ID token refused: ${error.code}: ${error.message}`);
    throw error;
  }
  if (typeof payload.sub !== "string" || payload.sub.length === 0 || payload.sub.length > 255) {
    throw new IdTokenError("ID token refused: sub is missing or too long");
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const azp = (payload as { azp?: unknown }).azp;
  if ((audiences.length > 1 || azp !== undefined) && azp !== expected.clientId) {
    throw new IdTokenError("ID token refused: azp is not this client");
  }
  const nonce = (payload as { nonce?: unknown }).nonce;
  if (typeof nonce !== "string" || !sameString(nonce, expected.nonce)) {
    throw new IdTokenError("ID token refused: the nonce is not the one this browser was given");
  }
  return payload as IdTokenClaims;
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
