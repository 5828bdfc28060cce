import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { withStatementCache } from "../../app/lib/sqlite-statement-cache.server.ts";

/**
 * The statement cache under Prisma's better-sqlite3 adapter, called as the adapter calls it:
 * `prepare(sql).bind(values)`, then `.run()`, or `.reader`, `.columns()` and `.raw().all()`.
 */
describe("the adapter's statement cache", () => {
  let database: Database.Database;
  let prepared: string[];
  const open = (kept?: number) => {
    database = new Database(":memory:");
    database.defaultSafeIntegers(true);
    database.exec(`CREATE TABLE "Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)`);
    prepared = [];
    const prepare = database.prepare.bind(database);
    // Counts what reaches SQLite's parser; the statements themselves are SQLite's own.
    database.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof database.prepare;
    return withStatementCache(database, kept);
  };
  afterEach(() => database.close());

  const insert = `INSERT INTO "Person" ("id", "name") VALUES (?, ?)`;
  const byId = `SELECT "id", "name" FROM "Person" WHERE "id" = ?`;

  it("given the same statement with other values, should prepare it once and answer each call with its own values", () => {
    const cached = open();
    expect(cached.prepare(insert).bind([1, "Ada"]).run().changes).toBe(1);
    expect(cached.prepare(insert).bind([2, "Grace"]).run().changes).toBe(1);
    const first = cached.prepare(byId).bind([1]);
    const second = cached.prepare(byId).bind([2]);
    expect(first.reader).toBe(true);
    expect(first.columns().map((column) => column.name)).toEqual(["id", "name"]);
    // Two views of one kept statement, each answering with its own values.
    expect(second.raw().all()).toEqual([[2n, "Grace"]]);
    expect(first.raw().all()).toEqual([[1n, "Ada"]]);
    expect(prepared).toEqual([insert, byId]);
  });

  it("given the same read twice, should describe its columns (names and declared types) once and answer both alike", () => {
    const cached = open();
    cached.prepare(insert).bind([1, "Ada"]).run();
    const first = cached.prepare(byId).bind([1]);
    const columns = first.columns();
    expect(columns.map((column) => [column.name, column.type])).toEqual([
      ["id", "INTEGER"],
      ["name", "TEXT"],
    ]);
    // The adapter asks on every read; the description is the kept statement's, not made again.
    expect(cached.prepare(byId).bind([2]).columns()).toBe(columns);
    expect(first.raw().all()).toEqual([[1n, "Ada"]]);
  });

  it("given more distinct statements than it keeps, should prepare the forgotten one again and still answer", () => {
    const cached = open(2);
    cached.prepare(insert).bind([1, "Ada"]).run();
    const statements = [1, 2, 3].map((n) => `SELECT "name" FROM "Person" WHERE "id" = ? AND ${n} = ${n}`);
    for (const sql of [...statements, statements[0]!]) expect(cached.prepare(sql).bind([1]).raw().all()).toEqual([["Ada"]]);
    expect(prepared.filter((sql) => sql === statements[0])).toHaveLength(2);
  });

  it("given a failing statement, should throw SQLite's error and keep working", () => {
    const cached = open();
    cached.prepare(insert).bind([1, "Ada"]).run();
    expect(() => cached.prepare(insert).bind([1, "Ada again"]).run()).toThrow(/UNIQUE/);
    expect(() => cached.prepare(`SELECT * FROM "Nobody"`)).toThrow(/no such table/);
    expect(cached.prepare(byId).bind([1]).raw().all()).toEqual([[1n, "Ada"]]);
  });

  it("given a transaction begun through it, should commit what ran inside", () => {
    const cached = open();
    cached.prepare("BEGIN").run();
    cached.prepare(insert).bind([1, "Ada"]).run();
    cached.exec("COMMIT");
    expect(database.prepare(`SELECT COUNT(*) AS n FROM "Person"`).pluck().get()).toBe(1n);
  });
});
