import type { Route } from "./+types/users.$id";
import { updateUserBody } from "~/features/users/user-admin-schemas.ts";
import { updateUser } from "~/features/users/user-admin.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  PATCH: async ({ request, params, context }) => {
    const actor = requireActor(actorOf(context));
    return json(await updateUser(actor, params.id, await readJsonBody(request, updateUserBody)));
  },
});

export const loader = handle;
export const action = handle;
