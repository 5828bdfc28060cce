import { inject } from "vitest";
import type { Actor } from "../../app/lib/auth/actor.server.ts";
import { createDatabase, type Database } from "../../app/lib/db.server.ts";

let database: Database | undefined;

/**
 * The test server's own database, for assertions the API cannot make (a soft-deleted row is still
 * stored), and to inject faults (a trigger that fails a marked write).
 */
export function testDatabase(): Database {
  database ??= retryingBusyWrites(createDatabase(inject("databaseUrl")));
  return database;
}

/**
 * This process writes to the test server's SQLite file from a connection of its own (a thousand
 * rows at once, in some tests) while the server writes from its own. In WAL mode a write whose
 * snapshot another connection has just moved past is refused at once with SQLITE_BUSY, whatever
 * the busy timeout (Prisma: P1008, "Operation has timed out"); the refused statement changed
 * nothing, and run again it starts from a fresh snapshot. The app's own process has one
 * connection and meets no other writer in production.
 */
function retryingBusyWrites(client: Database): Database {
  return client.$extends({
    query: {
      async $allOperations({ args, query }) {
        for (let attempt = 1; ; attempt += 1) {
          try {
            return await query(args);
          } catch (error) {
            if (attempt >= 5 || (error as { code?: unknown }).code !== "P1008") throw error;
          }
        }
      },
    },
  }) as unknown as Database;
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
