// Applies the pending migrations to DATABASE_URL (default file:./data/app.db, relative to the
// project root):
//
//   npm run db:migrate
//
// Needs no Prisma engine binary; the history is kept in Prisma's `_prisma_migrations` table.

import { applyPendingMigrations, MigrationError, providerOf, sqliteFilePath } from "../server/database/migrations.ts";
import { refreshSearchTextAfter } from "../server/database/search-text.ts";

const DEFAULT_DATABASE_URL = "file:./data/app.db";

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const applied = await applyPendingMigrations(databaseUrl, { log: (message) => console.log(message) });
  if (applied.length === 0) {
    console.log("No pending migrations: the database is up to date.");
  } else {
    console.log(`Applied ${applied.length} migration(s):\n${applied.map((name) => `- ${name}`).join("\n")}`);
  }
  const url = providerOf(databaseUrl) === "sqlite" ? `file:${sqliteFilePath(databaseUrl)}` : databaseUrl;
  await refreshSearchTextAfter(url, applied, (message) => console.log(message));
}

main().catch((error: unknown) => {
  // A MigrationError explains itself; anything else (e.g. an unreachable server) gets its stack.
  console.error(error instanceof MigrationError ? error.message : error);
  process.exitCode = 1;
});
