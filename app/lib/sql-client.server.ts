import Database from "better-sqlite3";
import { LRUCache } from "lru-cache";
import pg from "pg";

/**
 * A connection to the database through the drivers the Prisma adapters use (better-sqlite3, pg),
 * with no ORM in between: for the work that runs outside the Prisma client — the reports export in
 * its worker thread (ADR 34) and the benchmark's baseline and data set. SQL is written once with
 * `?` placeholders and double-quoted identifiers, which both databases accept; PostgreSQL gets
 * `$1, $2, …`. Values are written and read as Prisma writes and reads them.
 */
export type Dialect = "sqlite" | "postgresql";

export interface SqlClient {
  readonly dialect: Dialect;
  /**
   * `options.name`: on PostgreSQL a named statement, parsed and planned once per connection and
   * kept by it, for a statement run on every request (ADR 95); the same name must always go with
   * the same SQL. SQLite prepares and keeps every statement anyway.
   */
  all<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: { name?: string }): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<number>;
  /** Runs `work` in one transaction on one connection. */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Per-connection settings for SQLite. The database file can grow to gigabytes (a million results
 * with their snapshots is ≈7 GB), and counts and searches walk indexes of hundreds of thousands of
 * entries: reading the file through a memory map avoids a system call per page, and a 64 MiB page
 * cache keeps the hot index pages (the default is 2 MiB). `synchronous` stays at SQLite's default
 * (FULL): a completed test is on disk when the respondent is told it was saved.
 */
export const SQLITE_CONNECTION_PRAGMAS = ["mmap_size = 8589934592", "cache_size = -65536"] as const;

export type SqlClientOptions = {
  /** PostgreSQL: connections in the pool (default 10). */
  poolSize?: number;
  /**
   * SQLite: reads only, with a page cache of this many KiB instead of the app's 64 MiB: a
   * connection that walks a whole scope once (an export) gains nothing from a big cache, and each
   * MiB of it is a MiB of the process's memory until the connection closes.
   */
  readOnlyWithCacheKiB?: number;
};

export const dialectOf = (databaseUrl: string): Dialect => (/^postgres(ql)?:\/\//.test(databaseUrl) ? "postgresql" : "sqlite");

/** A statement written for each dialect once, at start-up, rather than on every call. */
export const byDialect = (build: (dialect: Dialect) => string): Record<Dialect, string> => ({ sqlite: build("sqlite"), postgresql: build("postgresql") });

/**
 * The placeholder of a key looked up by equality (a session's id, a user's id) in a statement that
 * joins tables: `+?` on SQLite, `?` on PostgreSQL. better-sqlite3 clears a statement's parameters
 * after every call, and SQLite then plans the statement again on its next call whenever the planner
 * looked at a cleared parameter's value, which it does for a `column = ?` of a join (to guess how
 * many rows the filter keeps), for a LIKE pattern and for an index with ANALYZE's samples. The
 * caller's statement of four tables was planned on every request: 22 µs a call run alone, 65–72 µs
 * inside the app, against 5 µs planned once (ADR 100). Unary plus leaves the value as it is and
 * the index is used as before; the planner only stops reading the value, which for a key changes
 * nothing. Not for a value that should steer the plan (a LIKE prefix, a skewed column).
 */
export const keyPlaceholder = (dialect: Dialect): string => (dialect === "sqlite" ? "+?" : "?");

/**
 * `column IN (values)` as one statement whatever the number of values: the values go as one
 * parameter (a JSON array read by `json_each` on SQLite, an array on PostgreSQL). A `?` per value
 * makes a new statement for every count, and each prepared one is kept: a 100,000-row export
 * prepared a hundred of them, ≈30 MiB of SQLite's memory that the process then kept.
 */
export function inValues(dialect: Dialect, column: string, values: readonly string[]): { sql: string; params: unknown[] } {
  return dialect === "postgresql"
    ? { sql: `${column} = ANY(?::text[])`, params: [values] }
    : { sql: `${column} IN (SELECT "value" FROM json_each(?))`, params: [JSON.stringify(values)] };
}

/**
 * How many prepared statements a SQLite connection keeps. The hot statements are a few dozen; a
 * statement written with a `?` per value (the bench baseline's answers) is prepared per count, and
 * without a bound each would stay for the connection's life.
 */
const SQLITE_STATEMENTS_KEPT = 100;

export function numberedPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

/** SQLite stores booleans as 0/1 and dates as ISO text (Prisma's better-sqlite3 adapter format). */
function sqliteValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return sqliteTimestamp(value);
  return value;
}

export const sqliteTimestamp = (date: Date) => date.toISOString().replace("Z", "+00:00");

/**
 * PostgreSQL's columns are `timestamp` without a zone, holding UTC (as Prisma writes them): dates
 * go out as UTC text and come back read as UTC, whatever the process's own time zone is (pg's
 * defaults use the local one both ways).
 */
const postgresValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
const TIMESTAMP_WITHOUT_ZONE = 1114;
/** The pool's type parsers (`types` of pg.Pool's options); Prisma's adapter gives each of its queries its own, so a pool it shares keeps these for ours. */
export const postgresTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_WITHOUT_ZONE
      ? (text: string) => new Date(`${text.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function openSqlClient(databaseUrl: string, options: SqlClientOptions = {}): SqlClient {
  if (dialectOf(databaseUrl) === "sqlite") return openSqlite(databaseUrl, options);
  return sqlClientOnPool(new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10, types: postgresTypes }));
}

/**
 * A client on a pool made elsewhere, with `postgresTypes` among its options: the app's own pool,
 * which its Prisma client shares (app/lib/db.server.ts). `close` ends the pool.
 */
export function sqlClientOnPool(pool: pg.Pool): SqlClient {
  const on = (runner: pg.Pool | pg.PoolClient): SqlClient => ({
    dialect: "postgresql",
    all: async <T>(sql: string, params: unknown[] = [], options: { name?: string } = {}) =>
      (await runner.query({ name: options.name, text: numberedPlaceholders(sql), values: params.map(postgresValue) })).rows as T[],
    run: async (sql, params = []) => (await runner.query(numberedPlaceholders(sql), params.map(postgresValue))).rowCount ?? 0,
    transaction: async (work) => {
      if (runner !== pool) return work(on(runner));
      const connection = await pool.connect();
      try {
        await connection.query("BEGIN");
        const result = await work(on(connection));
        await connection.query("COMMIT");
        return result;
      } catch (error) {
        await connection.query("ROLLBACK");
        throw error;
      } finally {
        connection.release();
      }
    },
    close: async () => {
      if (runner === pool) await pool.end();
    },
  });
  return on(pool);
}

function openSqlite(databaseUrl: string, options: SqlClientOptions): SqlClient {
  const file = databaseUrl.replace(/^file:/, "");
  const database = new Database(file, { timeout: 5000, fileMustExist: options.readOnlyWithCacheKiB !== undefined });
  if (options.readOnlyWithCacheKiB === undefined) {
    database.pragma("journal_mode = WAL");
    // The app's own connection settings (app/lib/db.server.ts), so both sides read the file alike.
    for (const pragma of SQLITE_CONNECTION_PRAGMAS) database.pragma(pragma);
  } else {
    // Not opened read-only: a read-only connection cannot take part in WAL's shared memory when it
    // is the first to open the file. query_only refuses writes all the same.
    database.pragma("query_only = ON");
    database.pragma(SQLITE_CONNECTION_PRAGMAS[0]);
    database.pragma(`cache_size = ${-Math.round(options.readOnlyWithCacheKiB)}`);
  }
  const statements = new LRUCache<string, Database.Statement>({ max: SQLITE_STATEMENTS_KEPT });
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = database.prepare(sql)));
    return statement;
  };
  const readers = new WeakMap<Database.Statement, RowReader>();
  const reader = (sql: string) => {
    const statement = prepare(sql);
    let read = readers.get(statement);
    if (!read) readers.set(statement, (read = rowReader(statement)));
    return read;
  };
  const client: SqlClient = {
    dialect: "sqlite",
    all: async <T>(sql: string, params: unknown[] = []) => reader(sql)(params.map(sqliteValue)) as T[],
    run: async (sql, params = []) => prepare(sql).run(...params.map(sqliteValue)).changes,
    transaction: async (work) => {
      database.exec("BEGIN IMMEDIATE");
      try {
        const result = await work(client);
        database.exec("COMMIT");
        return result;
      } catch (error) {
        database.exec("ROLLBACK");
        throw error;
      }
    },
    close: async () => {
      database.close();
    },
  };
  return client;
}

type RowReader = (params: unknown[]) => Record<string, unknown>[];

/**
 * A statement's rows as objects keyed by column name, made here from its rows as arrays: asked for
 * objects, better-sqlite3 compiles a constructor for the row's columns with `Function` on every
 * call (≈ 7 µs for the caller's row of 13 columns, 20 % of the statement), and with source maps on
 * Node then scans the compiled text for a source map comment as well (ADR 99). A statement that
 * returns no rows (an UPDATE without RETURNING) is run as it is.
 */
function rowReader(statement: Database.Statement): RowReader {
  if (!statement.reader) return (params) => statement.all(...params) as Record<string, unknown>[];
  const names = statement.columns().map((column) => column.name);
  statement.raw(true);
  return (params) => {
    const rows = statement.all(...params) as unknown[][];
    const objects: Record<string, unknown>[] = new Array(rows.length);
    for (let at = 0; at < rows.length; at += 1) {
      const values = rows[at]!;
      const row: Record<string, unknown> = {};
      for (let column = 0; column < names.length; column += 1) row[names[column]!] = values[column];
      objects[at] = row;
    }
    return objects;
  };
}
