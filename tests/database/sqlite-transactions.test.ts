import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase, type Database as AppDatabase } from "../../app/lib/db.server.ts";

/**
 * The app's SQLite client when another process writes to the same file (a second server, a script,
 * the test suite). On a file of its own, so it runs in both the SQLite and the PostgreSQL suites.
 */
describe("the app's SQLite transactions beside another writer", () => {
  let folder: string;
  let other: Database.Database;
  let app: AppDatabase;
  afterEach(async () => {
    await app.$disconnect();
    other.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("given another process writes between a transaction's read and its write, should make that writer wait and commit the transaction (a deferred BEGIN was refused at once: a submit answered 503)", async () => {
    folder = mkdtempSync(path.join(tmpdir(), "assessment-sqlite-tx-"));
    const file = path.join(folder, "tx.db");
    // The other process gives up at once instead of waiting, so the test sees who holds the lock.
    other = new Database(file, { timeout: 0 });
    other.pragma("journal_mode = WAL");
    other.exec(`CREATE TABLE "Counter" ("id" INTEGER PRIMARY KEY, "n" INTEGER NOT NULL); INSERT INTO "Counter" VALUES (1, 0);`);
    app = createDatabase(`file:${file}`);

    let otherWrite: unknown;
    await app.$transaction(async (tx) => {
      await tx.$queryRawUnsafe(`SELECT "n" FROM "Counter" WHERE "id" = 1`);
      try {
        other.prepare(`UPDATE "Counter" SET "n" = "n" + 1 WHERE "id" = 1`).run();
      } catch (error) {
        otherWrite = error;
      }
      await tx.$executeRawUnsafe(`UPDATE "Counter" SET "n" = "n" + 10 WHERE "id" = 1`);
    });

    expect((otherWrite as { code?: string } | undefined)?.code).toBe("SQLITE_BUSY");
    // Once the transaction has committed, the other process writes as usual.
    other.prepare(`UPDATE "Counter" SET "n" = "n" + 1 WHERE "id" = 1`).run();
    expect(other.prepare(`SELECT "n" FROM "Counter" WHERE "id" = 1`).pluck().get()).toBe(11);
  });
});
