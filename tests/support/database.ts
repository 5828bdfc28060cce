import { inject } from "vitest";
import { createDatabase, type Database } from "../../app/lib/db.server.ts";

let database: Database | undefined;

/**
 * The test server's own database, for assertions the API cannot make (a soft-deleted row is still
 * stored), and to inject faults (a trigger that fails a marked write).
 */
export function testDatabase(): Database {
  database ??= createDatabase(inject("databaseUrl"));
  return database;
}
