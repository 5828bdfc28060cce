// Backs up the database of DATABASE_URL into a file, or restores such a file into a new database
// (docs/decisions/0016-operating-the-service.md):
//
//   npm run db:backup -- <file>     SQLite: an online copy (SQLite's backup API) while the service
//                                    runs; PostgreSQL: pg_dump --format=custom
//   npm run db:restore -- <file>    into DATABASE_URL, which must not exist yet (SQLite) or be
//                                    empty (PostgreSQL: createdb first); then start the service with
//                                    the ENCRYPTION_KEY and SESSION_SECRET of the backed-up one
//
// PostgreSQL needs pg_dump and pg_restore (Debian/Ubuntu: postgresql-client) of the server's
// major version or newer.

import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describeDatabase, resolveDatabaseUrl } from "../server/database/database-url.ts";
import { providerOf, sqliteFilePath } from "../server/database/migrations.ts";

const [mode, file] = process.argv.slice(2);
if ((mode !== "backup" && mode !== "restore") || !file) {
  console.error("Usage: npm run db:backup -- <file>   |   npm run db:restore -- <file>");
  process.exit(2);
}
const databaseUrl = resolveDatabaseUrl(process.env.DATABASE_URL?.trim() || "file:./data/app.db");
const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Runs a PostgreSQL client tool; its own message explains a failure. */
function runTool(tool: string, args: string[]): void {
  const result = spawnSync(tool, args, { stdio: "inherit" });
  if (result.error) fail(`${tool} could not be run (${result.error.message}). Install the PostgreSQL client tools (postgresql-client).`);
  if (result.status !== 0) fail(`${tool} failed (exit ${result.status}).`);
}

/** libpq tools take the URL as is; our URLs may carry Prisma-only parameters they would refuse. */
function libpqUrl(url: string): string {
  const parsed = new URL(url);
  for (const name of ["schema", "connection_limit", "pool_timeout"]) parsed.searchParams.delete(name);
  return parsed.toString();
}

async function backup(): Promise<void> {
  if (existsSync(target)) fail(`${target} exists already; choose a new file name.`);
  mkdirSync(path.dirname(target), { recursive: true });
  if (providerOf(databaseUrl) === "sqlite") {
    const source = sqliteFilePath(databaseUrl);
    if (!existsSync(source)) fail(`There is no database at ${source} (DATABASE_URL).`);
    const db = new Database(source, { readonly: true, fileMustExist: true });
    try {
      // Written beside the target and renamed, so a backup file is only ever complete.
      await db.backup(`${target}.partial`);
      renameSync(`${target}.partial`, target);
    } finally {
      db.close();
    }
  } else {
    runTool("pg_dump", ["--format=custom", "--no-owner", `--file=${target}`, `--dbname=${libpqUrl(databaseUrl)}`]);
  }
  console.log(`Backed up ${describeDatabase(databaseUrl)} to ${target} (${statSync(target).size.toLocaleString("en")} bytes).`);
}

async function restore(): Promise<void> {
  if (!existsSync(target)) fail(`There is no backup at ${target}.`);
  if (providerOf(databaseUrl) === "sqlite") {
    const destination = sqliteFilePath(databaseUrl);
    if (existsSync(destination)) fail(`${destination} exists already: restore into a new DATABASE_URL (a new file), never over a database.`);
    mkdirSync(path.dirname(destination), { recursive: true });
    copyFileSync(target, `${destination}.partial`);
    renameSync(`${destination}.partial`, destination);
  } else {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client
      .connect()
      .catch((error: Error) => fail(`Could not connect to ${describeDatabase(databaseUrl)}: ${error.message}. Create it first (createdb).`));
    try {
      const { rows } = await client.query("SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname = current_schema()");
      if (rows[0].tables > 0) fail(`${describeDatabase(databaseUrl)} is not empty: restore into a new, empty database.`);
    } finally {
      await client.end();
    }
    runTool("pg_restore", ["--no-owner", "--exit-on-error", "--single-transaction", `--dbname=${libpqUrl(databaseUrl)}`, target]);
  }
  console.log(
    `Restored ${target} into ${describeDatabase(databaseUrl)}. Start the service with the ENCRYPTION_KEY and SESSION_SECRET of the backed-up installation.`,
  );
}

await (mode === "backup" ? backup() : restore());
