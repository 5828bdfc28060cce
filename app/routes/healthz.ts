import { healthCheck } from "~/lib/database-health.server.ts";

/**
 * 200 once the database answers a read and accepts a write, 503 otherwise (with or without a
 * session); for load balancers, orchestrators and start scripts. The production server answers
 * this path itself, ahead of load shedding (server/app.ts); this route serves `react-router dev`.
 */
export async function loader() {
  const { status, headers, body } = await healthCheck();
  return new Response(body, { status, headers });
}
