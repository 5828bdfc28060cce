import { inject } from "vitest";
import type { Actor } from "../../app/lib/auth/actor.server.ts";
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

/** The Actor a service sees for a seeded user, for tests that call services directly. */
export async function actorFor(email: string): Promise<Actor> {
  const user = await testDatabase().user.findFirstOrThrow({ where: { email }, include: { organization: { select: { timeZone: true } } } });
  return {
    userId: user.id,
    sessionId: "test",
    via: "session",
    role: user.role,
    organizationId: user.organizationId,
    name: user.name,
    email: user.email,
    image: null,
    locale: "en",
    timeZone: user.organization.timeZone,
    sessionExpiresAt: new Date(Date.now() + 3_600_000),
  };
}
