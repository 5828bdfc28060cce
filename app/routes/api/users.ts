import { listUsersQuery } from "~/features/users/user-admin-schemas.ts";
import { listUsers } from "~/features/users/user-admin.server.ts";
import { createUserBody } from "~/features/users/user-schemas.ts";
import { createUser } from "~/features/users/users.server.ts";
import { requireActor, requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ request, context }) => json(await listUsers(requireActor(actorOf(context)), readQuery(request, listUsersQuery))),
  POST: async ({ request, context }) => {
    const actor = requireAdmin(actorOf(context));
    return json(await createUser(actor, await readJsonBody(request, createUserBody)), 201);
  },
});

export const loader = handle;
export const action = handle;
