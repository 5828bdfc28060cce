// Rewrites the reports' search text of completed submissions whose respondent was renamed before
// the search text followed renames (see server/database/search-text.ts). It runs by itself after that
// migration (npm start, npm run db:migrate); run it by hand if that run was interrupted:
//
//   DATABASE_URL=... npx tsx scripts/refresh-search-text.ts

import { createDatabase } from "../app/lib/db.server.ts";
import { providerOf, sqliteFilePath } from "../server/database/migrations.ts";
import { refreshStaleSearchText } from "../server/database/search-text.ts";

const databaseUrl = process.env.DATABASE_URL || "file:./data/app.db";
// A relative SQLite path is taken from the project root, as scripts/migrate.ts does.
const db = createDatabase(providerOf(databaseUrl) === "sqlite" ? `file:${sqliteFilePath(databaseUrl)}` : databaseUrl);
try {
  const changed = await refreshStaleSearchText(db);
  console.log(`Rewrote the search text of ${changed} completed submission(s).`);
} finally {
  await db.$disconnect();
}
