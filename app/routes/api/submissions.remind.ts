import { browserBody, STAFF } from "~/lib/api-operation.ts";
import { remindWaitingBody, remindWaitingResponse } from "~/features/submissions/submission-schemas.ts";
import { remindWaiting } from "~/features/submissions/progress.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await remindWaiting(actor, await readJsonOrFormBody(request, remindWaitingBody)), 202);
    },
  },
  {
    POST: {
      operationId: "remindWaiting",
      tag: "Submissions",
      auth: "session",
      roles: STAFF,
      summary:
        "Remind now: queue one reminder e-mail to each respondent of a form (optionally of a group) whose link the caller can see and " +
        "who has not answered yet; respondents e-mailed in the last 10 minutes (or with a message still waiting to go out) and those without an address are counted, not e-mailed. " +
        "The reminders count against the e-mail quotas: past one, 429 MAIL_QUOTA and none is queued.",
      body: { schema: remindWaitingBody, types: browserBody },
      success: { status: 202, description: "Queued.", schema: remindWaitingResponse },
      errors: [400, 401, 403, 404, 413, 415, 429],
      codes: { 429: ["MAIL_QUOTA"] },
    },
  },
);

export const loader = handle;
export const action = handle;
