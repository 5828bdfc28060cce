import path from "node:path";
import { fileURLToPath } from "node:url";

import { paths, type Provider } from "./schemas.ts";

/**
 * A relative SQLite path is taken from the project root, as scripts/migrate.ts does, so a script
 * works on the file that was migrated whatever the working directory.
 */
export function resolveDatabaseUrl(databaseUrl: string): string {
  const relative = /^file:(?!\/)(.+)$/.exec(databaseUrl)?.[1];
  if (!relative) return databaseUrl;
  return `file:${path.resolve(import.meta.dirname, "../..", relative)}`;
}

/** The URL with any password replaced, fit for printing. */
export function describeDatabase(databaseUrl: string): string {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) return databaseUrl;
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "a PostgreSQL database";
  }
}

/** Thrown for every problem a person has to solve (edited or failed migrations, bad URL...). */
export class MigrationError extends Error {
  override name = "MigrationError";
}

/** "postgresql" for postgres:// and postgresql:// URLs, "sqlite" for file: URLs. */
export function providerOf(databaseUrl: string): Provider {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) return "postgresql";
  if (/^file:/i.test(databaseUrl)) return "sqlite";
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(databaseUrl)?.[1];
  throw new MigrationError(
    `Unsupported DATABASE_URL${scheme ? ` (scheme "${scheme}:")` : ""}: expected file:<path> for SQLite ` +
      `or postgresql://user@host:port/database for PostgreSQL.`,
  );
}

/**
 * The absolute path of the SQLite file of a `file:` URL. Relative paths are resolved against the
 * project root (not the working directory), as Prisma does for the URL in prisma.config.ts, so
 * `file:./data/app.db` is always <root>/data/app.db. Query parameters are ignored.
 */
export function sqliteFilePath(databaseUrl: string): string {
  if (providerOf(databaseUrl) !== "sqlite") throw new MigrationError(`Not a SQLite URL: ${databaseUrl}`);
  const withoutQuery = databaseUrl.replace(/\?.*$/, "");
  if (/^file:\/\//i.test(withoutQuery)) return fileURLToPath(withoutQuery);
  const file = decodeURIComponent(withoutQuery.slice("file:".length));
  if (!file || file === ":memory:") throw new MigrationError(`DATABASE_URL must name a SQLite file: ${databaseUrl}`);
  return path.resolve(paths.root, file);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
