import { updateProfileBody } from "~/features/users/user-schemas.ts";
import { getProfile, updateProfile } from "~/features/users/users.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ context }) => json(await getProfile(requireActor(actorOf(context)).userId)),
  PUT: async ({ request, context }) => {
    const actor = requireActor(actorOf(context));
    return json(await updateProfile(actor, await readJsonOrFormBody(request, updateProfileBody)));
  },
});

export const loader = handle;
export const action = handle;
