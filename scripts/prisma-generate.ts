// Derives the PostgreSQL twin of the data model and generates the Prisma clients of both databases.
//
//   npm run db:generate        (also run by `npm install` as postinstall)
//
// prisma/schema.prisma is the only schema anyone edits. It is written for SQLite; the PostgreSQL
// schema differs only in the datasource provider and the generator output, so it is derived here
// rather than maintained by hand (see docs/decisions/0002-migrations.md).

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { derivePostgresqlSchema, paths } from "../server/database/schemas.ts";

/** Writes prisma/postgresql/schema.prisma when its content changed; returns its path. */
export function writePostgresqlSchema(): string {
  const source = readFileSync(paths.sqliteSchema, "utf8");
  const derived = derivePostgresqlSchema(source);
  mkdirSync(path.dirname(paths.postgresqlSchema), { recursive: true });
  const current = existsSync(paths.postgresqlSchema) ? readFileSync(paths.postgresqlSchema, "utf8") : null;
  if (current !== derived) writeFileSync(paths.postgresqlSchema, derived);
  return paths.postgresqlSchema;
}

function prismaCli(): string {
  // Resolve the CLI of this project rather than relying on node_modules/.bin being on PATH.
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("prisma/package.json")), "build", "index.js");
}

function generate(schemaPath: string): void {
  const env = { ...process.env };
  // `prisma generate` never runs the schema engine, but the CLI insists that its native binary
  // exists and otherwise tries to download it from binaries.prisma.sh, which fails offline. Any
  // existing file satisfies the check; a binary configured by the user is left alone.
  env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
  const relative = path.relative(paths.root, schemaPath);
  console.log(`prisma generate --schema ${relative}`);
  const result = spawnSync(process.execPath, [prismaCli(), "generate", "--schema", relative], {
    cwd: paths.root,
    env,
    stdio: "inherit",
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`prisma generate --schema ${relative} failed (exit code ${result.status ?? result.signal})`);
  }
}

function main(): void {
  const postgresqlSchema = writePostgresqlSchema();
  generate(paths.sqliteSchema);
  generate(postgresqlSchema);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
