import { submissionDetail } from "~/features/submissions/submission-schemas.ts";
import type { Route } from "./+types/submissions.$id.send";
import { resendLink } from "~/features/submissions/delivery.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ params, context }) => json(await resendLink(requireStaff(actorOf(context)), params.id), 202),
  },
  {
    POST: {
      operationId: "sendSubmissionLink",
      tag: "Submissions",
      auth: "session",
      roles: "the assigner, ADMIN, SUPER_ADMIN",
      summary:
        "E-mail a waiting link to its respondent (again); queued, at most once every 10 minutes per link counted from when the message was queued, and not while one waits " +
        "to go out (429 RATE_LIMITED); counts against the e-mail quotas (429 MAIL_QUOTA).",
      success: { status: 202, description: "Queued; sentAt and sendCount change once it has gone out.", schema: submissionDetail },
      errors: [401, 403, 404, 409, 410, 429],
      codes: { 409: ["ALREADY_COMPLETED", "NO_EMAIL"], 410: ["LINK_REVOKED", "LINK_EXPIRED"], 429: ["MAIL_QUOTA"] },
    },
  },
);

export const loader = handle;
export const action = handle;
