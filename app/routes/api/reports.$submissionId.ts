import type { Route } from "./+types/reports.$submissionId";
import { getReport } from "~/features/reports/reports.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  GET: async ({ params, context }) => json(await getReport(requireStaff(actorOf(context)), params.submissionId)),
});

export const loader = handle;
export const action = handle;
