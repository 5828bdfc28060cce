import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import type { Actor } from "../../app/lib/auth/actor.server.ts";
import { createDatabase, type Database } from "../../app/lib/db.server.ts";
import { actorOf } from "./actors.ts";

let database: Database | undefined;

/**
 * The test server's own database, for assertions the API cannot make (a soft-deleted row is still
 * stored), and to inject faults (a trigger that fails a marked write).
 */
export function testDatabase(): Database {
  database ??= createDatabase(inject("databaseUrl"));
  return database;
}

/** The Actor a service sees for a seeded user, for tests that call services directly. */
export async function actorFor(email: string): Promise<Actor> {
  const user = await testDatabase().user.findFirstOrThrow({ where: { email }, include: { organization: { select: { timeZone: true } } } });
  return actorOf(user, user.organization.timeZone);
}

/**
 * Server modules loaded into the test process, configured as the suite's server is (its database,
 * mail server, address and encryption key), for a test that calls a service with what HTTP cannot
 * give it: a moved clock, or the work it goes on with after answering.
 */
export async function inTestProcess<T>(load: () => Promise<T>): Promise<T> {
  process.env.DATABASE_URL = inject("databaseUrl");
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "services-"));
  process.env.SMTP_URL = inject("smtpUrl");
  process.env.APP_URL = inject("baseUrl");
  // Imported here, so that the global setup's own modules (an OpenID provider, a mail server) stay
  // out of the files that never call this.
  process.env.ENCRYPTION_KEY = (await import("./global-setup.ts")).TEST_ENCRYPTION_KEY;
  return load();
}
