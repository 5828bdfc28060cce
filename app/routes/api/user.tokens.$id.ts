import type { Route } from "./+types/user.tokens.$id";
import { deletedApiToken } from "~/features/tokens/api-token-schemas.ts";
import { deleteApiToken } from "~/features/tokens/api-tokens.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    DELETE: async ({ params, context }) => json(await deleteApiToken(requireSessionCaller(requireActor(actorOf(context))), params.id)),
  },
  {
    DELETE: {
      operationId: "deleteApiToken",
      tag: "Users",
      auth: "session",
      roles:
        "the token's owner, or an administrator who may manage the owner (a SUPER_ADMIN's only a SUPER_ADMIN); from a session: 403 TOKEN_SCOPE with a token",
      summary: "Delete a personal API token: it stops working at once.",
      success: { status: 200, description: "The deleted token's id.", schema: deletedApiToken },
      errors: [401, 403, 404],
      codes: { 403: ["TOKEN_SCOPE"] },
    },
  },
);

export const loader = handle;
export const action = handle;
