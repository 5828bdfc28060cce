import { checkDatabase, DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailableError, noteDatabaseFailure } from "~/lib/database-health.server.ts";

/**
 * 200 once the database answers a read and accepts a write, 503 otherwise (with or without a
 * session); for load balancers, orchestrators and start scripts.
 */
export async function loader() {
  try {
    await checkDatabase();
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (!noteDatabaseFailure(error) && !isDatabaseUnavailableError(error)) {
      console.error("[healthz] database check failed:", error instanceof Error ? error.message : error);
    }
    return Response.json(
      { status: "unavailable" },
      { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) } },
    );
  }
}
