import type { Route } from "./+types/users.$id.sessions.revoke";
import { revokeSessions } from "~/features/users/user-admin.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  POST: async ({ params, context }) => json(await revokeSessions(requireActor(actorOf(context)), params.id)),
});

export const loader = handle;
export const action = handle;
