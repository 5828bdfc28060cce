import { createHash } from "node:crypto";
import {
  TEST_LINK_MISS_LIMIT,
  TEST_LINK_READ_LIMIT,
  TEST_LINK_WRITE_LIMIT,
  consumeRateLimit,
  rateLimitRetryAfter,
  testLinkDraftAddressLimit,
  testLinkSubmitAddressLimit,
} from "~/lib/auth/rate-limit.server.ts";
import { ApiError, rateLimited } from "~/lib/problem.server.ts";

/**
 * The limits of the public test links (ADR 47), shared by the API and the respondent's page:
 * - per client address, only tokens that lead nowhere count (token guessing), so the people behind
 *   one school address who open their own links never refuse each other;
 * - per link, opens, draft saves and submits, which belong to one respondent;
 * - per client address, submits and saves under a generous, configurable ceiling.
 */

/** A link is counted by a digest of its token: the token is a credential and never stored. */
const linkKey = (token: string) => createHash("sha256").update(token).digest("base64url").slice(0, 32);

/**
 * Runs `work` for a link token unless the address has missed too often; a 404 from it counts as a
 * miss. The check comes first and the miss is counted after, so a respondent's success never costs
 * the address anything.
 */
export async function guardedByMisses<T>(clientAddress: string, work: () => Promise<T>): Promise<T> {
  const retryAfter = await rateLimitRetryAfter(TEST_LINK_MISS_LIMIT, clientAddress);
  if (retryAfter !== null) throw rateLimited(retryAfter);
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) await countMiss(clientAddress);
    throw error;
  }
}

async function countMiss(clientAddress: string) {
  try {
    await consumeRateLimit(TEST_LINK_MISS_LIMIT, clientAddress);
  } catch (error) {
    // Past the limit already: this answer stays a 404, the next one is refused.
    if (!(error instanceof ApiError && error.status === 429)) throw error;
  }
}

/** One open of a link (page or API). */
export async function countTestLinkRead(token: string): Promise<void> {
  await consumeRateLimit(TEST_LINK_READ_LIMIT, linkKey(token));
}

/** `read` of link `token` (its test, its review), counted as one open and guarded by the address's misses. */
export function readingTestLink<T>(clientAddress: string, token: string, read: () => Promise<T>): Promise<T> {
  return guardedByMisses(clientAddress, async () => {
    await countTestLinkRead(token);
    return read();
  });
}

/** One draft save or submit of a link, from `clientAddress`. */
export async function countTestLinkWrite(token: string, clientAddress: string, kind: "draft" | "submit"): Promise<void> {
  await consumeRateLimit(TEST_LINK_WRITE_LIMIT, linkKey(token));
  await consumeRateLimit(kind === "submit" ? testLinkSubmitAddressLimit() : testLinkDraftAddressLimit(), clientAddress);
}
