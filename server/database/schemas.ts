// Where the Prisma schemas and migrations live, and how the PostgreSQL schema is derived from the
// SQLite one. Shared by scripts/prisma-generate.ts and server/database/migrations.ts.

import path from "node:path";

export type Provider = "sqlite" | "postgresql";

export const providers: readonly Provider[] = ["sqlite", "postgresql"];

const root = path.resolve(import.meta.dirname, "..", "..");

export const paths = {
  /** The project root; relative `file:` URLs are resolved against it. */
  root,
  /** The one hand-written schema (provider sqlite). */
  sqliteSchema: path.join(root, "prisma", "schema.prisma"),
  /** Derived from sqliteSchema by derivePostgresqlSchema; git-ignored. */
  postgresqlSchema: path.join(root, "prisma", "postgresql", "schema.prisma"),
  /** prisma/migrations/<provider>/<timestamp>_<name>/migration.sql */
  migrations: (provider: Provider): string => path.join(root, "prisma", "migrations", provider),
};

const HEADER = [
  "// generated, do not edit: derived from prisma/schema.prisma by scripts/prisma-generate.ts",
  "// (npm run db:generate). Only the datasource provider (postgresql) and the client output",
  "// (app/generated/prisma/postgresql) differ; edit prisma/schema.prisma instead.",
  "",
  "",
].join("\n");

/**
 * Returns the PostgreSQL twin of the SQLite schema: the `datasource` provider becomes "postgresql"
 * and each generator output ending in `/sqlite` is redirected to the sibling `/postgresql` folder,
 * re-expressed relative to prisma/postgresql/ where the derived file lives. Everything else (models,
 * comments) is copied verbatim. Throws when the schema does not have the expected shape, rather than
 * silently producing a second SQLite schema.
 */
export function derivePostgresqlSchema(sqliteSchema: string): string {
  const sourceDir = path.dirname(paths.sqliteSchema);
  const targetDir = path.dirname(paths.postgresqlSchema);
  let block: "datasource" | "generator" | "other" | null = null;
  let providersSwitched = 0;
  let outputsMoved = 0;

  const lines = sqliteSchema.split("\n").map((line) => {
    const opening = /^\s*(datasource|generator|model|enum|view|type)\s+\w+\s*\{/.exec(line);
    if (opening) {
      block = opening[1] === "datasource" || opening[1] === "generator" ? opening[1] : "other";
      return line;
    }
    if (/^\s*\}/.test(line)) {
      block = null;
      return line;
    }
    if (block === "datasource") {
      const provider = /^(\s*provider\s*=\s*)"([^"]*)"(.*)$/.exec(line);
      if (provider) {
        if (provider[2] !== "sqlite") {
          throw new Error(`prisma/schema.prisma: expected datasource provider "sqlite", found "${provider[2]}"`);
        }
        providersSwitched += 1;
        return `${provider[1]}"postgresql"${provider[3]}`;
      }
    }
    if (block === "generator") {
      const output = /^(\s*output\s*=\s*)"([^"]*)"(.*)$/.exec(line);
      if (output) {
        const absolute = path.resolve(sourceDir, output[2] ?? "");
        if (path.basename(absolute) !== "sqlite") {
          throw new Error(`prisma/schema.prisma: generator output "${output[2]}" must end in /sqlite`);
        }
        const moved = path.join(path.dirname(absolute), "postgresql");
        outputsMoved += 1;
        return `${output[1]}"${path.relative(targetDir, moved).split(path.sep).join("/")}"${output[3]}`;
      }
    }
    return line;
  });

  if (providersSwitched !== 1) {
    throw new Error(`prisma/schema.prisma: expected exactly one datasource provider, found ${providersSwitched}`);
  }
  if (outputsMoved === 0) throw new Error("prisma/schema.prisma: no generator output to redirect");
  return HEADER + lines.join("\n");
}
