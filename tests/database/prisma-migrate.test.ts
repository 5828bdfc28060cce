import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { MigrationError, providerOf } from "../../server/database/database-url.ts";
import { readLocalMigrations } from "../../server/database/migrations.ts";
import { apply, diff, lockfileContent, type Migration } from "../../server/database/prisma-migrate.ts";
import { withScratchPostgresDatabase } from "../../server/database/scratch-database.ts";
import { paths } from "../../server/database/schemas.ts";

/**
 * The adapter to Prisma Migrate's private interfaces (ADR 64), on the database under test: `diff`
 * through the WebAssembly schema engine (an in-memory SQLite shadow, a scratch PostgreSQL database),
 * `apply` on a real SQLite file or a real PostgreSQL database of its own, with Prisma's bookkeeping.
 * Upgrading Prisma starts here.
 */
const provider = providerOf(inject("databaseUrl"));

type Row = { migration_name: string; checksum: string; finished: unknown; rolled_back: unknown; applied_steps_count: number };

/** A database of its own for one test, its URL, and a way to query it. */
async function withDatabase<T>(use: (url: string, query: (sql: string) => Promise<unknown[]>) => Promise<T>): Promise<T> {
  if (provider === "postgresql") {
    return withScratchPostgresDatabase(async (url) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await use(url, async (sql) => (await client.query(sql)).rows);
      } finally {
        await client.end();
      }
    });
  }
  const folder = mkdtempSync(path.join(tmpdir(), "prisma-migrate-"));
  const file = path.join(folder, "app.db");
  try {
    return await use(`file:${file}`, async (sql) => {
      const db = new Database(file);
      try {
        const statement = db.prepare(sql);
        if (statement.reader) return statement.all();
        statement.run();
        return [];
      } finally {
        db.close();
      }
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The `_prisma_migrations` rows not rolled back: name, checksum, finished, steps. */
const records = async (query: (sql: string) => Promise<unknown[]>) =>
  (
    (await query(
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back, applied_steps_count
       FROM _prisma_migrations ORDER BY migration_name`,
    )) as Row[]
  )
    .filter((row) => !row.rolled_back)
    .map((row) => ({ name: row.migration_name, checksum: row.checksum, finished: Boolean(row.finished), steps: row.applied_steps_count }));

const schema = (models: string) => ({
  path: path.join(paths.root, "prisma", "adapter-test.prisma"),
  content: `datasource db {\n  provider = "${provider}"\n}\n\n${models}\n`,
});
const NOTE = `model Note {\n  id   Int    @id\n  body String\n}`;
const NOTE_WITH_TITLE = `model Note {\n  id    Int     @id\n  body  String\n  title String?\n}`;

/** A trigger (and on PostgreSQL its function) with semicolons inside its body: a script that must reach the database whole. */
const TRIGGER: Migration = {
  name: "20260102000000_note_touch",
  sql:
    provider === "sqlite"
      ? `CREATE TRIGGER "Note_touch" AFTER INSERT ON "Note" BEGIN UPDATE "Note" SET "body" = NEW."body" || ';' WHERE "id" = NEW."id"; END;\n` +
        `CREATE TRIGGER "Note_forget" AFTER DELETE ON "Note" BEGIN SELECT 1; END;\n`
      : `CREATE FUNCTION "Note_touch"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW."body" := NEW."body" || ';'; RETURN NEW; END $$;\n` +
        `CREATE TRIGGER "Note_touch" BEFORE INSERT ON "Note" FOR EACH ROW EXECUTE FUNCTION "Note_touch"();\n`,
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe(`prisma-migrate on ${provider}`, { timeout: 60_000 }, () => {
  it("given the lockfile, should write it as the Prisma CLI does (the committed one is the same)", () => {
    expect(lockfileContent(provider)).toBe(readFileSync(path.join(paths.migrations(provider), "migration_lock.toml"), "utf8"));
  });

  it("given no migrations, should diff to the schema's tables; given those as a migration and a trigger, to nothing; given a new field, to that field alone", async () => {
    const create = await diff({ provider, migrations: [] }, schema(NOTE));
    expect(create.trimStart().startsWith("-- CreateTable")).toBe(true);
    expect(create).toMatch(/CREATE TABLE "Note"/);

    const init: Migration = { name: "20260101000000_init", sql: create };
    // The trigger's script has several statements and semicolons inside its body: the engine
    // replays it on the shadow database whole, and ignores triggers and functions in the diff.
    expect(await diff({ provider, migrations: [init, TRIGGER] }, schema(NOTE))).toBe("");

    const change = await diff({ provider, migrations: [init, TRIGGER] }, schema(NOTE_WITH_TITLE));
    expect(change.trimStart().startsWith("-- AlterTable")).toBe(true);
    expect(change).toMatch(/ADD COLUMN\s+"title" TEXT/);
    expect(change).not.toMatch(/CREATE TABLE/);
  });

  it("given a migration the shadow database refuses, should fail naming the statement's error", async () => {
    const broken: Migration = {
      name: "20260101000000_broken",
      sql: `CREATE TABLE "Note" ("id" INTEGER NOT NULL PRIMARY KEY);\nINSERT INTO "Missing" VALUES (1);\n`,
    };
    await expect(diff({ provider, migrations: [broken] }, schema(NOTE))).rejects.toThrow(/Schema engine \((sqlite|postgresql)\):[\s\S]*Missing/);
  });

  it("given an empty database, should apply the migrations in order, each whole, and record them as Prisma does; again, nothing", async () => {
    const init: Migration = { name: "20260101000000_init", sql: await diff({ provider, migrations: [] }, schema(NOTE)) };
    await withDatabase(async (url, query) => {
      expect(await apply(url, [init, TRIGGER])).toEqual([init.name, TRIGGER.name]);
      expect(await records(query)).toEqual([
        { name: init.name, checksum: sha256(init.sql), finished: true, steps: 1 },
        { name: TRIGGER.name, checksum: sha256(TRIGGER.sql), finished: true, steps: 1 },
      ]);
      // The trigger's body reached the database whole, semicolons included.
      await query(`INSERT INTO "Note" ("id", "body") VALUES (1, 'hello') RETURNING "id"`);
      expect(await query(`SELECT "body" FROM "Note"`)).toEqual([{ body: "hello;" }]);

      expect(await apply(url, [init, TRIGGER])).toEqual([]);
      expect(await records(query)).toHaveLength(2);
    });
  });

  it("given two applies at once on one empty database, should apply each migration once", async () => {
    const init: Migration = { name: "20260101000000_init", sql: await diff({ provider, migrations: [] }, schema(NOTE)) };
    await withDatabase(async (url, query) => {
      const [first, second] = await Promise.all([apply(url, [init, TRIGGER]), apply(url, [init, TRIGGER])]);
      expect([...first, ...second].sort()).toEqual([init.name, TRIGGER.name]);
      expect((await records(query)).map((row) => row.name)).toEqual([init.name, TRIGGER.name]);
    });
  });

  it("given an applied migration edited since, should refuse and apply nothing more", async () => {
    const init: Migration = { name: "20260101000000_init", sql: await diff({ provider, migrations: [] }, schema(NOTE)) };
    await withDatabase(async (url, query) => {
      await apply(url, [init]);
      const edited = { ...init, sql: `${init.sql}\n-- edited\n` };
      await expect(apply(url, [edited, TRIGGER])).rejects.toThrow(MigrationError);
      await expect(apply(url, [edited, TRIGGER])).rejects.toThrow(/modified after they were applied[\s\S]*20260101000000_init/);
      expect((await records(query)).map((row) => row.name)).toEqual([init.name]);
      // A checksum of the same script with other line endings (git's CRLF) is the same migration.
      expect(await apply(url, [{ ...init, sql: init.sql.replaceAll("\n", "\r\n") }])).toEqual([]);
    });
  });

  it("given an applied migration whose comments were reworded, with its previous checksum beside it, should record the current checksum and go on", async () => {
    const init: Migration = { name: "20260101000000_init", sql: `-- The first wording.\n${await diff({ provider, migrations: [] }, schema(NOTE))}` };
    await withDatabase(async (url, query) => {
      await apply(url, [init]);
      const reworded: Migration = { ...init, sql: init.sql.replace("The first wording.", "A better wording."), previousChecksums: [sha256(init.sql)] };
      expect(await apply(url, [reworded, TRIGGER])).toEqual([TRIGGER.name]);
      expect((await records(query)).find((row) => row.name === init.name)?.checksum).toBe(sha256(reworded.sql));
      // Once recorded, the previous wording is the edited one; an unlisted checksum is still refused.
      await expect(apply(url, [init, TRIGGER])).rejects.toThrow(/modified after they were applied/);
      await expect(apply(url, [{ ...reworded, sql: `${reworded.sql}\n-- again\n` }, TRIGGER])).rejects.toThrow(/modified after they were applied/);
    });
  });

  it("given the committed migrations, should read the previous checksums kept beside a reworded migration, none of them its current one", () => {
    for (const migration of readLocalMigrations(provider).filter((candidate) => candidate.previousChecksums)) {
      expect(migration.previousChecksums?.length, migration.name).toBeGreaterThan(0);
      expect(migration.previousChecksums, migration.name).not.toContain(sha256(migration.sql));
    }
    expect(readLocalMigrations(provider).some((migration) => migration.previousChecksums)).toBe(true);
  });

  it("given a migration that fails halfway, should roll it back, record nothing, name its file, and apply it once fixed", async () => {
    const init: Migration = { name: "20260101000000_init", sql: await diff({ provider, migrations: [] }, schema(NOTE)) };
    const broken: Migration = {
      name: "20260103000000_broken",
      sql: `CREATE TABLE "Half" ("id" INTEGER NOT NULL PRIMARY KEY);\nINSERT INTO "Missing" VALUES (1);\n`,
      file: "prisma/migrations/x/20260103000000_broken/migration.sql",
    };
    await withDatabase(async (url, query) => {
      await expect(apply(url, [init, broken])).rejects.toThrow(
        /20260103000000_broken failed and was rolled back[\s\S]*Fix prisma\/migrations\/x\/20260103000000_broken\/migration\.sql/,
      );
      expect((await records(query)).map((row) => row.name)).toEqual([init.name]);
      const tables = provider === "sqlite" ? `SELECT name FROM sqlite_master WHERE name = 'Half'` : `SELECT tablename FROM pg_tables WHERE tablename = 'Half'`;
      expect(await query(tables)).toEqual([]);
      const fixed = { ...broken, sql: `CREATE TABLE "Half" ("id" INTEGER NOT NULL PRIMARY KEY);\n` };
      expect(await apply(url, [init, fixed])).toEqual([fixed.name]);
    });
  });

  it("given a migration Prisma's own engine recorded as failed, should refuse until it is resolved", async () => {
    const init: Migration = { name: "20260101000000_init", sql: await diff({ provider, migrations: [] }, schema(NOTE)) };
    await withDatabase(async (url, query) => {
      await apply(url, [init]);
      const started = provider === "sqlite" ? "0" : "now()";
      await query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, started_at, applied_steps_count)
         VALUES ('failed-1', '${sha256(TRIGGER.sql)}', '${TRIGGER.name}', 'syntax error', ${started}, 0) RETURNING id`,
      );
      await expect(apply(url, [init, TRIGGER])).rejects.toThrow(/records failed migrations[\s\S]*20260102000000_note_touch[\s\S]*syntax error/);
      // Resolved as rolled back (`prisma migrate resolve --rolled-back`): applied again.
      await query(`UPDATE _prisma_migrations SET rolled_back_at = ${started} WHERE id = 'failed-1' RETURNING id`);
      expect(await apply(url, [init, TRIGGER])).toEqual([TRIGGER.name]);
    });
  });

  it("given a database with tables but no migration history, should refuse to touch it", async () => {
    await withDatabase(async (url, query) => {
      await query(`CREATE TABLE "Other" ("id" INTEGER PRIMARY KEY)`);
      await expect(apply(url, [TRIGGER])).rejects.toThrow(/not empty \(tables: Other\) but has no _prisma_migrations table/);
    });
  });
});
