// Drives Prisma's schema engine compiled to WebAssembly (@prisma/schema-engine-wasm), so that
// migrations can be computed without the native schema-engine binary that the Prisma CLI would
// download from binaries.prisma.sh. The engine talks to databases through driver adapters:
// better-sqlite3 (in memory) for SQLite and pg against a throw-away database for PostgreSQL.

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
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
import * as wasmBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { DiffParams, MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";

import type { Provider } from "./schemas.ts";

export type { MigrationList };

/** Where scratch PostgreSQL databases are created, unless MIGRATION_SHADOW_POSTGRES_URL says otherwise. */
export const DEFAULT_POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

/** Names of scratch databases start with this, so leftovers are easy to recognise and drop. */
export const SCRATCH_DATABASE_PREFIX = "mig_scratch_";

// ---------------------------------------------------------------------------------------------
// Loading the engine

let bindingsReady: Promise<void> | undefined;
let panicMessage: ((message: string) => void) | undefined;

/**
 * Instantiates the WebAssembly module once per process. The package's own entry point imports the
 * .wasm file as an ES module, which Node and tsx do not load by default; instantiating it by hand
 * with the package's JS bindings ("./schema_engine_bg.js" is the module name the .wasm imports
 * from) works everywhere.
 */
function loadBindings(): Promise<void> {
  bindingsReady ??= (async () => {
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
  })();
  return bindingsReady;
}

/** The version (git hash of prisma-engines) of the loaded WebAssembly schema engine. */
export async function schemaEngineVersion(): Promise<string> {
  await loadBindings();
  return wasmBindings.version();
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

// ---------------------------------------------------------------------------------------------
// Driver adapters

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

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Creates an empty scratch database (mig_scratch_*) on the server of MIGRATION_SHADOW_POSTGRES_URL
 * (default: the local server), runs `use` with its URL and drops it again, even on failure.
 */
export async function withScratchPostgresDatabase<T>(use: (url: string) => Promise<T>): Promise<T> {
  const adminUrl = process.env.MIGRATION_SHADOW_POSTGRES_URL || DEFAULT_POSTGRES_ADMIN_URL;
  const name = `${SCRATCH_DATABASE_PREFIX}${Date.now()}_${randomUUID().slice(0, 8)}`;
  const scratchUrl = new URL(adminUrl);
  scratchUrl.pathname = `/${name}`;

  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `Cannot reach PostgreSQL at ${redactUrl(adminUrl)} to create a scratch database ` +
        `(set MIGRATION_SHADOW_POSTGRES_URL to a server where you may create databases): ${errorMessage(error)}`,
      { cause: error },
    );
  }
  try {
    await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    try {
      return await use(scratchUrl.toString());
    } finally {
      // FORCE (PostgreSQL 13+) also ends connections a pool may not have closed yet.
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
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

// ---------------------------------------------------------------------------------------------
// Commands

export interface DiffInput {
  provider: Provider;
  /** The committed migrations, as the engine expects them (see migrations.ts). */
  migrations: MigrationList;
  /** The target Prisma schema. */
  schema: { path: string; content: string };
}

/**
 * The SQL script that takes a database built from `migrations` to `schema`; "" when they agree.
 * The migrations are replayed on a shadow database (in-memory SQLite or a scratch PostgreSQL
 * database) that is discarded afterwards.
 */
export async function diffMigrationsToSchema(input: DiffInput): Promise<string> {
  await loadBindings();
  const logs: string[] = [];
  return withShadowFactory(input.provider, async (factory) => {
    const bound = bindMigrationAwareSqlAdapterFactory(factory);
    const engine: SchemaEngine = await wasmBindings.SchemaEngine.new({ datamodels: undefined }, (line: string) => logs.push(line), bound);
    try {
      const params: DiffParams = {
        from: { tag: "migrations", ...input.migrations },
        to: { tag: "schemaDatamodel", files: [input.schema] },
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
      throw new Error(`Schema engine (${input.provider}): ${explainEngineError(error, bound.errorRegistry)}`, {
        cause: error,
      });
    } finally {
      engine.free();
    }
  });
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
// Helpers

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}
