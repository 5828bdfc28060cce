import type { Route } from "./+types/users.$id.tokens";
import { apiTokenList } from "~/features/tokens/api-token-schemas.ts";
import { listUserApiTokens } from "~/features/tokens/api-tokens.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await listUserApiTokens(requireStaff(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "listUserApiTokens",
      tag: "Users",
      auth: "session",
      roles: "ADMIN, SUPER_ADMIN (a SUPER_ADMIN's tokens only a SUPER_ADMIN)",
      summary: "A user's personal API tokens, without their secret (to delete one with DELETE /api/user/tokens/:id).",
      success: { status: 200, description: "The tokens, with their scopes.", schema: apiTokenList },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
