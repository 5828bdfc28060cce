import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/forms.$id.questions.copy";
import { copyQuestionsBody } from "~/features/forms/copy-questions-schemas.ts";
import { copyQuestions } from "~/features/forms/copy-questions.server.ts";
import { formDetail } from "~/features/forms/form-schemas.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { versionedJson } from "~/lib/entity-tag.server.ts";
import { readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await copyQuestions(actor, params.id, await readJsonBody(request, copyQuestionsBody)));
    },
  },
  {
    POST: {
      operationId: "copyQuestions",
      tag: "Forms",
      auth: "session",
      roles: `${STAFF} (teachers: own forms)`,
      summary:
        "Append copies of questions of another form the caller can read (`fromFormId`, 404 otherwise) to this form, in the order given: with their options, scores, critical flags, scale and reverse scoring. " +
        "A copy keeps its key unless this form has it already; it is then suffixed `_2`, `_3`… Subscales and bands are not copied. " +
        "An id that is not a question of `fromFormId` is a 400 naming `questionIds.N`; a form installed from the instrument library answers 409 INSTRUMENT_LOCKED.",
      body: { schema: copyQuestionsBody, types: ["json"] },
      success: { status: 200, description: "The updated form, as GET /api/forms/{id} answers it.", schema: formDetail },
      versioned: true,
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["INSTRUMENT_LOCKED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
