// Creates the next migration, for SQLite and PostgreSQL at once, from the changes made to
// prisma/schema.prisma since the committed migrations:
//
//   npm run db:migration:create -- <name>
//
// writes prisma/migrations/{sqlite,postgresql}/<UTC yyyymmddhhmmss>_<name>/migration.sql. Works
// offline, but the PostgreSQL diff needs a server where it may create a scratch database
// (MIGRATION_SHADOW_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/postgres).
// Review the SQL before committing: it is what every existing database will run.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { diffSchemaAgainstMigrations, migrationSlug, migrationTimestamp, providers, type Provider } from "../server/database/migrations.ts";
import { lockfileContent } from "../server/database/prisma-migrate.ts";
import { paths } from "../server/database/schemas.ts";

function usage(): never {
  console.error("Usage: npm run db:migration:create -- <name>   (e.g. add_student_notes)");
  process.exit(2);
}

/** Writes migration_lock.toml as `prisma migrate dev` does, unless it is already current. */
function writeLockfile(provider: Provider): void {
  const file = path.join(paths.migrations(provider), "migration_lock.toml");
  const content = lockfileContent(provider);
  if (existsSync(file) && readFileSync(file, "utf8") === content) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]?.startsWith("-")) usage();
  const slug = migrationSlug(args[0] ?? "");
  if (!slug) usage();
  const name = `${migrationTimestamp()}_${slug}`;

  // Compute both diffs before writing anything, so a failure leaves no half-created migration.
  const scripts = new Map<Provider, string>();
  for (const provider of providers) {
    console.log(`Comparing prisma/migrations/${provider} with the schema...`);
    scripts.set(provider, await diffSchemaAgainstMigrations(provider));
  }

  let created = 0;
  for (const [provider, sql] of scripts) {
    writeLockfile(provider);
    if (sql === "") {
      console.log(`${provider}: no changes, no migration created.`);
      continue;
    }
    const folder = path.join(paths.migrations(provider), name);
    if (existsSync(folder)) throw new Error(`${path.relative(paths.root, folder)} already exists.`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "migration.sql"), sql);
    console.log(`${provider}: created ${path.relative(paths.root, folder)}/migration.sql`);
    created += 1;
  }
  if (created > 0) console.log("Review the SQL, then apply it with `npm run db:migrate`.");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
