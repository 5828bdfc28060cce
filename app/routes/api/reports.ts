import { STAFF } from "~/lib/api-operation.ts";
import { listReportsQuery, reportListResponse } from "~/features/reports/report-schemas.ts";
import { listReportChanges, listReports } from "~/features/reports/reports.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      const query = readQuery(request, listReportsQuery);
      const { updatedSince } = query;
      return json(updatedSince ? await listReportChanges(actor, { ...query, updatedSince }) : await listReports(actor, query));
    },
  },
  {
    GET: {
      operationId: "listReports",
      tag: "Reports",
      auth: "session",
      roles: STAFF,
      summary: "Completed submissions with their scores: teachers see the ones they assigned, administrators all.",
      query: listReportsQuery,
      success: {
        status: 200,
        description: "A page of reports, most recently completed first; with updatedSince, the changes since then, oldest first, deletions included.",
        schema: reportListResponse,
      },
      errors: [400, 401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
