import { db } from "../db.server.ts";
import { purgeExpiredIdempotencyKeys } from "../idempotency.server.ts";
import { purgeOldTombstones } from "../tombstones.server.ts";
import { SESSION_IDLE_TIMEOUT_MS } from "./session.server.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long finished background jobs and webhook deliveries stay, for the delivery log and support questions. */
const FINISHED_KEPT_MS = 30 * DAY_MS;

/**
 * Deletes what can no longer be used: expired or idle sessions, spent or expired one-time secrets
 * (kept a day for support questions), rate-limit windows that ended a day ago, idempotency keys
 * past their 24 hours (ADR 48), background jobs and webhook deliveries finished 30 days ago, and
 * tombstones of deletions older than 90 days (ADR 52).
 * Safe to run from several instances at once.
 */
export async function purgeExpired(now = new Date()) {
  const finishedBefore = new Date(now.getTime() - FINISHED_KEPT_MS);
  const [sessions, verifications, rateLimits, idempotencyKeys, jobs, deliveries, tombstones] = await Promise.all([
    db.session.deleteMany({
      where: { OR: [{ expiresAt: { lte: now } }, { lastSeenAt: { lte: new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS) } }] },
    }),
    db.verification.deleteMany({
      where: { OR: [{ expiresAt: { lte: new Date(now.getTime() - DAY_MS) } }, { usedAt: { lte: new Date(now.getTime() - DAY_MS) } }] },
    }),
    db.rateLimit.deleteMany({ where: { windowStart: { lte: BigInt(now.getTime() - DAY_MS) } } }),
    purgeExpiredIdempotencyKeys(now),
    db.job.deleteMany({ where: { OR: [{ doneAt: { lte: finishedBefore } }, { failedAt: { lte: finishedBefore } }] } }),
    db.webhookDelivery.deleteMany({ where: { status: { in: ["SUCCEEDED", "FAILED"] }, createdAt: { lte: finishedBefore } } }),
    purgeOldTombstones(now),
  ]);
  return {
    sessions: sessions.count,
    verifications: verifications.count,
    rateLimits: rateLimits.count,
    idempotencyKeys: idempotencyKeys.count,
    jobs: jobs.count,
    deliveries: deliveries.count,
    tombstones: tombstones.count,
  };
}

/** Runs `purgeExpired` now and then every hour, without keeping the process alive. */
export function scheduleHousekeeping(intervalMs = 60 * 60 * 1000): () => void {
  const run = () => purgeExpired().catch((error: unknown) => console.error("[housekeeping] purge failed:", error instanceof Error ? error.message : error));
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
