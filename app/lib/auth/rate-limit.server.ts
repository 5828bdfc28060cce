import { db, type Prisma } from "../db.server.ts";
import { env } from "../env.server.ts";
import { rateLimited } from "../problem.server.ts";

export type RateLimitRule = { name: string; limit: number; windowMs: number };

export const CHECK_CREDENTIALS_LIMIT: RateLimitRule = {
  name: "check-credentials",
  limit: 5,
  windowMs: 10 * 60 * 1000,
};

/**
 * Sign-in throttling (ADR 15). Failed passwords are counted where they come from, so a stranger's
 * guesses never lock the owner out:
 * - per client address, across every account: stops one address spraying many accounts;
 * - per account and address: stops one address guessing one account (a success clears it);
 * - per account from everywhere, a high ceiling against guessing spread over many addresses,
 *   which does not apply to addresses the account is signed in from.
 * Each is counted before the password is checked (parallel guesses cannot pass a limit); a correct
 * password gives its attempt back.
 */
export const ADDRESS_SIGN_IN_LIMIT: RateLimitRule = { name: "sign-in-address", limit: 30, windowMs: 15 * 60 * 1000 };
export const ACCOUNT_ADDRESS_SIGN_IN_LIMIT: RateLimitRule = { name: "sign-in-account-address", limit: 10, windowMs: 15 * 60 * 1000 };
export const ACCOUNT_SIGN_IN_LIMIT: RateLimitRule = { name: "sign-in-account", limit: 100, windowMs: 15 * 60 * 1000 };

/**
 * The public test links (ADR 47). A whole school may sit behind one address, so what one address
 * may do is generous (and configurable); what one link may do is tight, since a link belongs to
 * one respondent and is submitted once.
 */
const TEN_MINUTES = 10 * 60 * 1000;
/** Draft saves and submits per link: the page saves after a quiet moment of 1.5 s, a person answers far slower. */
export const TEST_LINK_WRITE_LIMIT: RateLimitRule = { name: "test-link-write", limit: 120, windowMs: TEN_MINUTES };
/** Submits per client address (`TEST_LINK_SUBMITS_PER_ADDRESS`, 5,000 per 10 minutes by default). */
export const testLinkSubmitAddressLimit = (): RateLimitRule => ({
  name: "test-link-submit",
  limit: env().TEST_LINK_SUBMITS_PER_ADDRESS,
  windowMs: TEN_MINUTES,
});
/** Opens of one link (the page and GET /api/test-link/{token}): one respondent reloads, never hundreds of times. */
export const TEST_LINK_READ_LIMIT: RateLimitRule = { name: "test-link-read", limit: 300, windowMs: TEN_MINUTES };
/**
 * Tokens that lead nowhere (404), per client address: token guessing. Only misses count, so the
 * respondents behind a school's address who open their own links never use it up.
 */
export const TEST_LINK_MISS_LIMIT: RateLimitRule = { name: "test-link-miss", limit: 100, windowMs: TEN_MINUTES };
/** Draft saves per client address: ten for each submit the address may make. */
export const testLinkDraftAddressLimit = (): RateLimitRule => ({
  name: "test-link-draft",
  limit: env().TEST_LINK_SUBMITS_PER_ADDRESS * 10,
  windowMs: TEN_MINUTES,
});

/**
 * Counts one attempt against `rule` for `subject` (an IP address, an account) and throws 429 when
 * the limit is passed. The counter lives in the database and is changed by a single
 * INSERT ... ON CONFLICT statement, so parallel requests and several app instances cannot both
 * see a count below the limit. The window starts at the first attempt and lasts `windowMs`.
 */
export async function consumeRateLimit(rule: RateLimitRule, subject: string): Promise<void> {
  await countAttempt(rule, subject, { restartWindowAtLimit: false });
}

/**
 * The one statement behind every limit. With `restartWindowAtLimit`, the attempt that reaches the
 * limit starts the window again, so a lock lasts the whole window from that attempt.
 */
async function countAttempt(rule: RateLimitRule, subject: string, options: { restartWindowAtLimit: boolean }) {
  const key = `${rule.name}:${subject}`;
  const now = BigInt(Date.now());
  const expiredBefore = now - BigInt(rule.windowMs);
  // -1 never equals a count, so a plain limit keeps its window start.
  const restartAt = options.restartWindowAtLimit ? rule.limit : -1;
  // Every SET expression sees the row as it was before this statement (SQLite and PostgreSQL).
  const rows = await db.$queryRaw<{ count: number | bigint; windowStart: number | bigint }[]>`
    INSERT INTO "RateLimit" ("key", "windowStart", "count")
    VALUES (${key}, ${now}, 1)
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."windowStart" <= ${expiredBefore} THEN 1 ELSE "RateLimit"."count" + 1 END,
      "windowStart" = CASE
        WHEN "RateLimit"."windowStart" <= ${expiredBefore} THEN ${now}
        WHEN "RateLimit"."count" + 1 = ${restartAt} THEN ${now}
        ELSE "RateLimit"."windowStart" END
    RETURNING "count", "windowStart"`;
  const row = rows[0]!;
  if (Number(row.count) > rule.limit) {
    const retryAfterMs = Number(row.windowStart) + rule.windowMs - Number(now);
    throw rateLimited(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }
}

/** Gives back one attempt counted for `subject` (a sign-in that turned out right). */
export async function refundAttempt(rule: RateLimitRule, subject: string): Promise<void> {
  await db.rateLimit.updateMany({ where: { key: `${rule.name}:${subject}`, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}

/** Forgets the attempts counted for `subject` (after a successful sign-in). */
export async function resetRateLimit(rule: RateLimitRule, subject: string): Promise<void> {
  await db.rateLimit.deleteMany({ where: { key: `${rule.name}:${subject}` } });
}

/** Forgotten-password requests from one client address. */
export const FORGOT_PASSWORD_IP_LIMIT: RateLimitRule = {
  name: "forgot-password-ip",
  limit: 20,
  windowMs: 60 * 60 * 1000,
};

/** Forgotten-password requests for one e-mail address, known or not (no mailbox flooding). */
export const FORGOT_PASSWORD_ADDRESS_LIMIT: RateLimitRule = {
  name: "forgot-password-address",
  limit: 5,
  windowMs: 60 * 60 * 1000,
};

/** Checks of a signed-in user's current password (password and e-mail changes), per user. */
export const CURRENT_PASSWORD_LIMIT: RateLimitRule = {
  name: "current-password",
  limit: 10,
  windowMs: 15 * 60 * 1000,
};

/**
 * Second-factor codes tried per user (TOTP and e-mailed codes alike). Five wrong codes lock the
 * second step for 15 minutes from the fifth; a right code clears the count. Counted with
 * `consumeLockingAttempt`, before the code is checked, so parallel guesses cannot pass the limit.
 */
export const TWO_FACTOR_ATTEMPT_LIMIT: RateLimitRule = {
  name: "two-factor-attempts",
  limit: 5,
  windowMs: 15 * 60 * 1000,
};

/** Sign-in codes e-mailed per user (at sign-in and when enrolling), so nobody floods a mailbox. */
export const TWO_FACTOR_EMAIL_SEND_LIMIT: RateLimitRule = {
  name: "two-factor-email-send",
  limit: 3,
  windowMs: 10 * 60 * 1000,
};

/**
 * Like `consumeRateLimit`, but the attempt that reaches the limit starts the window again, so the
 * lock that follows lasts the whole `windowMs` from that attempt (not from the first one). Throws
 * 429 with Retry-After once the limit has been used up.
 */
export async function consumeLockingAttempt(rule: RateLimitRule, subject: string): Promise<void> {
  await countAttempt(rule, subject, { restartWindowAtLimit: true });
}

/** Seconds until `subject` may try again when its limit is used up; null when it may go on. */
export async function rateLimitRetryAfter(rule: RateLimitRule, subject: string): Promise<number | null> {
  const row = await db.rateLimit.findUnique({ where: { key: `${rule.name}:${subject}` } });
  if (!row || row.count < rule.limit) return null;
  const retryAfterMs = Number(row.windowStart) + rule.windowMs - Date.now();
  return retryAfterMs > 0 ? Math.ceil(retryAfterMs / 1000) : null;
}

/**
 * Forgets every count kept under an e-mail address (the sign-in's per-account limits, the
 * forgotten password's), in the transaction `tx` that erases the address's owner (ADR 88). Its
 * keys are `<rule>:<address>` and `<rule>:<address>|<client address>`.
 */
export async function forgetAddress(tx: Prisma.TransactionClient, address: string): Promise<void> {
  const rows = await tx.rateLimit.findMany({ where: { key: { contains: address } }, select: { key: true } });
  const keys = rows
    .map((row) => row.key)
    .filter((key) => {
      const subject = key.slice(key.indexOf(":") + 1);
      return subject === address || subject.startsWith(`${address}|`);
    });
  if (keys.length > 0) await tx.rateLimit.deleteMany({ where: { key: { in: keys } } });
}
