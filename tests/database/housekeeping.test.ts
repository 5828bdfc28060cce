import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { testDatabase } from "../support/database.ts";

describe("housekeeping", () => {
  it("given expired and idle sessions, spent secrets and old rate-limit windows, should delete them and keep the rest", async () => {
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
    await purgeExpired(new Date(now));
    const sessions = await db.session.findMany({ where: { id: { startsWith: tag } }, select: { id: true } });
    expect(sessions.map((s) => s.id)).toEqual([`${tag}-live`]);
    const windows = await db.rateLimit.findMany({ where: { key: { startsWith: tag } }, select: { key: true } });
    expect(windows.map((w) => w.key)).toEqual([`${tag}-current`]);
  });
});
