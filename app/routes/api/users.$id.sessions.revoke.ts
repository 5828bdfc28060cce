import { ADMINS } from "~/lib/api-operation.ts";
import { revokeSessionsResponse } from "~/features/users/user-admin-schemas.ts";
import type { Route } from "./+types/users.$id.sessions.revoke";
import { revokeSessions } from "~/features/users/user-admin.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ params, context }) => json(await revokeSessions(requireActor(actorOf(context)), params.id)),
  },
  {
    POST: {
      operationId: "revokeUserSessions",
      tag: "Users",
      auth: "session",
      roles: ADMINS,
      summary: "End every session and every personal API token of a user (the answer counts the sessions).",
      success: { status: 200, description: "How many sessions ended.", schema: revokeSessionsResponse },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
