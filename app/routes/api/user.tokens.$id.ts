import type { Route } from "./+types/user.tokens.$id";
import { deletedApiToken } from "~/features/tokens/api-token-schemas.ts";
import { deleteApiToken } from "~/features/tokens/api-tokens.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    DELETE: async ({ params, context }) => json(await deleteApiToken(requireActor(actorOf(context)), params.id)),
  },
  {
    DELETE: {
      operationId: "deleteApiToken",
      tag: "Users",
      auth: "session",
      roles: "the token's owner, or an administrator of the owner's organization",
      summary: "Delete a personal API token: it stops working at once.",
      success: { status: 200, description: "The deleted token's id.", schema: deletedApiToken },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
