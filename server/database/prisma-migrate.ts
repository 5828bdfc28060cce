// The one module that knows Prisma Migrate's private interfaces (docs/decisions/0064-one-adapter-for-prisma-migrate.md).
// The rest of the migration tooling (server/database/migrations.ts, scripts/migrate.ts,
// scripts/check-migrations.ts, scripts/create-migration.ts) asks it for these:
//
//   diff(from, to)               the SQL that takes a database built from the migrations `from` to the
//                                Prisma schema `to`, "" when nothing differs: the schema engine's
//                                script, one step per change, each under a `-- Kind` comment line
//                                (`-- CreateTable`, `-- DropIndex`…), as `prisma migrate diff` prints it;
//   apply(databaseUrl, migrations)  the migrations the database has not recorded, applied in order,
//                                each in its own transaction, and recorded as `prisma migrate deploy`
//                                records them; returns their names;
//   lockfileContent(provider)    migration_lock.toml as the Prisma CLI writes it;
//   MIGRATIONS_TABLE             the table of that history, whose absence means "never migrated".
//
// Prisma's CLI cannot do this here: `prisma migrate` (even `prisma --version`) downloads a native
// schema engine from Prisma's servers, which our machines cannot reach, and no npm package ships
// that binary. Nothing here needs a network, so it works the same where those servers are reachable,
// and there `prisma migrate status/deploy/resolve` work on the same databases.
//
// What it relies on, to re-check when upgrading Prisma (tests/database/prisma-migrate.test.ts runs
// both commands on both databases):
// 1. @prisma/schema-engine-wasm, pinned in package.json to one engine build (the version names its
//    git hash): its wasm-bindgen glue (`schema_engine_bg`: `__wbg_set_wasm`, `__wbindgen_start`),
//    the panic hook's `PRISMA_WASM_PANIC_REGISTRY` global, `SchemaEngine.new` and `diff` with their
//    parameter shapes (`MigrationList`, `DiffParams`).
// 2. @prisma/driver-adapter-utils' `bindMigrationAwareSqlAdapterFactory` and its error registry, and
//    two gaps of the driver adapters when the engine uses them (adaptPgForSchemaEngine relies on
//    @prisma/adapter-pg's internal `performIO`; adaptSqliteForSchemaEngine).
// 3. Prisma Migrate's bookkeeping: the `_prisma_migrations` table (the DDL of each connector),
//    sha256 checksums with Prisma's tolerance, what a failed or rolled-back row looks like, and the
//    advisory lock key of `prisma migrate` on PostgreSQL.

import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type ErrorRegistry,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
} from "@prisma/driver-adapter-utils";
import type { DiffParams, MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import Database from "better-sqlite3";
import pg from "pg";

import { describeDatabase, errorMessage, MigrationError, providerOf, sqliteFilePath } from "./database-url.ts";
import { withScratchPostgresDatabase } from "./scratch-database.ts";
import { paths, type Provider } from "./schemas.ts";

export type Log = (message: string) => void;

/** One migration: its folder name (`<timestamp>_<name>`, recorded as `migration_name`) and script. */
export interface Migration {
  name: string;
  sql: string;
  /** Where it is, for messages (e.g. prisma/migrations/sqlite/<name>/migration.sql). */
  file?: string;
  /**
   * The checksums the script had before its comments were reworded. A database that recorded one
   * of them gets the current checksum recorded instead of refusing the migration as edited.
   */
  previousChecksums?: readonly string[];
}

/** The migrations of one database, in the order they apply. */
export interface Migrations {
  provider: Provider;
  migrations: readonly Migration[];
}

/** A Prisma schema file: its path (for the engine's messages) and content. */
export interface SchemaFile {
  path: string;
  content: string;
}

export interface ApplyOptions {
  /** Receives progress messages; silent by default. */
  log?: Log;
}

/** The table in which Prisma records the migrations applied to a database: a database without it was never migrated. */
export const MIGRATIONS_TABLE = "_prisma_migrations";
const LOCKFILE = "migration_lock.toml";
const MIGRATION_FILE = "migration.sql";

/** The advisory lock key of Prisma Migrate, so that `apply` and `prisma migrate` exclude each other. */
const PRISMA_ADVISORY_LOCK_KEY = 72707369;

/** How long SQLite waits for another process's write transaction (e.g. its migration) to end. */
const SQLITE_BUSY_TIMEOUT_MS = 60_000;

/** migration_lock.toml exactly as the Prisma CLI writes it. */
export function lockfileContent(provider: Provider): string {
  return `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${provider}"\n`;
}

// ---------------------------------------------------------------------------------------------
// diff: Prisma's schema engine compiled to WebAssembly, talking to the databases through driver
// adapters (better-sqlite3 in memory for SQLite, pg against a throw-away database for PostgreSQL).

type Bindings = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

let bindingsReady: Promise<Bindings> | undefined;
let panicMessage: ((message: string) => void) | undefined;

/**
 * Instantiates the WebAssembly module once per process. The package's own entry point imports the
 * .wasm file as an ES module, which Node and tsx do not load by default; instantiating it by hand
 * with the package's JS bindings ("./schema_engine_bg.js" is the module name the .wasm imports
 * from) works everywhere. Imported on the first diff only: `apply`, which every start runs, never
 * loads the engine.
 */
function loadBindings(): Promise<Bindings> {
  bindingsReady ??= (async () => {
    const wasmBindings: Bindings = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const require = createRequire(import.meta.url);
    const bindingsPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const wasmPath = path.join(path.dirname(bindingsPath), "schema_engine_bg.wasm");
    const imports = { "./schema_engine_bg.js": wasmBindings as unknown as WebAssembly.ModuleImports };
    const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), imports);
    wasmBindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();

    // The engine's panic hook reports the message here before trapping; the registry must exist
    // (the hook calls it unconditionally). A trap inside a promise callback can leave the pending
    // engine call unsettled, so the message also rejects the call in flight (see withPanicGuard).
    const globals = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
    globals.PRISMA_WASM_PANIC_REGISTRY ??= {
      set_message: (message: string) => panicMessage?.(message),
    };
    return wasmBindings;
  })();
  return bindingsReady;
}

async function withPanicGuard<T>(run: () => Promise<T>): Promise<T> {
  let onPanic: ((message: string) => void) | undefined;
  const panicked = new Promise<never>((_, reject) => {
    onPanic = (message) => reject(new Error(`The Prisma schema engine panicked: ${message}`));
  });
  panicMessage = onPanic;
  try {
    return await Promise.race([run(), panicked]);
  } finally {
    panicMessage = undefined;
  }
}

// --- The driver adapters the engine talks through ---------------------------------------

type Disposable = { dispose(): Promise<void> };

/**
 * A migration-aware adapter factory whose adapters are all disposed by `close()`, whether or not
 * the engine disposed them (closing twice is harmless).
 */
class TrackingFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider: SqlMigrationAwareDriverAdapterFactory["provider"];
  readonly adapterName: string;
  readonly #open: () => Promise<SqlDriverAdapter>;
  readonly #openShadow: () => Promise<SqlDriverAdapter>;
  readonly #opened: Disposable[] = [];

  constructor(
    info: { provider: SqlMigrationAwareDriverAdapterFactory["provider"]; adapterName: string },
    open: () => Promise<SqlDriverAdapter>,
    openShadow: () => Promise<SqlDriverAdapter> = open,
  ) {
    this.provider = info.provider;
    this.adapterName = info.adapterName;
    this.#open = open;
    this.#openShadow = openShadow;
  }

  connect(): Promise<SqlDriverAdapter> {
    return this.#track(this.#open());
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.#track(this.#openShadow());
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.#opened.map((adapter) => adapter.dispose()));
  }

  async #track(opening: Promise<SqlDriverAdapter>): Promise<SqlDriverAdapter> {
    const adapter = await opening;
    const dispose = adapter.dispose.bind(adapter);
    let disposed: Promise<void> | undefined;
    adapter.dispose = () => (disposed ??= dispose());
    this.#opened.push(adapter);
    return adapter;
  }
}

type PgResult = { fields: { dataTypeID: number }[]; rows: unknown[][] };
type PgQueryable = { performIO?: (query: SqlQuery) => Promise<PgResult> };

/** OID of PostgreSQL's internal one-byte `"char"` type (pg_constraint.contype, confdeltype...). */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * Works around two gaps of @prisma/adapter-pg 7.10 when the schema engine (rather than Prisma
 * Client) uses it:
 *
 * - The engine reads catalog columns of type `"char"`, which the adapter rejects as an unsupported
 *   column type ("Column type 'char' could not be deserialized from the database"). Such columns
 *   are handed to the adapter as text and then reported to the engine as `Character`, the column
 *   type it expects for them. This relies on the adapter's internal `performIO`; if that ever
 *   disappears the adapter is left untouched (and a newer adapter presumably maps the type).
 * - `executeScript` splits scripts on every `;`, which breaks on a semicolon inside a string or a
 *   function body. A migration script is instead sent whole, through the simple-query protocol,
 *   exactly as Prisma's native engine does.
 */
function adaptPgForSchemaEngine(adapter: Awaited<ReturnType<PrismaPg["connect"]>>): SqlDriverAdapter {
  const pool = adapter.underlyingDriver();
  adapter.executeScript = async (script: string) => {
    await pool.query(script);
  };

  const internals = adapter as unknown as PgQueryable;
  const performIO = internals.performIO?.bind(adapter);
  if (!performIO) return adapter;

  // Keyed by the rows array, which queryRaw returns as is, so concurrent queries cannot mix up.
  const charColumns = new WeakMap<unknown[][], number[]>();
  internals.performIO = async (query) => {
    const result = await performIO(query);
    const indexes: number[] = [];
    result.fields?.forEach((field, index) => {
      if (field.dataTypeID === PG_CHAR_OID) {
        field.dataTypeID = PG_TEXT_OID;
        indexes.push(index);
      }
    });
    if (indexes.length > 0) charColumns.set(result.rows, indexes);
    return result;
  };

  const queryRaw = adapter.queryRaw.bind(adapter);
  adapter.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumns.get(result.rows as unknown[][]) ?? []) {
      result.columnTypes[index] = ColumnTypeEnum.Character;
    }
    return result;
  };
  return adapter;
}

/**
 * The WebAssembly engine replays each migration script on the SQLite shadow database as one
 * parameterless `executeRaw`, which better-sqlite3 refuses ("The supplied SQL string contains more
 * than one statement") because it prepares a single statement. Such a script is run with
 * `executeScript` (better-sqlite3's exec) instead. The refusal happens while preparing, before
 * anything ran, so running the script again is safe.
 */
function adaptSqliteForSchemaEngine(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      const multipleStatements = error instanceof RangeError && /more than one statement/i.test(error.message);
      if (!multipleStatements || query.args.length > 0) throw error;
      await adapter.executeScript(query.sql);
      return 0;
    }
  };
  return adapter;
}

async function withShadowFactory<T>(provider: Provider, use: (factory: SqlMigrationAwareDriverAdapterFactory) => Promise<T>): Promise<T> {
  if (provider === "sqlite") {
    // Both the "main" and the shadow connection are private in-memory databases.
    const sqlite = new PrismaBetterSqlite3({ url: ":memory:" });
    const factory = new TrackingFactory(
      sqlite,
      async () => adaptSqliteForSchemaEngine(await sqlite.connect()),
      async () => adaptSqliteForSchemaEngine(await sqlite.connectToShadowDb()),
    );
    try {
      return await use(factory);
    } finally {
      await factory.close();
    }
  }

  return withScratchPostgresDatabase(async (url) => {
    // PrismaPg's own connectToShadowDb would create prisma_migrate_shadow_db_* databases and rely on
    // the engine to drop them; the scratch database is used for both connections instead.
    const postgres = new PrismaPg({ connectionString: url });
    const factory = new TrackingFactory(postgres, async () => adaptPgForSchemaEngine(await postgres.connect()));
    try {
      return await use(factory);
    } finally {
      await factory.close();
    }
  });
}

/**
 * The SQL script that takes a database built from the migrations `from` to the schema `to`; "" when
 * they agree. The migrations are replayed on a shadow database (in-memory SQLite, or a scratch
 * database on MIGRATION_SHADOW_POSTGRES_URL, default the local server) that is discarded afterwards.
 */
export async function diff(from: Migrations, to: SchemaFile): Promise<string> {
  const wasmBindings = await loadBindings();
  const logs: string[] = [];
  return withShadowFactory(from.provider, async (factory) => {
    const bound = bindMigrationAwareSqlAdapterFactory(factory);
    const engine: SchemaEngine = await wasmBindings.SchemaEngine.new({ datamodels: undefined }, (line: string) => logs.push(line), bound);
    try {
      const params: DiffParams = {
        from: { tag: "migrations", ...migrationList(from) },
        to: { tag: "schemaDatamodel", files: [to] },
        script: true,
        // With exitCode the engine reports 2 when there is a difference and 0 when there is none,
        // which is more reliable than recognising its "empty migration" comment.
        exitCode: true,
        filters: { externalTables: [], externalEnums: [] },
      };
      const result = await withPanicGuard(() => engine.diff(params));
      if (process.env.MIGRATIONS_DEBUG) console.error(logs.join("\n"));
      return result.exitCode === 2 ? (result.stdout ?? "") : "";
    } catch (error) {
      if (process.env.MIGRATIONS_DEBUG) console.error(logs.join("\n"));
      throw new Error(`Schema engine (${from.provider}): ${explainEngineError(error, bound.errorRegistry)}`, {
        cause: error,
      });
    } finally {
      engine.free();
    }
  });
}

/** The migrations in the shape the engine expects: a folder of `<name>/migration.sql` and a lockfile. */
function migrationList({ provider, migrations }: Migrations): MigrationList {
  return {
    baseDir: paths.migrations(provider),
    lockfile: { path: LOCKFILE, content: lockfileContent(provider) },
    shadowDbInitScript: "",
    migrationDirectories: migrations.map((migration) => ({
      path: migration.name,
      migrationFile: { path: MIGRATION_FILE, content: { tag: "ok", value: migration.sql } },
    })),
  };
}

/**
 * Errors raised by a driver adapter reach the engine only as "External error id#N"; the adapter
 * binding keeps the original, which is what a person needs to see (e.g. the failing SQL statement).
 */
function explainEngineError(error: unknown, registry: ErrorRegistry): string {
  const message = errorMessage(error);
  const causes = [...message.matchAll(/External error id#(\d+)/g)].map((match) => {
    const record = registry.consumeError(Number(match[1]));
    return record ? `\nCaused by: ${errorMessage(record.error)}` : "";
  });
  return message + causes.join("");
}

// ---------------------------------------------------------------------------------------------
// apply: plain better-sqlite3 / pg, with Prisma Migrate's bookkeeping.

/**
 * Applies, in order and each in its own transaction, the `migrations` that the database at
 * `databaseUrl` has not recorded yet, and records them in `_prisma_migrations` as
 * `prisma migrate deploy` would. Refuses (MigrationError) when an applied migration was edited
 * since, when a migration is recorded as failed, and when the database has tables but no migration
 * history; a migration that fails is rolled back and not recorded. Safe when several processes start
 * at once. Returns the names of the migrations it applied.
 */
export async function apply(databaseUrl: string, migrations: readonly Migration[], options: ApplyOptions = {}): Promise<string[]> {
  const log: Log = options.log ?? (() => {});
  const provider = providerOf(databaseUrl);
  const target = provider === "sqlite" ? openSqlite(databaseUrl, log) : await openPostgres(databaseUrl, log);
  try {
    await target.initialize();
    const { pending, reworded } = planMigrations(migrations, await target.records(), log);
    for (const migration of reworded) {
      log(`Recording the reworded comments of ${migration.name}`);
      await target.recordChecksum(migration.name, checksumOf(migration.sql));
    }
    const applied: string[] = [];
    for (const migration of pending) {
      log(`Applying ${migration.name}`);
      try {
        if (await target.apply(migration)) applied.push(migration.name);
        else log(`${migration.name} was applied by another process meanwhile`);
      } catch (error) {
        if (error instanceof MigrationError) throw error;
        throw new MigrationError(
          `Migration ${migration.name} failed and was rolled back; nothing of it was applied or recorded. ` +
            `Fix ${migration.file ?? `${migration.name}/${MIGRATION_FILE}`} and run the migrations again.\n` +
            errorMessage(error),
          { cause: error },
        );
      }
    }
    return applied;
  } finally {
    await target.close();
  }
}

function checksumOf(script: string): string {
  return createHash("sha256").update(script, "utf8").digest("hex");
}

/**
 * Whether a script matches a recorded checksum, with Prisma's tolerance: line endings may have
 * been converted by git (CRLF <-> LF), and very old Prisma versions wrote the hex digits of each
 * byte without zero padding.
 */
function scriptMatchesChecksum(script: string, checksum: string): boolean {
  const variants = [script, script.replaceAll("\r\n", "\n"), script.replaceAll("\n", "\r\n")];
  return variants.some((variant) => {
    const digest = createHash("sha256").update(variant, "utf8").digest();
    const rendered = checksum.length === 64 || checksum === "" ? digest.toString("hex") : [...digest].map((byte) => byte.toString(16)).join("");
    return rendered === checksum;
  });
}

interface MigrationRecord {
  migrationName: string;
  checksum: string;
  startedAt: string;
  finished: boolean;
  rolledBack: boolean;
  logs: string | null;
}

/** What each database does differently; everything else is shared. */
interface MigrationTarget {
  /** Creates `_prisma_migrations` if missing; refuses a non-empty database without it. */
  initialize(): Promise<void>;
  records(): Promise<MigrationRecord[]>;
  /**
   * Runs the script and records it, in one transaction. Returns false, without doing anything,
   * when another process recorded the migration in the meantime.
   */
  apply(migration: Migration): Promise<boolean>;
  /** Replaces the recorded checksum of an applied migration whose comments were reworded. */
  recordChecksum(migrationName: string, checksum: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Checks the recorded history against the folder; returns the migrations still to apply and the
 * applied ones whose recorded checksum is one they had before their comments were reworded.
 */
function planMigrations(local: readonly Migration[], records: MigrationRecord[], log: Log): { pending: Migration[]; reworded: Migration[] } {
  const live = records.filter((record) => !record.rolledBack);

  const failed = live.filter((record) => !record.finished);
  if (failed.length > 0) {
    const details = failed
      .map((record) => `- ${record.migrationName} (started ${record.startedAt})${record.logs ? `:\n${record.logs.trim()}` : ""}`)
      .join("\n");
    throw new MigrationError(
      `The database records failed migrations, so no migration is applied:\n${details}\n` +
        `Check what the failed migration left behind and repair the database by hand, then mark it as rolled back ` +
        `(\`prisma migrate resolve --rolled-back <name>\`, or set rolled_back_at on its ${MIGRATIONS_TABLE} row) ` +
        `so it is applied again, or as applied (\`prisma migrate resolve --applied <name>\`).`,
    );
  }

  const byName = new Map(local.map((migration) => [migration.name, migration]));
  const reworded: Migration[] = [];
  const edited = live.filter((record) => {
    const migration = byName.get(record.migrationName);
    if (migration === undefined || scriptMatchesChecksum(migration.sql, record.checksum)) return false;
    if (migration.previousChecksums?.includes(record.checksum)) {
      reworded.push(migration);
      return false;
    }
    return true;
  });
  if (edited.length > 0) {
    throw new MigrationError(
      `These migrations were modified after they were applied to this database:\n` +
        edited.map((record) => `- ${record.migrationName}`).join("\n") +
        `\nRestore their original migration.sql (git history) and put the change in a new migration ` +
        `(npm run db:migration:create -- <name>).`,
    );
  }

  for (const record of live) {
    if (!byName.has(record.migrationName)) {
      log(`Warning: ${record.migrationName} is recorded in the database but missing from prisma/migrations`);
    }
  }

  const recorded = new Set(live.map((record) => record.migrationName));
  return { pending: local.filter((migration) => !recorded.has(migration.name)), reworded };
}

// --- SQLite ----------------------------------------------------------------------------------

// The DDL of Prisma's SQLite connector, so that `prisma migrate` reads the table as its own.
const SQLITE_MIGRATIONS_TABLE_DDL = `CREATE TABLE "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
);`;

type SqliteRecordRow = {
  migration_name: string;
  checksum: string;
  started_at: number | string;
  finished_at: number | string | null;
  rolled_back_at: number | string | null;
  logs: string | null;
};

/** Prisma stores SQLite datetimes as Unix milliseconds; current_timestamp defaults are text. */
function sqliteTimestamp(value: number | string): string {
  return typeof value === "number" ? new Date(value).toISOString() : value;
}

function openSqlite(databaseUrl: string, log: Log): MigrationTarget {
  const file = sqliteFilePath(databaseUrl);
  mkdirSync(path.dirname(file), { recursive: true });
  const relative = path.relative(paths.root, file);
  log(`Database: SQLite ${relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file}`);

  // `timeout` is SQLite's busy timeout: a process that finds another one migrating waits for it.
  const db = new Database(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    db.pragma("journal_mode = WAL");
  } catch (error) {
    db.close();
    throw error;
  }

  const tableExists = db.prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?");
  const otherTables = db.prepare<[], { name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
  );
  const selectRecords = () =>
    db.prepare<[], SqliteRecordRow>(
      `SELECT migration_name, checksum, started_at, finished_at, rolled_back_at, logs
       FROM "_prisma_migrations" ORDER BY started_at`,
    );

  // BEGIN IMMEDIATE takes the write lock up front, so two processes never both create the table
  // or both apply the same migration; the second one waits (busy timeout) and then re-checks.
  const initializeInTransaction = db.transaction(() => {
    if (tableExists.get(MIGRATIONS_TABLE)) return;
    const tables = otherTables.all().map((row) => row.name);
    if (tables.length > 0) throw notEmptyError(tables);
    db.exec(SQLITE_MIGRATIONS_TABLE_DDL);
  });

  const applyInTransaction = db.transaction((migration: Migration): boolean => {
    const alreadyRecorded = db
      .prepare<[string], { found: number }>(`SELECT 1 AS found FROM "_prisma_migrations" WHERE migration_name = ? AND rolled_back_at IS NULL`)
      .get(migration.name);
    if (alreadyRecorded) return false;

    const startedAt = Date.now();
    db.exec(migration.sql);
    // Foreign keys are off while the script runs (see apply), so check what it left behind.
    const violations = db.prepare("PRAGMA foreign_key_check").all();
    if (violations.length > 0) {
      throw new Error(`The migration leaves ${violations.length} foreign key violation(s): ${JSON.stringify(violations.slice(0, 5))}`);
    }
    db.prepare(
      `INSERT INTO "_prisma_migrations" (id, checksum, started_at, finished_at, migration_name, applied_steps_count)
       VALUES (?, ?, ?, ?, ?, 1)`,
    ).run(randomUUID(), checksumOf(migration.sql), startedAt, Date.now(), migration.name);
    return true;
  });

  return {
    async initialize() {
      initializeInTransaction.immediate();
    },
    async records() {
      return selectRecords()
        .all()
        .map((row) => ({
          migrationName: row.migration_name,
          checksum: row.checksum,
          startedAt: sqliteTimestamp(row.started_at),
          finished: row.finished_at !== null,
          rolledBack: row.rolled_back_at !== null,
          logs: row.logs,
        }));
    },
    async apply(migration) {
      // Prisma's SQLite migrations rebuild tables with `PRAGMA foreign_keys=OFF` ... `=ON`, which
      // is a no-op inside a transaction; with foreign keys on (better-sqlite3's default), dropping
      // the old table would fire ON DELETE CASCADE / SET NULL on the rows that reference it. So
      // foreign keys are turned off around the transaction, as SQLite's documentation recommends
      // for schema changes, and checked with foreign_key_check before committing.
      const foreignKeys = db.pragma("foreign_keys", { simple: true });
      db.pragma("foreign_keys = OFF");
      try {
        return applyInTransaction.immediate(migration);
      } finally {
        db.pragma(`foreign_keys = ${foreignKeys ? "ON" : "OFF"}`);
      }
    },
    async recordChecksum(migrationName, checksum) {
      db.prepare(`UPDATE "_prisma_migrations" SET checksum = ? WHERE migration_name = ? AND rolled_back_at IS NULL`).run(checksum, migrationName);
    },
    async close() {
      db.close();
    },
  };
}

// --- PostgreSQL ------------------------------------------------------------------------------

// The DDL of Prisma's PostgreSQL connector.
const POSTGRES_MIGRATIONS_TABLE_DDL = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

type PostgresRecordRow = {
  migration_name: string;
  checksum: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
};

async function openPostgres(databaseUrl: string, log: Log): Promise<MigrationTarget> {
  // Like Prisma, `?schema=name` selects the schema (default public); pg itself does not know it.
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema");
  url.searchParams.delete("schema");
  log(`Database: PostgreSQL ${describeDatabase(url.toString())}${schema ? ` (schema ${schema})` : ""}`);

  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  let locked = false;
  try {
    if (schema) {
      const quoted = `"${schema.replaceAll('"', '""')}"`;
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
      await client.query(`SET search_path TO ${quoted}`);
    }
    // Held for the whole run: concurrent starts (and `prisma migrate`, which uses the same key)
    // queue here instead of applying the same migration twice.
    const attempt = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [PRISMA_ADVISORY_LOCK_KEY]);
    if (!attempt.rows[0]?.locked) {
      log("Another process is migrating this database; waiting for it to finish");
      await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK_KEY]);
    }
    locked = true;
  } catch (error) {
    await client.end();
    throw error;
  }

  const tableNames = async (): Promise<string[]> => {
    const result = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema() ORDER BY c.relname`,
    );
    return result.rows.map((row) => row.name);
  };

  const inTransaction = async <T>(run: () => Promise<T>): Promise<T> => {
    await client.query("BEGIN");
    try {
      const result = await run();
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  };

  return {
    async initialize() {
      const tables = await tableNames();
      if (tables.includes(MIGRATIONS_TABLE)) return;
      if (tables.length > 0) throw notEmptyError(tables);
      await client.query(POSTGRES_MIGRATIONS_TABLE_DDL);
    },
    async records() {
      const result = await client.query<PostgresRecordRow>(
        `SELECT migration_name, checksum, started_at, finished_at, rolled_back_at, logs
         FROM _prisma_migrations ORDER BY started_at`,
      );
      return result.rows.map((row) => ({
        migrationName: row.migration_name,
        checksum: row.checksum,
        startedAt: row.started_at.toISOString(),
        finished: row.finished_at !== null,
        rolledBack: row.rolled_back_at !== null,
        logs: row.logs,
      }));
    },
    async apply(migration) {
      // The advisory lock already excludes other migrators, so no re-check is needed here.
      return inTransaction(async () => {
        const startedAt = new Date();
        // Without parameters pg uses the simple-query protocol, which runs a multi-statement
        // script, like Prisma's engine does.
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, started_at, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, $3, $4, $5, 1)`,
          [randomUUID(), checksumOf(migration.sql), startedAt, new Date(), migration.name],
        );
        return true;
      });
    },
    async recordChecksum(migrationName, checksum) {
      await client.query(`UPDATE _prisma_migrations SET checksum = $1 WHERE migration_name = $2 AND rolled_back_at IS NULL`, [checksum, migrationName]);
    },
    async close() {
      try {
        if (locked) await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK_KEY]);
      } finally {
        await client.end();
      }
    },
  };
}

function notEmptyError(tables: string[]): MigrationError {
  const shown = tables.slice(0, 10).join(", ") + (tables.length > 10 ? ", ..." : "");
  return new MigrationError(
    `The database is not empty (tables: ${shown}) but has no ${MIGRATIONS_TABLE} table, so it was not ` +
      `created by these migrations. Use an empty database, or baseline this one by recording the migrations ` +
      `it already matches (\`prisma migrate resolve --applied <name>\`).`,
  );
}
