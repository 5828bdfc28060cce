import { ADMINS } from "~/lib/api-operation.ts";
import { promotionResponse } from "~/features/candidates/candidate-schemas.ts";
import type { Route } from "./+types/candidates.$id.promote";
import { promoteCandidate } from "~/features/candidates/candidates.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ params, context }) => json(await promoteCandidate(requireStaff(actorOf(context)), params.id), 201),
  },
  {
    POST: {
      operationId: "promoteCandidate",
      tag: "Candidates",
      auth: "session",
      roles: ADMINS,
      summary: "Promote a candidate to a student in one transaction; the evaluation history moves along.",
      success: {
        status: 201,
        description: "The new student and the promoted candidate; Location names the student.",
        schema: promotionResponse,
        location: "/api/students/{student.id}",
      },
      errors: [401, 403, 404, 409],
      codes: { 409: ["ALREADY_PROMOTED", "EMAIL_TAKEN"] },
    },
  },
);

export const loader = handle;
export const action = handle;
