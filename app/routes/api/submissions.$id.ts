import { submissionDetail, updateSubmissionBody } from "~/features/submissions/submission-schemas.ts";
import type { Route } from "./+types/submissions.$id";
import { getSubmission, updateSubmission } from "~/features/submissions/submissions.server.ts";
import { browserBody } from "~/lib/api-operation.ts";
import { requireActor, requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await getSubmission(requireActor(actorOf(context)), params.id)),
    PUT: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await updateSubmission(actor, params.id, await readJsonOrFormBody(request, updateSubmissionBody)));
    },
  },
  {
    GET: {
      operationId: "getSubmission",
      tag: "Submissions",
      auth: "session",
      summary: "A submission with its answers; while pending, staff also get its token and url.",
      success: { status: 200, description: "The submission.", schema: submissionDetail },
      errors: [401, 404],
    },
    PUT: {
      operationId: "updateSubmission",
      tag: "Submissions",
      auth: "session",
      roles: "the assigner, ADMIN, SUPER_ADMIN",
      summary: "Extend or shorten a link that is not completed (an expired one comes back to life); null for no expiry.",
      body: { schema: updateSubmissionBody, types: browserBody },
      success: { status: 200, description: "The submission with its new expiry.", schema: submissionDetail },
      errors: [400, 401, 403, 404, 409, 410, 413, 415],
      codes: { 409: ["ALREADY_COMPLETED"], 410: ["LINK_REVOKED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
