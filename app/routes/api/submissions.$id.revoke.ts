import { submissionDetail } from "~/features/submissions/submission-schemas.ts";
import type { Route } from "./+types/submissions.$id.revoke";
import { revokeSubmission } from "~/features/submissions/submissions.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ params, context }) => json(await revokeSubmission(requireStaff(actorOf(context)), params.id)),
  },
  {
    POST: {
      operationId: "revokeSubmission",
      tag: "Submissions",
      auth: "session",
      roles: "the assigner, ADMIN, SUPER_ADMIN",
      summary: "Withdraw a link: from now on it answers 410 LINK_REVOKED. Revoking twice changes nothing.",
      success: { status: 200, description: "The revoked submission.", schema: submissionDetail },
      errors: [401, 403, 404, 409],
      codes: { 409: ["ALREADY_COMPLETED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
