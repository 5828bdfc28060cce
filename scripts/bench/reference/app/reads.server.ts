import { createDatabase } from "../../../../app/lib/db.server.ts";
import { dialectOf, numberedPlaceholders } from "../../../../app/lib/sql-client.server.ts";
import { type Caller, callerOf, type Reads } from "../../baseline-reads.ts";

/**
 * The reference app's statements go through Prisma's client, made as the app makes it
 * (createDatabase: the same adapter, connection settings and statement cache), as raw SQL: the
 * same statements the app and the baseline run, so that what differs is the layers around them.
 */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("the reference app needs DATABASE_URL");
const prisma = createDatabase(databaseUrl);
const dialect = dialectOf(databaseUrl);
const text = (sql: string) => (dialect === "postgresql" ? numberedPlaceholders(sql) : sql);

export const reads: Reads = {
  dialect,
  all: <T>(sql: string, params: unknown[] = []) => prisma.$queryRawUnsafe<T[]>(text(sql), ...params),
  run: (sql: string, params: unknown[] = []) => prisma.$executeRawUnsafe(text(sql), ...params),
};

const secret = process.env.SESSION_SECRET;
if (!secret) throw new Error("the reference app needs SESSION_SECRET, the app's");

/** The caller of a request, or a 401 answer to throw. */
export async function callerOrRefusal(request: Request): Promise<Caller> {
  const caller = await callerOf(reads, request.headers.get("cookie"), secret!);
  if (!caller) throw Response.json({ status: 401 }, { status: 401 });
  return caller;
}

/** A JSON answer with the app's headers for it: no caching. */
export const json = (data: unknown) => Response.json(data, { headers: { "Cache-Control": "no-store" } });
