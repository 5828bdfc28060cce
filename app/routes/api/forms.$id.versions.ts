import { STAFF } from "~/lib/api-operation.ts";
import type { Route } from "./+types/forms.$id.versions";
import { formVersionsResponse } from "~/features/forms/rescore-schemas.ts";
import { formVersions } from "~/features/forms/rescore.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await formVersions(requireStaff(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "listFormVersions",
      tag: "Forms",
      auth: "session",
      roles: STAFF,
      summary:
        "The form's versions, oldest first: a change that can change a score raises the version of a form with results (ADR 90). " +
        "Each with the date it was made and how many completed results are scored against it.",
      success: { status: 200, description: "The current version and every version.", schema: formVersionsResponse },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
