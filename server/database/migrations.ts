// The migration tooling's own rules: where the migrations are and how they are read, the objects
// the schema cannot describe (HAND_WRITTEN_OBJECTS) and the check that they survive every
// migration, the drift check, and new migrations' names. Whatever depends on Prisma's private
// interfaces (its schema engine, the `_prisma_migrations` bookkeeping) is behind
// server/database/prisma-migrate.ts. See docs/decisions/0002-migrations.md and
// docs/decisions/0064-one-adapter-for-prisma-migrate.md.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import Database from "better-sqlite3";
import pg from "pg";

import { MigrationError, providerOf, sqliteFilePath } from "./database-url.ts";
import { apply, diff, type Log, type Migration } from "./prisma-migrate.ts";
import { withScratchPostgresDatabase } from "./scratch-database.ts";
import { derivePostgresqlSchema, paths, type Provider } from "./schemas.ts";

export { MigrationError, providerOf, sqliteFilePath } from "./database-url.ts";
export { providers, type Provider } from "./schemas.ts";

const LOCKFILE = "migration_lock.toml";
const MIGRATION_FILE = "migration.sql";

// ---------------------------------------------------------------------------------------------
// The migrations folder

/** A path for messages: relative to the project root when inside it. */
function displayPath(file: string): string {
  const relative = path.relative(paths.root, file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

function readLockfile(folder: string): string | null {
  const file = path.join(folder, LOCKFILE);
  return existsSync(file) ? readFileSync(file, "utf8") : null;
}

/** Refuses a folder whose migration_lock.toml names another provider (Prisma's P3019 check). */
function checkLockfile(provider: Provider, folder: string): void {
  const content = readLockfile(folder);
  if (content === null) return;
  const line = content.split(/\r?\n/).find((candidate) => candidate.startsWith("provider"));
  const found = line
    ? line
        .replace(/^provider\s*=\s*/, "")
        .trim()
        .replace(/^"|"$/g, "")
    : "<none>";
  if (found !== provider) {
    throw new MigrationError(`${displayPath(path.join(folder, LOCKFILE))} says provider "${found}", expected "${provider}".`);
  }
}

/**
 * Beside a migration.sql whose comments were reworded after it shipped: the checksums it had
 * before, one per line (a sha256 in hex, then anything), so that databases which recorded them
 * accept the migration as the same one (ADR 70). Only ever for comment changes: a change to what a
 * migration does goes in a new migration.
 */
export const PREVIOUS_CHECKSUMS_FILE = "previous-checksums.txt";

function readPreviousChecksums(content: string): string[] {
  return content
    .split(/\r?\n/)
    .map((line) => line.trim().split(/\s+/)[0] ?? "")
    .filter((checksum) => /^[0-9a-f]{64}$/.test(checksum));
}

/**
 * The committed migrations of a provider (by default from prisma/migrations/<provider>), in the
 * order they apply: by folder name, like Prisma.
 */
export function readLocalMigrations(provider: Provider, folder = paths.migrations(provider)): Migration[] {
  checkLockfile(provider, folder);
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      const file = path.join(folder, name, MIGRATION_FILE);
      if (!existsSync(file)) throw new MigrationError(`${displayPath(path.join(folder, name))} has no ${MIGRATION_FILE}.`);
      const previous = path.join(folder, name, PREVIOUS_CHECKSUMS_FILE);
      const previousChecksums = existsSync(previous) ? readPreviousChecksums(readFileSync(previous, "utf8")) : undefined;
      return { name, sql: readFileSync(file, "utf8"), file: displayPath(file), ...(previousChecksums && { previousChecksums }) };
    });
}

// ---------------------------------------------------------------------------------------------
// Drift: the committed migrations against the schema

/**
 * The SQL that would take a database built from the committed migrations of `provider` to the
 * current prisma/schema.prisma (for PostgreSQL: its derived twin); "" when nothing differs.
 * The hand-written objects (HAND_WRITTEN_OBJECTS), which the schema cannot express, are left out:
 * the engine would otherwise want to drop them, here and in every new migration.
 * Works offline: SQLite replays the migrations in memory; PostgreSQL uses a scratch database on
 * MIGRATION_SHADOW_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/postgres).
 */
export async function diffSchemaAgainstMigrations(provider: Provider): Promise<string> {
  const folder = paths.migrations(provider);
  const sqliteSchema = readFileSync(paths.sqliteSchema, "utf8");
  const schema =
    provider === "sqlite"
      ? { path: paths.sqliteSchema, content: sqliteSchema }
      : { path: paths.postgresqlSchema, content: derivePostgresqlSchema(sqliteSchema) };
  const script = await diff({ provider, migrations: readLocalMigrations(provider, folder) }, schema);
  return withoutHandWrittenDrops(provider, script);
}

// ---------------------------------------------------------------------------------------------
// Hand-written objects: the substring search index (docs/decisions/0011-substring-search.md) and
// the versions of the organizations' submissions (docs/decisions/0013-report-totals.md)

interface HandWrittenObjects {
  /** Tables, including the shadow tables SQLite's FTS5 creates for a virtual table. */
  tables: readonly string[];
  /** Triggers, each on the table its name begins with ("Answer_summary_insert" is on "Answer"). */
  triggers: readonly string[];
  /** Functions (PostgreSQL), e.g. the ones the triggers execute. */
  functions: readonly string[];
  /** Indexes, each on the table its name begins with ("Student_searchName_trgm_idx" is on "Student"). */
  indexes: readonly string[];
  extensions: readonly string[];
}

/**
 * The only database objects the migrations create that prisma/schema.prisma does not describe,
 * by exact name. The drift check tolerates the engine's wish to drop exactly these (and nothing
 * else), and `missingHandWrittenObjects` requires every one of them to exist, so a later migration
 * cannot lose them unnoticed (a SQLite table rebuild of "Submission" drops its triggers). The
 * engine ignores triggers and functions, so only the tables and indexes are ever dropped from a diff.
 * (Migrations up to 20261122082822 call this list SEARCH_INDEX_OBJECTS, its name while it only held
 * the search index.)
 */
export const HAND_WRITTEN_OBJECTS: Readonly<Record<Provider, HandWrittenObjects>> = {
  sqlite: {
    // ADR 11: CREATE VIRTUAL TABLE "Submission_search" USING fts5(..., content='Submission',
    // tokenize='trigram') and its shadow tables (an external content table has no _content table).
    tables: ["Submission_search", "Submission_search_config", "Submission_search_data", "Submission_search_docsize", "Submission_search_idx"],
    triggers: [
      // ADR 11: keep "Submission_search" in sync.
      "Submission_search_insert",
      "Submission_search_update",
      "Submission_search_delete",
      // ADR 13: change the organization's "SubmissionsVersion".
      "Submission_version_insert",
      "Submission_version_update",
      "Submission_version_delete",
      // ADR 16: fill "formTitle" from the scoring snapshot when an older writer leaves it out.
      "Submission_form_title_insert",
      "Submission_form_title_update",
      // ADR 32: keep the form summary's tallies.
      "Submission_summary_insert",
      "Submission_summary_update",
      "Submission_summary_delete",
      "Answer_summary_insert",
      "Answer_summary_update",
      "Answer_summary_delete",
      // ADR 36: keep "SubmissionCount".
      "Submission_with_count_insert",
      "Submission_with_count_update",
      "Submission_with_count_delete",
    ],
    functions: [],
    indexes: [],
    extensions: [],
  },
  postgresql: {
    // ADR 39: the form titles each organization's results were captured with.
    tables: ["SubmissionFormTitle"],
    // ADR 13: change the organizations' "SubmissionsVersion" (statement-level, one per event).
    triggers: [
      "Submission_version_insert",
      "Submission_version_update",
      "Submission_version_delete",
      "Submission_version_truncate",
      // ADR 16: fill "formTitle" from the scoring snapshot when an older writer leaves it out.
      "Submission_form_title",
      // ADR 32: keep the form summary's tallies.
      "Submission_summary_insert",
      "Submission_summary_update",
      "Submission_summary_delete",
      "Submission_summary_truncate",
      "Answer_summary_insert",
      "Answer_summary_update",
      "Answer_summary_delete",
      "Answer_summary_truncate",
      // ADR 36: keep "SubmissionCount" (named to fire after the version's triggers).
      "Submission_with_count_insert",
      "Submission_with_count_update",
      "Submission_with_count_delete",
      "Submission_with_count_truncate",
      // ADR 39: keep "SubmissionFormTitle".
      "Submission_form_title_keep_insert",
      "Submission_form_title_keep_update",
    ],
    functions: [
      "Submission_version_bump",
      "Submission_form_title_fill",
      "Submission_summary_tally",
      "Submission_summary_forget",
      "Answer_summary_tally",
      "Summary_tally_truncate",
      "Submission_count_tally",
      "Submission_count_truncate",
      "Submission_form_title_keep",
    ],
    // ADR 11: the trigram index and its extension; ADR 39: the people's names.
    indexes: ["Submission_searchText_trgm_idx", "Student_searchName_trgm_idx", "Candidate_searchName_trgm_idx"],
    extensions: ["pg_trgm"],
  },
};

const STEP_HEADER = /^-- [A-Z][A-Za-z]*$/;
const FOREIGN_KEYS_PRAGMA = /^PRAGMA foreign_keys\s*=\s*(on|off);$/i;

/**
 * The engine's script without its steps that drop one of HAND_WRITTEN_OBJECTS. A step is a
 * `-- DropTable` / `-- DropIndex` header followed by exactly one `DROP TABLE "name";` /
 * `DROP INDEX "name";` (SQLite wraps it in PRAGMA foreign_keys=off/on); any other step, even one
 * that mentions these objects, is kept. "" when nothing but comments is left.
 */
export function withoutHandWrittenDrops(provider: Provider, script: string): string {
  const objects = HAND_WRITTEN_OBJECTS[provider];
  const steps: string[][] = [[]];
  for (const line of script.split("\n")) {
    if (STEP_HEADER.test(line.trim())) steps.push([]);
    steps.at(-1)!.push(line);
  }
  const tolerated = (step: string[]): boolean => {
    const [header, ...rest] = step.map((line) => line.trim());
    const statements = rest.filter((line) => line !== "" && !FOREIGN_KEYS_PRAGMA.test(line));
    if (statements.length !== 1) return false;
    const table = /^DROP TABLE "([^"]+)";$/.exec(statements[0]!)?.[1];
    const index = /^DROP INDEX "([^"]+)";$/.exec(statements[0]!)?.[1];
    if (header === "-- DropTable" && table !== undefined) return objects.tables.includes(table);
    if (header === "-- DropIndex" && index !== undefined) return objects.indexes.includes(index);
    return false;
  };
  const kept = steps.filter((step) => !tolerated(step));
  if (kept.length === steps.length) return script;
  const rest = kept.flat().join("\n");
  const withoutComments = rest.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*--.*$/gm, "");
  return withoutComments.trim() === "" ? "" : rest;
}

/** The table a hand-written trigger or index is on: the start of its name. */
const tableOf = (name: string) => name.slice(0, name.indexOf("_"));

/**
 * The HAND_WRITTEN_OBJECTS missing from the database at `databaseUrl` (already migrated), as
 * messages; [] when all are there. Each index and each trigger must be on the table its name
 * begins with.
 */
export async function missingHandWrittenObjects(databaseUrl: string): Promise<string[]> {
  const provider = providerOf(databaseUrl);
  const objects = HAND_WRITTEN_OBJECTS[provider];
  const missing: string[] = [];
  if (provider === "sqlite") {
    const db = new Database(sqliteFilePath(databaseUrl), { readonly: true, fileMustExist: true });
    try {
      const find = db.prepare<[string, string], { tbl_name: string }>("SELECT tbl_name FROM sqlite_master WHERE type = ? AND name = ?");
      for (const name of objects.tables) if (!find.get("table", name)) missing.push(`table "${name}"`);
      for (const name of objects.triggers) {
        if (find.get("trigger", name)?.tbl_name !== tableOf(name)) missing.push(`trigger "${name}" on "${tableOf(name)}"`);
      }
    } finally {
      db.close();
    }
    return missing;
  }

  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema");
  url.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    if (schema) await client.query(`SET search_path TO "${schema.replaceAll('"', '""')}"`);
    for (const name of objects.extensions) {
      const found = await client.query("SELECT 1 FROM pg_extension WHERE extname = $1", [name]);
      if (found.rowCount === 0) missing.push(`extension ${name}`);
    }
    for (const name of objects.tables) {
      const found = await client.query(`SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1`, [name]);
      if (found.rowCount === 0) missing.push(`table "${name}"`);
    }
    for (const name of objects.indexes) {
      const found = await client.query(`SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $2 AND indexname = $1`, [
        name,
        tableOf(name),
      ]);
      if (found.rowCount === 0) missing.push(`index "${name}" on "${tableOf(name)}"`);
    }
    for (const name of objects.functions) {
      const found = await client.query(
        `SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema() AND p.proname = $1`,
        [name],
      );
      if (found.rowCount === 0) missing.push(`function "${name}"`);
    }
    for (const name of objects.triggers) {
      // Enabled too: a trigger left disabled (ALTER TABLE ... DISABLE TRIGGER) would be as bad as none.
      const found = await client.query(
        `SELECT 1 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relname = $2 AND t.tgname = $1 AND t.tgenabled <> 'D'`,
        [name, tableOf(name)],
      );
      if (found.rowCount === 0) missing.push(`trigger "${name}" on "${tableOf(name)}"`);
    }
  } finally {
    await client.end();
  }
  return missing;
}

/**
 * What `missingHandWrittenObjects` reports for a new database built from the committed migrations
 * of `provider` (a temporary SQLite file; a scratch database on MIGRATION_SHADOW_POSTGRES_URL).
 */
export async function handWrittenObjectsMissingAfterMigrations(provider: Provider): Promise<string[]> {
  if (provider === "postgresql") {
    return withScratchPostgresDatabase(async (url) => {
      await applyPendingMigrations(url);
      return missingHandWrittenObjects(url);
    });
  }
  const folder = mkdtempSync(path.join(tmpdir(), "mig-objects-"));
  try {
    const url = `file:${path.join(folder, "replay.db")}`;
    await applyPendingMigrations(url);
    return await missingHandWrittenObjects(url);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Applying migrations

export interface ApplyOptions {
  /** Receives progress messages; silent by default. */
  log?: Log;
  /** The folder of the migrations to apply; default prisma/migrations/<provider>. */
  migrationsDir?: string;
}

/**
 * Applies the committed migrations (prisma/migrations/<provider>/) that the database has not
 * recorded yet, each in its own transaction, recorded as Prisma records them (`apply` of
 * prisma-migrate.ts: it refuses edited and failed migrations and a non-empty database without a
 * history, and is safe when several processes start at once). Returns the names applied.
 */
export async function applyPendingMigrations(databaseUrl: string, options: ApplyOptions = {}): Promise<string[]> {
  const provider = providerOf(databaseUrl);
  return apply(databaseUrl, readLocalMigrations(provider, options.migrationsDir ?? paths.migrations(provider)), { log: options.log });
}

// ---------------------------------------------------------------------------------------------
// New migrations

/** `yyyymmddhhmmss` in UTC, the prefix of Prisma's migration folder names. */
export function migrationTimestamp(date = new Date()): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/**
 * The folder-name form of a migration name, close to what the Prisma CLI makes of it: words in
 * snake_case, ASCII only (accents dropped), at most 200 characters.
 */
export function migrationSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 200);
}
