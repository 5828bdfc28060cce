import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/forms.$id.summary";
import { formSummary as formSummaryResponse, formSummaryQuery } from "~/features/summaries/form-summary-schemas.ts";
import { formSummary } from "~/features/summaries/form-summary.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readQuery } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ request, params, context }) => json(await formSummary(requireStaff(actorOf(context)), params.id, readQuery(request, formSummaryQuery))),
  },
  {
    GET: {
      operationId: "getFormSummary",
      tag: "Forms",
      auth: "session",
      roles: STAFF,
      summary: "A form at a glance over the caller's results: links by state, the totals' spread, the count in each band, and each question's answers.",
      query: formSummaryQuery,
      success: { status: 200, description: "The summary.", schema: formSummaryResponse },
      errors: [400, 401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
