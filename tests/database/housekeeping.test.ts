import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { testDatabase } from "../support/database.ts";

describe("housekeeping", () => {
  it("given expired and idle sessions, spent secrets, old rate-limit windows, long-finished jobs and deliveries and tombstones past 90 days, should delete them and keep the rest", async () => {
    process.env.DATABASE_URL = inject("databaseUrl");
    process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "housekeeping-"));
    const { purgeExpired } = await import("../../app/lib/auth/housekeeping.server.ts");
    const db = testDatabase();
    const user = await db.user.findFirstOrThrow({ where: { email: "teacher2@demo.test" } });
    const now = Date.now();
    const tag = `hk-${process.pid}-${now}`;
    await db.session.createMany({
      data: [
        { id: `${tag}-expired`, userId: user.id, expiresAt: new Date(now - 1000) },
        { id: `${tag}-idle`, userId: user.id, expiresAt: new Date(now + 86_400_000), lastSeenAt: new Date(now - 8 * 86_400_000) },
        { id: `${tag}-live`, userId: user.id, expiresAt: new Date(now + 86_400_000) },
      ],
    });
    await db.rateLimit.createMany({
      data: [
        { key: `${tag}-old`, windowStart: BigInt(now - 2 * 86_400_000), count: 3 },
        { key: `${tag}-current`, windowStart: BigInt(now), count: 1 },
      ],
    });
    const old = new Date(now - 31 * 86_400_000);
    await db.job.createMany({
      data: [
        { id: `${tag}-done-old`, kind: "remind", payload: {}, doneAt: old },
        { id: `${tag}-failed-old`, kind: "remind", payload: {}, failedAt: old },
        { id: `${tag}-done-recent`, kind: "remind", payload: {}, doneAt: new Date(now - 86_400_000) },
      ],
    });
    const webhook = await db.webhook.create({
      // No event: other files' changes must not queue deliveries to it while it exists.
      data: { organizationId: user.organizationId, url: "https://example.org/hook", events: [], secret: "unused" },
    });
    await db.webhookDelivery.createMany({
      data: [
        { id: `${tag}-delivered-old`, webhookId: webhook.id, event: "student.created", payload: "{}", status: "SUCCEEDED", createdAt: old },
        { id: `${tag}-pending-old`, webhookId: webhook.id, event: "student.created", payload: "{}", status: "PENDING", createdAt: old },
        { id: `${tag}-delivered-recent`, webhookId: webhook.id, event: "student.created", payload: "{}", status: "SUCCEEDED" },
      ],
    });
    await db.tombstone.createMany({
      data: [
        {
          id: `${tag}-tombstone-old`,
          organizationId: user.organizationId,
          kind: "student",
          itemId: `${tag}-a`,
          audience: "ALL",
          deletedAt: new Date(now - 91 * 86_400_000),
        },
        {
          id: `${tag}-tombstone-recent`,
          organizationId: user.organizationId,
          kind: "student",
          itemId: `${tag}-b`,
          audience: "ALL",
          deletedAt: new Date(now - 89 * 86_400_000),
        },
      ],
    });
    await purgeExpired(new Date(now));
    // Deletions are read back for 90 days (ADR 52).
    const tombstones = await db.tombstone.findMany({ where: { id: { startsWith: tag } }, select: { id: true } });
    expect(tombstones.map((t) => t.id)).toEqual([`${tag}-tombstone-recent`]);
    await db.tombstone.deleteMany({ where: { id: { startsWith: tag } } });
    const jobs = await db.job.findMany({ where: { id: { startsWith: tag } }, select: { id: true } });
    expect(jobs.map((j) => j.id)).toEqual([`${tag}-done-recent`]);
    const deliveries = await db.webhookDelivery.findMany({ where: { webhookId: webhook.id }, select: { id: true }, orderBy: { id: "asc" } });
    expect(deliveries.map((d) => d.id)).toEqual([`${tag}-delivered-recent`, `${tag}-pending-old`]);
    await db.webhook.delete({ where: { id: webhook.id } });
    const sessions = await db.session.findMany({ where: { id: { startsWith: tag } }, select: { id: true } });
    expect(sessions.map((s) => s.id)).toEqual([`${tag}-live`]);
    const windows = await db.rateLimit.findMany({ where: { key: { startsWith: tag } }, select: { key: true } });
    expect(windows.map((w) => w.key)).toEqual([`${tag}-current`]);
  });
});
