import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * scrypt at OWASP's recommended cost (N=2^17, r=8, p=1). The hash is stored as
 * `scrypt$N$r$p$salt$key` (base64url) so the cost can be raised later without breaking old hashes.
 */
type Cost = { N: number; r: number; p: number };
export const PRODUCTION_COST: Cost = { N: 2 ** 17, r: 8, p: 1 };

/**
 * The test suite (NODE_ENV=test) hashes hundreds of passwords; at 2^10 each takes a millisecond
 * instead of ≈300. Every other environment, development included, uses the production cost, and
 * a hash keeps the cost it was made with, so verifying is never weaker than hashing was.
 */
// Read at run time (a bundler may replace `process.env.NODE_ENV` written as a member access).
export const hashingCost = (nodeEnv = process.env["NODE_ENV"]): Cost => (nodeEnv === "test" ? { N: 2 ** 10, r: 8, p: 1 } : PRODUCTION_COST);

const KEY_LENGTH = 32;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

function derive(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string, cost: Cost = hashingCost()): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to verify against when the e-mail is unknown, so both cases take the same time. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return decoyHash;
}
