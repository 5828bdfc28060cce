import { browserBody, STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/submissions.$id.acknowledge";
import { acknowledgeBody, acknowledgementResponse } from "~/features/flags/flag-schemas.ts";
import { acknowledgeSubmission } from "~/features/flags/acknowledgement.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await acknowledgeSubmission(actor, params.id, await readJsonOrFormBody(request, acknowledgeBody)));
    },
  },
  {
    POST: {
      operationId: "acknowledgeSubmission",
      tag: "Reports",
      auth: "session",
      roles: `${STAFF}: whoever can read the result (the assigner, ADMIN of its organization, SUPER_ADMIN)`,
      summary:
        'Acknowledge a flagged result (docs/api-contract.md §16), once, with an optional note: it leaves the home page\'s "Needs attention" and `flagged=unacknowledged`. ' +
        "A result without a flag is 409 NOT_FLAGGED; a second acknowledgement 409 ALREADY_ACKNOWLEDGED.",
      body: { schema: acknowledgeBody, types: browserBody },
      success: { status: 200, description: "The acknowledgement as recorded.", schema: acknowledgementResponse },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["NOT_FLAGGED", "ALREADY_ACKNOWLEDGED", "NOT_COMPLETED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
