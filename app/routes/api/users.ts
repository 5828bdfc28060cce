import { createUserBody } from "~/features/users/user-schemas.ts";
import { createUser } from "~/features/users/users.server.ts";
import { requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint({
  POST: async ({ request, context }) => {
    const actor = requireAdmin(actorOf(context));
    return json(await createUser(actor, await readJsonBody(request, createUserBody)), 201);
  },
});

export const loader = handle;
export const action = handle;
