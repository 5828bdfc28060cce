import { submissionDetail } from "~/features/submissions/submission-schemas.ts";
import type { Route } from "./+types/submissions.$id";
import { getSubmission } from "~/features/submissions/submissions.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await getSubmission(requireActor(actorOf(context)), params.id)),
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
  },
);

export const loader = handle;
export const action = handle;
