import { studentAssignmentsResponse } from "~/features/submissions/submission-schemas.ts";
import { studentAssignments } from "~/features/submissions/student-portal.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";

const handle = endpoint(
  {
    GET: async ({ context }) => {
      const actor = requireActor(actorOf(context));
      return json(await studentAssignments(actor, { locale: resolveLocale(actor.locale) }));
    },
  },
  {
    GET: {
      operationId: "listMyAssignments",
      tag: "Users",
      auth: "session",
      roles: "STUDENT",
      summary:
        "A signed-in student's own tests, newest first: those to answer with their link, and those answered with the date " +
        "(score and band only when the form allows it).",
      success: { status: 200, description: "The student's tests.", schema: studentAssignmentsResponse },
      errors: [401, 403],
    },
  },
);

export const loader = handle;
export const action = handle;
