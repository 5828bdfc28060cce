import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ context }) => {
    const actor = actorOf(context);
    if (!actor) return json({});
    const { userId: id, name, email, role, image, sessionExpiresAt } = actor;
    return json({ user: { id, name, email, role, image }, expires: sessionExpiresAt.toISOString() });
  },
});

export const loader = handle;
export const action = handle;
