import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { IdTokenError, verifyIdToken, type IdTokenExpectations } from "../../app/features/auth/id-token.server.ts";

/** Every check of the ID token, one at a time, with keys made here. */
const ISSUER = "https://idp.example.test";
const CLIENT_ID = "assessment-service";
const NONCE = "the-nonce-this-browser-was-given-0123456789";

let providerKey: CryptoKey;
let otherKey: CryptoKey;
let expected: IdTokenExpectations;

beforeAll(async () => {
  const provider = await generateKeyPair("RS256", { extractable: true });
  providerKey = provider.privateKey;
  otherKey = (await generateKeyPair("RS256")).privateKey;
  const publicJwk = { ...(await exportJWK(provider.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  expected = { issuer: ISSUER, clientId: CLIENT_ID, keys: createLocalJWKSet({ keys: [publicJwk] }), nonce: NONCE, algorithms: ["RS256"] };
});

const now = () => Math.floor(Date.now() / 1000);

function token(claims: JWTPayload = {}, options: { key?: CryptoKey; kid?: string; omit?: string[] } = {}) {
  const payload: JWTPayload = { iss: ISSUER, aud: CLIENT_ID, sub: "subject-1", nonce: NONCE, iat: now(), exp: now() + 300, ...claims };
  for (const name of options.omit ?? []) delete payload[name];
  return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: options.kid ?? "k1" }).sign(options.key ?? providerKey);
}

const refused = async (jwt: Promise<string> | string, overrides: Partial<IdTokenExpectations> = {}) =>
  expect(verifyIdToken(await jwt, { ...expected, ...overrides })).rejects.toBeInstanceOf(IdTokenError);

describe("verifyIdToken", () => {
  it("given a token from the provider for this client and nonce, should answer its claims", async () => {
    const claims = await verifyIdToken(await token({ email: "a@b.test", email_verified: true }), expected);
    expect(claims).toMatchObject({ sub: "subject-1", email: "a@b.test", email_verified: true });
  });

  it("given a signature by another key, or no signature at all, should refuse it", async () => {
    await refused(token({}, { key: otherKey }));
    const [header, payload] = (await token()).split(".");
    await refused(`${header}.${payload}.`);
    const none = Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url");
    await refused(`${none}.${payload}.`);
  });

  it("given a token signed with the client secret (HS256), should refuse it", async () => {
    const secret = new TextEncoder().encode("client-secret-used-as-an-hmac-key-0123456789");
    const hs = await new SignJWT({ iss: ISSUER, aud: CLIENT_ID, sub: "s", nonce: NONCE, iat: now(), exp: now() + 300 })
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .sign(secret);
    await refused(hs, { algorithms: ["RS256", "HS256"] });
  });

  it("given another issuer or audience, should refuse it", async () => {
    await refused(token({ iss: "https://evil.example.test" }));
    await refused(token({ aud: "another-client" }));
  });

  it("given several audiences, should need azp to be this client", async () => {
    await refused(token({ aud: [CLIENT_ID, "another-client"] }));
    await expect(verifyIdToken(await token({ aud: [CLIENT_ID, "another-client"], azp: CLIENT_ID }), expected)).resolves.toBeTruthy();
    await refused(token({ azp: "another-client" }));
  });

  it("given an expired token, one issued in the future, or one issued too long ago, should refuse it", async () => {
    await refused(token({ exp: now() - 120 }));
    await refused(token({ iat: now() + 600 }));
    await refused(token({ iat: now() - 3600, exp: now() + 300 }));
  });

  it("given a missing claim among iss, sub, aud, exp, iat and nonce, should refuse it", async () => {
    for (const claim of ["iss", "sub", "aud", "exp", "iat", "nonce"]) await refused(token({}, { omit: [claim] }));
  });

  it("given another nonce, should refuse it", async () => {
    await refused(token({ nonce: "another-nonce" }));
    await refused(token({ nonce: `${NONCE}x` }));
  });
});
