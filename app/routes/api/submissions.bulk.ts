import { STAFF } from "~/lib/api-operation.ts";
import { bulkAssign } from "~/features/submissions/bulk-assignment.server.ts";
import { bulkAssignBody, bulkAssignResponse } from "~/features/submissions/submission-schemas.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await bulkAssign(actor, await readJsonBody(request, bulkAssignBody)), 201);
    },
  },
  {
    POST: {
      operationId: "bulkAssign",
      idempotencyKey: true,
      tag: "Submissions",
      auth: "session",
      roles: STAFF,
      summary:
        "Assign a form to a group and/or to students and candidates, at most 1,000 at once. Those with a link to it still waiting, and students who are not active, are skipped with the reason. " +
        "Each e-mail it queues (a link with send, a reminder with remindAfterDays) counts against the e-mail quotas; a call that would pass one answers 429 MAIL_QUOTA and creates nothing.",
      body: { schema: bulkAssignBody, types: ["json"] },
      success: {
        status: 201,
        description: "The links created, each with its url, and who was skipped. No Location: each link has its own, /api/submissions/{id}.",
        schema: bulkAssignResponse,
      },
      errors: [400, 401, 403, 404, 409, 413, 415, 429],
      codes: { 409: ["FORM_NOT_PUBLISHED"], 429: ["MAIL_QUOTA"] },
    },
  },
);

export const loader = handle;
export const action = handle;
