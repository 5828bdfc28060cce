import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { decryptSecret, encryptSecret } from "../app/lib/crypto.server.ts";
import type { Database as AppDatabase } from "../app/lib/db.server.ts";
import { providerOf, sqliteFilePath } from "./database/migrations.ts";
import { MIGRATIONS_TABLE } from "./database/prisma-migrate.ts";

/**
 * What `npm start` and `npm run setup` do to a database before the service uses it
 * (docs/decisions/0016-operating-the-service.md): one start-up at a time, a database that exists,
 * and the ENCRYPTION_KEY it was set up with.
 */
export class InstallationError extends Error {
  override name = "InstallationError";
}

/** Any number other services do not use; only our own start-ups take it. */
const STARTUP_LOCK_KEY = 720_931_016;
const SQLITE_LOCK_WAIT_MS = 120_000;

/**
 * Runs `work` (migrations, first-run checks, the demo seed) while no other instance starting on the
 * same database does: a session-level advisory lock on PostgreSQL, an exclusive transaction on a
 * lock file beside the SQLite database. Both are released by the operating system or the server
 * if the process dies, so a crash never leaves a stale lock.
 */
export async function withStartupLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  if (providerOf(databaseUrl) === "postgresql") {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
      return await work();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [STARTUP_LOCK_KEY]).catch(() => {});
      await client.end();
    }
  }
  // A development database may not have its folder yet (a fresh checkout); production checked it.
  const file = sqliteFilePath(databaseUrl);
  mkdirSync(path.dirname(file), { recursive: true });
  const lock = new Database(`${file}.startup-lock`);
  try {
    lock.pragma(`busy_timeout = ${SQLITE_LOCK_WAIT_MS}`);
    lock.exec("BEGIN EXCLUSIVE");
    try {
      return await work();
    } finally {
      lock.exec("ROLLBACK");
    }
  } finally {
    lock.close();
  }
}

const SETUP_HINT = "A new installation is created only by `npm run setup -- --org … --admin-email … --time-zone …` (see the README's production section).";

/**
 * In production the service never creates its database: a missing SQLite file (or folder), a
 * PostgreSQL database that does not exist or has never been migrated means DATABASE_URL points
 * somewhere unexpected (a typo, an unmounted volume) or the setup was not run.
 */
export async function assertDatabaseInstalled(databaseUrl: string, describe: string): Promise<void> {
  if (providerOf(databaseUrl) === "sqlite") {
    const file = sqliteFilePath(databaseUrl);
    if (!existsSync(path.dirname(file))) {
      throw new InstallationError(`DATABASE_URL names ${file}, but the folder ${path.dirname(file)} does not exist. Check DATABASE_URL. ${SETUP_HINT}`);
    }
    if (!existsSync(file)) throw new InstallationError(`There is no database at ${file}. Check DATABASE_URL. ${SETUP_HINT}`);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const migrated = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(MIGRATIONS_TABLE);
      if (!migrated) throw new InstallationError(`The database at ${file} is empty. ${SETUP_HINT}`);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === "3D000") {
      throw new InstallationError(
        `The PostgreSQL database of DATABASE_URL (${describe}) does not exist. Check DATABASE_URL; create the database (createdb) and run the setup. ${SETUP_HINT}`,
      );
    }
    throw error;
  }
  try {
    const { rows } = await client.query("SELECT to_regclass($1) IS NOT NULL AS migrated", [MIGRATIONS_TABLE]);
    if (!rows[0]?.migrated) throw new InstallationError(`The PostgreSQL database of DATABASE_URL (${describe}) is empty. ${SETUP_HINT}`);
  } finally {
    await client.end();
  }
}

export const ORGANIZATION_MISSING = `The database has no organization yet. ${SETUP_HINT}`;

const KEY_CHECK = "encryption-key-check";
const KEY_CHECK_PLAIN = "assessment-service encryption key check";

/**
 * Second-factor secrets are encrypted with ENCRYPTION_KEY. A value encrypted with the key is kept
 * in the database the first time the service starts; a later start with another key (a restore
 * without its key, a typo) stops with a message naming ENCRYPTION_KEY instead of failing every
 * second-factor sign-in with a 500.
 */
export async function verifyEncryptionKey(db: AppDatabase): Promise<void> {
  const stored = await db.instanceSetting.findUnique({ where: { key: KEY_CHECK } });
  if (!stored) {
    await db.instanceSetting.upsert({ where: { key: KEY_CHECK }, create: { key: KEY_CHECK, value: encryptSecret(KEY_CHECK_PLAIN) }, update: {} });
    return;
  }
  let plain: string | null = null;
  try {
    plain = decryptSecret(stored.value);
  } catch {
    plain = null;
  }
  if (plain !== KEY_CHECK_PLAIN) {
    throw new InstallationError(
      "ENCRYPTION_KEY is not the key this database was set up with: second-factor secrets could not be read. " +
        "Start with the ENCRYPTION_KEY kept with this database's backups.",
    );
  }
}
