import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ context }) => json({ role: requireActor(actorOf(context)).role }),
});

export const loader = handle;
export const action = handle;
