import Database from "better-sqlite3";
import pg from "pg";
import { SQLITE_CONNECTION_PRAGMAS } from "../../app/lib/db.server.ts";

/**
 * The benchmark's own connection to the database: the same drivers the app's Prisma adapters use
 * (better-sqlite3, pg), with no ORM in between. SQL is written once with `?` placeholders and
 * double-quoted identifiers, which both databases accept; PostgreSQL gets `$1, $2, …`.
 */
export type Dialect = "sqlite" | "postgresql";

export interface SqlClient {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<number>;
  /** Runs `work` in one transaction on one connection. */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const dialectOf = (databaseUrl: string): Dialect => (/^postgres(ql)?:\/\//.test(databaseUrl) ? "postgresql" : "sqlite");

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

export function openSqlClient(databaseUrl: string, options: { poolSize?: number } = {}): SqlClient {
  if (dialectOf(databaseUrl) === "sqlite") {
    const file = databaseUrl.replace(/^file:/, "");
    const database = new Database(file, { timeout: 5000 });
    database.pragma("journal_mode = WAL");
    // The app's own connection settings (app/lib/db.server.ts), so both sides read the file alike.
    for (const pragma of SQLITE_CONNECTION_PRAGMAS) database.pragma(pragma);
    const statements = new Map<string, Database.Statement>();
    const prepare = (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = database.prepare(sql)));
      return statement;
    };
    const client: SqlClient = {
      dialect: "sqlite",
      all: async <T>(sql: string, params: unknown[] = []) => prepare(sql).all(...params.map(sqliteValue)) as T[],
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

  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  const on = (runner: pg.Pool | pg.PoolClient): SqlClient => ({
    dialect: "postgresql",
    all: async <T>(sql: string, params: unknown[] = []) => (await runner.query(numberedPlaceholders(sql), params)).rows as T[],
    run: async (sql, params = []) => (await runner.query(numberedPlaceholders(sql), params)).rowCount ?? 0,
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
