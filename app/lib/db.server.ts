import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient as PostgresPrismaClient } from "~/generated/prisma/postgresql/client.ts";
import { Prisma as SqlitePrisma, PrismaClient as SqlitePrismaClient } from "~/generated/prisma/sqlite/client.ts";
import { env } from "./env.server.ts";
import { openSqlClient, postgresTypes, SQLITE_CONNECTION_PRAGMAS, type SqlClient, sqlClientOnPool } from "./sql-client.server.ts";
import { type AdapterDatabase, withStatementCache } from "./sqlite-statement-cache.server.ts";

export { Prisma } from "~/generated/prisma/sqlite/client.ts";
export type * from "~/generated/prisma/sqlite/client.ts";

/**
 * One Prisma client for the whole process. Both generated clients come from the same schema
 * (scripts/prisma-generate.ts), so their model APIs are identical; the SQLite client's types are
 * used everywhere and the PostgreSQL one is chosen at run time when DATABASE_URL says so.
 */
export type Database = SqlitePrismaClient;

/**
 * SQLite's limit on the values one statement may bind: 32,766 since SQLite 3.32, which
 * better-sqlite3 bundles. The adapter does not declare it, so Prisma assumes the old 999 and
 * refuses a query with more (P2029) instead of splitting it when the values sit inside an `OR` or
 * go with an `orderBy`: a bulk assignment of 1,000 respondents failed on SQLite.
 */
export const SQLITE_MAX_BIND_VALUES = 32_766;

/**
 * Every other transaction's limits. Prisma's defaults (2 s to start, 5 s to run) were reached on a
 * machine starved of CPU: creating a form waited over 2 s for a PostgreSQL connection and failed.
 * These still end a transaction that hangs, and one that runs out of them answers 503 with
 * Retry-After (app/lib/request-faults.server.ts), never a 500.
 */
export const TRANSACTION_LIMITS = { maxWait: 5_000, timeout: 10_000 } as const;

/**
 * For the transactions that write thousands of rows at once (a roster import, a bulk assignment):
 * Prisma's default 5 s limit is reached on a busy server, and on PostgreSQL the commit is then
 * refused and the teacher's import lost. These finish in about a second on an idle machine.
 */
export const LONG_WRITE = { maxWait: 10_000, timeout: 60_000 } as const;

/**
 * The better-sqlite3 adapter, declaring what the bundled SQLite really allows, keeping its
 * prepared statements (app/lib/sqlite-statement-cache.server.ts) and starting its transactions
 * with the write lock. The adapter keeps its connection in the `client` field and reaches it only
 * through `prepare`, `exec` and `close`.
 */
class SqliteAdapterFactory extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    const connection = adapter as unknown as { client: BetterSqlite3.Database };
    connection.client = withImmediateTransactions(withStatementCache(connection.client)) as BetterSqlite3.Database;
    return Object.assign(adapter, { getConnectionInfo: () => ({ maxBindValues: SQLITE_MAX_BIND_VALUES, supportsRelationJoins: false }) });
  }
}

/**
 * The adapter opens a transaction with a plain (deferred) `BEGIN`: it reads under a snapshot and
 * asks for the write lock at its first write. When another process (a second server on the same
 * file, a script, the test suite) has committed in between, SQLite refuses that write at once with
 * SQLITE_BUSY, whatever the busy timeout, because the snapshot is stale: a submit failed 503 that
 * way. `BEGIN IMMEDIATE` takes the write lock first and waits for it within the busy timeout. Inside
 * this process nothing is lost: the adapter already runs one transaction at a time.
 */
function withImmediateTransactions(database: AdapterDatabase): AdapterDatabase {
  const prepare = database.prepare;
  return { ...database, prepare: ((sql: string) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql)) as AdapterDatabase["prepare"] };
}

/**
 * Statements sent to the driver with no ORM in between, for the reads every request makes (the
 * caller, ADR 95) and the reports list's (ADR 97): Prisma's client was ≈12 % of such a request's
 * CPU time, and 9–18 % of a page of the list's. On PostgreSQL the statements go to the pool the
 * Prisma client uses, so nothing is opened for them. On SQLite they go to a second connection to
 * the file that only reads: WAL lets it read while the Prisma connection writes, and each of its
 * statements sees every transaction committed before it started. It never writes: better-sqlite3
 * waits for a lock synchronously, and a write waiting there for a transaction of the Prisma
 * connection would hold the event loop that transaction needs to finish.
 */
export type DriverReads = Pick<SqlClient, "dialect" | "all">;

/**
 * The second SQLite connection's page cache: the caller's rows are a few pages of a few indexes.
 * The reports list's pages (ADR 97) are read through the memory map, which serves a page not kept
 * here without a copy: page 500 of 50,000 results, run alone, cost less here than on the Prisma
 * connection with its 64 MiB.
 */
const DRIVER_READS_CACHE_KIB = 4096;

type OpenedDatabase = { client: Database; reads: () => DriverReads; close: () => Promise<void> };

function openDatabase(databaseUrl: string): OpenedDatabase {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // A connection attempt gives up after 5 s, so an unreachable server fails requests (503)
    // instead of holding them forever; the pool's default waits without limit. The adapter ends
    // the pool when the client disconnects.
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 5_000, types: postgresTypes });
    // An idle connection the database server closed (a restart) is dropped by the pool and
    // replaced at its next use. Its error must have a listener, or it ends the process: the
    // adapter adds its own only once Prisma first connects, and the caller's reads may come first.
    pool.on("error", () => {});
    const adapter = new PrismaPg(pool, { disposeExternalPool: true });
    const reads = sqlClientOnPool(pool);
    const client = new PostgresPrismaClient({ adapter, transactionOptions: TRANSACTION_LIMITS }) as unknown as Database;
    return { client, reads: () => reads, close: () => client.$disconnect() };
  }
  const file = path.resolve(databaseUrl.replace(/^file:/, ""));
  // A 5 s busy timeout lets a second process (a migration, the seed) wait for a write lock
  // instead of failing at once.
  const adapter = new SqliteAdapterFactory({ url: `file:${file}`, timeout: 5000 });
  const client = new SqlitePrismaClient({ adapter, transactionOptions: TRANSACTION_LIMITS });
  // The adapter has one connection, so settings made through the client apply to every query;
  // they are issued first, and a query that overtakes them merely runs with the defaults.
  for (const pragma of SQLITE_CONNECTION_PRAGMAS) {
    client.$queryRawUnsafe(`PRAGMA ${pragma}`).catch((error: unknown) => console.error(`[db] PRAGMA ${pragma} failed:`, error));
  }
  // Opened on first use: the file exists by then (the server migrates it before serving).
  let reader: SqlClient | undefined;
  const reads = () => (reader ??= openSqlClient(`file:${file}`, { readOnlyWithCacheKiB: DRIVER_READS_CACHE_KIB }));
  const close = async () => {
    await client.$disconnect();
    await reader?.close();
    reader = undefined;
  };
  return { client, reads, close };
}

export function createDatabase(databaseUrl: string): Database {
  return openDatabase(databaseUrl).client;
}

const globalForDb = globalThis as unknown as { __db?: OpenedDatabase };
const opened = () => (globalForDb.__db ??= openDatabase(env().DATABASE_URL));

/**
 * The process's client, created on first use rather than on import, so that importing a module
 * (a script reading a constant, a test that sets DATABASE_URL first) opens nothing.
 */
export const db: Database = new Proxy({} as Database, {
  get(_target, property) {
    const client = opened().client;
    const value: unknown = Reflect.get(client, property);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

/** The process's reads through the driver (see DriverReads), on the same database as `db`. */
export const driverReads = (): DriverReads => opened().reads();

/**
 * A read written with `Prisma.sql` run through the driver (driverReads) instead of `db.$queryRaw`:
 * its text with `?` placeholders and its values, bound as the SqlClient binds them (dates as
 * Prisma's adapters write them, booleans as 0/1 on SQLite). The rows are the driver's: read them
 * with app/lib/raw-values.ts, which takes either driver's values. `name` only for a statement
 * whose text never changes (see SqlClient.all). It sees what is committed, so never a read that
 * must see the writes of a `db` transaction still open.
 */
export const readThroughDriver = <T>(query: SqlitePrisma.Sql, options?: { name?: string }): Promise<T[]> =>
  driverReads().all<T>(query.sql, query.values, options);

/** Closes the process's client and its driver reads, if they were opened (at shutdown, after the last request). */
export async function disconnectDatabase(): Promise<void> {
  const current = globalForDb.__db;
  globalForDb.__db = undefined;
  await current?.close();
}

/** A write refused by a unique index (two requests racing to create the same row). */
// Both generated clients share Prisma's runtime, so one error class serves SQLite and PostgreSQL.
export const isUniqueViolation = (error: unknown) => error instanceof SqlitePrisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * What a transaction holds while it checks that something does not exist yet and then writes it:
 * the people of an organization (an e-mail address is one person's; a group's name is one group's),
 * or the links of one form (one link still waiting per respondent).
 */
export type WriteScope = "roster" | "links";
const WRITE_SCOPE_KEYS: Record<WriteScope, number> = { roster: 1, links: 2 };

/**
 * Makes the rest of the transaction `tx` the only writer of `scope` for `id` until it ends, so that
 * a check made after this call still holds when the transaction commits. Two identical imports,
 * or a double-clicked bulk assignment, then run one after the other and the second sees what the
 * first wrote (ADR 41). On PostgreSQL: a transaction-level advisory lock on the pair (the two-key
 * form, whose key space no other lock of ours uses). On SQLite every transaction already begins
 * with the database's write lock (ADR 37), which is the same guarantee for the whole file.
 */
export async function serializeWrites(tx: SqlitePrisma.TransactionClient, scope: WriteScope, id: string): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(env().DATABASE_URL)) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${WRITE_SCOPE_KEYS[scope]}::int, hashtext(${id}))`;
}
