import type Database from "better-sqlite3";
import { LRUCache } from "lru-cache";

/**
 * Prepared statements kept across queries for Prisma's better-sqlite3 adapter.
 *
 * The adapter runs every query as `database.prepare(sql).bind(args)` and then `.run()` or
 * `.raw().all()`: SQLite parses and plans the same statement again on each request (6 % of the
 * reports list's CPU time in a profile). better-sqlite3 cannot bind a statement twice,
 * so a cache cannot simply hand the adapter the same statement again; it hands out a small bound
 * view of the kept statement instead, which passes the values with each call.
 *
 * Only the members the adapter uses are offered (`prepare`, `exec`, `close`); anything else
 * should fail loudly when a newer adapter starts using it, rather than bypass the cache unseen.
 */
export type AdapterDatabase = Pick<Database.Database, "prepare" | "exec" | "close">;

/**
 * How many statements are kept. The app's hot statements are a few dozen; Prisma writes an `IN`
 * list with a `?` per value, so a statement per list length comes and goes, and without a bound
 * each would stay for the connection's life (≈300 KiB of SQLite's memory per hundred).
 */
export const ADAPTER_STATEMENTS_KEPT = 200;

type Values = unknown[];

/**
 * A kept statement and its result columns. The adapter asks for the columns on every read to learn
 * their declared types, and better-sqlite3 builds that array anew each time (3–4 % of a list
 * request's CPU time in the profiles). They are fixed once the statement is prepared, as
 * long as the schema does not change under the running server, and it does not: migrations run
 * before the server starts (ADR 2).
 */
class KeptStatement {
  #columns: Database.ColumnDefinition[] | undefined;
  constructor(readonly statement: Database.Statement) {}
  columns() {
    return (this.#columns ??= this.statement.columns());
  }
}

/** What the adapter calls on a statement it prepared and bound, served by a kept statement. */
class BoundStatement {
  #values: Values = [];
  constructor(private readonly kept: KeptStatement) {}

  bind(values: Values) {
    this.#values = values;
    return this;
  }
  get reader() {
    return this.kept.statement.reader;
  }
  columns() {
    return this.kept.columns();
  }
  run() {
    return this.kept.statement.run(this.#values);
  }
  raw() {
    const statement = this.kept.statement.raw(true);
    const values = this.#values;
    return { all: () => statement.all(values) };
  }
}

export function withStatementCache(database: Database.Database, kept = ADAPTER_STATEMENTS_KEPT): AdapterDatabase {
  const statements = new LRUCache<string, KeptStatement>({ max: kept });
  return {
    prepare: ((sql: string) => {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = new KeptStatement(database.prepare(sql))));
      return new BoundStatement(statement);
    }) as unknown as Database.Database["prepare"],
    exec: (sql: string) => {
      database.exec(sql);
      return database;
    },
    close: () => {
      statements.clear();
      return database.close();
    },
  };
}
