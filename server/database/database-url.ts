import path from "node:path";

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
