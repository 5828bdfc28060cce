import { db } from "~/lib/db.server.ts";

/** 200 once the database answers a query, 503 otherwise; for load balancers and start scripts. */
export async function loader() {
  try {
    await db.$queryRaw`SELECT 1`;
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("[healthz] database check failed:", error instanceof Error ? error.message : error);
    return Response.json({ status: "unavailable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
