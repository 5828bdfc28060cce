import { db, type Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { ApiError } from "~/lib/problem.server.ts";

/**
 * Limits on the e-mail staff users make the service send (docs/api-contract.md §23, ADR 45): links and
 * reminders, counted per organization in 24 hours and per user in an hour, when they are queued.
 * Sign-in codes, reset links and invitations are sent outside the job queue and never counted, so
 * a teacher who used up a quota cannot stop anyone from signing in.
 *
 * The counts are rows of the RateLimit table, changed by one INSERT … ON CONFLICT statement in the
 * transaction that queues the messages: the row stays locked (PostgreSQL) or the transaction holds
 * the only writer (SQLite) until it commits, so two calls at once cannot both pass a limit, and a
 * call refused by a limit rolls its count back with everything else it wrote. A window starts with
 * the first message counted in it and lasts its length, as the sign-in limits do (ADR 15).
 */
const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** Who a message is sent for: the organization whose link it is, and the user whose action queued it. */
export type MailSender = { organizationId: string; userId: string };

type Quota = { kind: "organization" | "user"; key: string; limit: number; windowMs: number };

function quotasOf(sender: MailSender): Quota[] {
  const { MAIL_QUOTA_ORGANIZATION_PER_DAY, MAIL_QUOTA_USER_PER_HOUR } = env();
  // Always in this order: the rows are locks, and the same order means no deadlock between calls.
  return [
    { kind: "organization", key: `mail-organization:${sender.organizationId}`, limit: MAIL_QUOTA_ORGANIZATION_PER_DAY, windowMs: DAY_MS },
    { kind: "user", key: `mail-user:${sender.userId}`, limit: MAIL_QUOTA_USER_PER_HOUR, windowMs: HOUR_MS },
  ];
}

const formatted = (value: number) => value.toLocaleString("en-US");

/** 429 MAIL_QUOTA: the call would pass a limit; nothing of it was kept. */
function mailQuotaExceeded(quota: Quota, wanted: number, left: number, retryAfterSeconds: number) {
  const whose = quota.kind === "organization" ? "Your organization may have" : "You may have";
  const per = quota.kind === "organization" ? "every 24 hours" : "every hour";
  return new ApiError(
    429,
    "MAIL_QUOTA",
    `${whose} ${formatted(quota.limit)} e-mails sent ${per}; ${formatted(left)} can be sent now and this needs ${formatted(wanted)}. ` +
      `Nothing was assigned or queued. Try again in ${formatted(retryAfterSeconds)} seconds.`,
    undefined,
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/**
 * Counts `count` messages queued for `sender` in the caller's transaction, and throws MAIL_QUOTA
 * when that passes either limit (the caller's transaction then keeps nothing, this count included).
 */
export async function chargeMail(tx: Prisma.TransactionClient, sender: MailSender, count: number, now = new Date()) {
  if (count <= 0) return;
  for (const quota of quotasOf(sender)) {
    const at = BigInt(now.getTime());
    const expiredBefore = BigInt(now.getTime() - quota.windowMs);
    // Every SET expression sees the row as it was before this statement (SQLite and PostgreSQL).
    const rows = await tx.$queryRaw<{ count: number | bigint; windowStart: number | bigint }[]>`
      INSERT INTO "RateLimit" ("key", "windowStart", "count")
      VALUES (${quota.key}, ${at}, CAST(${count} AS INTEGER))
      ON CONFLICT ("key") DO UPDATE SET
        "count" = CASE WHEN "RateLimit"."windowStart" <= ${expiredBefore} THEN CAST(${count} AS INTEGER) ELSE "RateLimit"."count" + CAST(${count} AS INTEGER) END,
        "windowStart" = CASE WHEN "RateLimit"."windowStart" <= ${expiredBefore} THEN ${at} ELSE "RateLimit"."windowStart" END
      RETURNING "count", "windowStart"`;
    const row = rows[0]!;
    const total = Number(row.count);
    if (total > quota.limit) {
      const retryAfterMs = Number(row.windowStart) + quota.windowMs - now.getTime();
      throw mailQuotaExceeded(quota, count, Math.max(0, quota.limit - (total - count)), Math.max(1, Math.ceil(retryAfterMs / 1000)));
    }
  }
}

export type MailAllowance = { organization: { limit: number; left: number }; user: { limit: number; left: number }; left: number };

/** How many more messages `sender` may queue now, by each limit and in all (the smaller). */
export async function mailAllowance(sender: MailSender, now = new Date()): Promise<MailAllowance> {
  const quotas = quotasOf(sender);
  const rows = await db.rateLimit.findMany({ where: { key: { in: quotas.map((quota) => quota.key) } }, select: { key: true, count: true, windowStart: true } });
  const [organization, user] = quotas.map((quota) => {
    const row = rows.find((candidate) => candidate.key === quota.key);
    const used = row && Number(row.windowStart) > now.getTime() - quota.windowMs ? row.count : 0;
    return { limit: quota.limit, left: Math.max(0, quota.limit - used) };
  }) as [MailAllowance["organization"], MailAllowance["user"]];
  return { organization, user, left: Math.min(organization.left, user.left) };
}
