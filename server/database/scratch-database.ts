// Throw-away PostgreSQL databases, for the schema engine's shadow database (prisma-migrate.ts) and
// for building a database from the migrations to check it (migrations.ts).

import { randomUUID } from "node:crypto";

import pg from "pg";

import { describeDatabase, errorMessage } from "./database-url.ts";

/** Where scratch PostgreSQL databases are created, unless MIGRATION_SHADOW_POSTGRES_URL says otherwise. */
const DEFAULT_POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

/** Names of scratch databases start with this, so leftovers are easy to recognise and drop. */
const SCRATCH_DATABASE_PREFIX = "mig_scratch_";

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Creates an empty scratch database (mig_scratch_*) on the server of MIGRATION_SHADOW_POSTGRES_URL
 * (default: the local server), runs `use` with its URL and drops it again, even on failure.
 */
export async function withScratchPostgresDatabase<T>(use: (url: string) => Promise<T>): Promise<T> {
  const adminUrl = process.env.MIGRATION_SHADOW_POSTGRES_URL || DEFAULT_POSTGRES_ADMIN_URL;
  const name = `${SCRATCH_DATABASE_PREFIX}${Date.now()}_${randomUUID().slice(0, 8)}`;
  const scratchUrl = new URL(adminUrl);
  scratchUrl.pathname = `/${name}`;

  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `Cannot reach PostgreSQL at ${describeDatabase(adminUrl)} to create a scratch database ` +
        `(set MIGRATION_SHADOW_POSTGRES_URL to a server where you may create databases): ${errorMessage(error)}`,
      { cause: error },
    );
  }
  try {
    await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    try {
      return await use(scratchUrl.toString());
    } finally {
      // FORCE (PostgreSQL 13+) also ends connections a pool may not have closed yet.
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
