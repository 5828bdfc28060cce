// Drift check, for CI and before committing:
//
//   npm run db:migration:check
//
// Fails when prisma/schema.prisma has changes that the committed migrations of either database do
// not contain (someone edited the schema but did not run `npm run db:migration:create`), or when the
// migrations no longer replay cleanly. Prints the SQL that is missing.

import { diffSchemaAgainstMigrations, providers } from "./lib/migrations.ts";

async function main(): Promise<void> {
  let drift = false;
  for (const provider of providers) {
    const sql = await diffSchemaAgainstMigrations(provider);
    if (sql === "") {
      console.log(`${provider}: migrations match the schema.`);
      continue;
    }
    drift = true;
    console.log(`${provider}: the schema differs from prisma/migrations/${provider}; missing SQL:\n\n${sql}\n`);
  }
  if (drift) {
    console.log("Create the migration with `npm run db:migration:create -- <name>` and commit it.");
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
