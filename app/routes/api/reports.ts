import { listReportsQuery } from "~/features/reports/report-schemas.ts";
import { listReports } from "~/features/reports/reports.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readQuery } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await listReports(actor, readQuery(request, listReportsQuery)));
  },
});

export const loader = handle;
export const action = handle;
