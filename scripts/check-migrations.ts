// Drift check, for CI and before committing:
//
//   npm run db:migration:check
//
// Fails when prisma/schema.prisma has changes that the committed migrations of either database do
// not contain (someone edited the schema but did not run `npm run db:migration:create`), or when the
// migrations no longer replay cleanly. Prints the SQL that is missing. The hand-written objects
// (HAND_WRITTEN_OBJECTS in server/database/migrations.ts: the search index of
// docs/decisions/0011-substring-search.md, the version triggers of docs/decisions/0013-report-totals.md)
// are not in the schema: the check ignores exactly them in the diff, and instead fails when a
// database built from the migrations lacks one of them.

import { diffSchemaAgainstMigrations, handWrittenObjectsMissingAfterMigrations, providers } from "../server/database/migrations.ts";

async function main(): Promise<void> {
  let drift = false;
  let missingObjects = false;
  for (const provider of providers) {
    const sql = await diffSchemaAgainstMigrations(provider);
    if (sql === "") {
      console.log(`${provider}: migrations match the schema.`);
    } else {
      drift = true;
      console.log(`${provider}: the schema differs from prisma/migrations/${provider}; missing SQL:\n\n${sql}\n`);
    }
    const missing = await handWrittenObjectsMissingAfterMigrations(provider);
    if (missing.length === 0) {
      console.log(`${provider}: the hand-written objects are in place.`);
    } else {
      missingObjects = true;
      console.log(
        `${provider}: a database built from the migrations lacks ${missing.join(", ")}. A migration dropped them ` +
          `(a SQLite rebuild of "Submission" drops its triggers): recreate them in a new migration ` +
          `(see docs/decisions/0011-substring-search.md and 0013-report-totals.md).\n`,
      );
    }
  }
  if (drift) console.log("Create the migration with `npm run db:migration:create -- <name>` and commit it.");
  if (drift || missingObjects) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
