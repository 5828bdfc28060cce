import { STAFF } from "~/lib/api-operation.ts";
import { reportDetail } from "~/features/reports/report-schemas.ts";
import type { Route } from "./+types/reports.$submissionId";
import { readReport } from "~/features/reports/reports.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await readReport(requireStaff(actorOf(context)), params.submissionId)),
  },
  {
    GET: {
      operationId: "getReport",
      tag: "Reports",
      auth: "session",
      roles: STAFF,
      summary: "The full report of one completed submission, as scored at completion.",
      success: { status: 200, description: "The report.", schema: reportDetail },
      errors: [401, 403, 404, 409],
      codes: { 409: ["NOT_COMPLETED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
