import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/forms.$id.rescore";
import { rescoreBody, rescoreResponse } from "~/features/forms/rescore-schemas.ts";
import { rescoreForm } from "~/features/forms/rescore.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await rescoreForm(actor, params.id, await readJsonBody(request, rescoreBody)));
    },
  },
  {
    POST: {
      operationId: "rescoreForm",
      tag: "Forms",
      auth: "session",
      roles: `${STAFF} (teachers: own forms)`,
      summary:
        "Score the completed results scored against an earlier version of the form again, against its current questions, options, key, bands and scoring, in one transaction. " +
        "An option no longer on its question counts as not chosen; an answer to a question no longer on the form keeps its row, scored 0. " +
        "Flags stay as they were raised at completion. Every rescored result is recorded as scored against the current version; summaries follow. " +
        "`dryRun: true` answers the same and writes nothing. 409 FORM_CHANGED when the form kept changing while its results were scored.",
      body: { schema: rescoreBody, types: ["json"] },
      success: {
        status: 200,
        description: "How many results were (or would be) rescored, and those whose scores changed, with their scores before and after.",
        schema: rescoreResponse,
      },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["FORM_CHANGED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
