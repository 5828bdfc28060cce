import { db } from "../db.server.ts";
import { rateLimited } from "../problem.server.ts";

export type RateLimitRule = { name: string; limit: number; windowMs: number };

export const CHECK_CREDENTIALS_LIMIT: RateLimitRule = {
  name: "check-credentials",
  limit: 5,
  windowMs: 10 * 60 * 1000,
};

/**
 * Counts one attempt against `rule` for `subject` (an IP address, an account) and throws 429 when
 * the limit is passed. The counter lives in the database and is changed by a single
 * INSERT ... ON CONFLICT statement, so parallel requests and several app instances cannot both
 * see a count below the limit. The window starts at the first attempt and lasts `windowMs`.
 */
export async function consumeRateLimit(rule: RateLimitRule, subject: string): Promise<void> {
  const key = `${rule.name}:${subject}`;
  const now = BigInt(Date.now());
  const expiredBefore = now - BigInt(rule.windowMs);
  const rows = await db.$queryRaw<{ count: number | bigint; windowStart: number | bigint }[]>`
    INSERT INTO "RateLimit" ("key", "windowStart", "count")
    VALUES (${key}, ${now}, 1)
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."windowStart" <= ${expiredBefore} THEN 1 ELSE "RateLimit"."count" + 1 END,
      "windowStart" = CASE WHEN "RateLimit"."windowStart" <= ${expiredBefore} THEN ${now} ELSE "RateLimit"."windowStart" END
    RETURNING "count", "windowStart"`;
  const row = rows[0]!;
  if (Number(row.count) > rule.limit) {
    const retryAfterMs = Number(row.windowStart) + rule.windowMs - Number(now);
    throw rateLimited(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }
}
