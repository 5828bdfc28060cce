import { ADMINS } from "~/lib/api-operation.ts";
import type { Route } from "./+types/users.$id";
import { updateUserBody, userListItem } from "~/features/users/user-admin-schemas.ts";
import { updateUser } from "~/features/users/user-admin.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    PATCH: async ({ request, params, context }) => {
      const actor = requireActor(actorOf(context));
      return json(await updateUser(actor, params.id, await readJsonBody(request, updateUserBody)));
    },
  },
  {
    PATCH: {
      operationId: "updateUser",
      tag: "Users",
      auth: "session",
      roles: ADMINS,
      summary:
        "Change a user's name, role (within what the caller may grant) or active flag; deactivation ends their sessions and API tokens (reactivation revives none).",
      body: { schema: updateUserBody, types: ["json"] },
      success: { status: 200, description: "The user.", schema: userListItem },
      errors: [400, 401, 403, 404, 413, 415],
    },
  },
);

export const loader = handle;
export const action = handle;
