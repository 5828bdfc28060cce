import type { Route } from "./+types/candidates.$id.promote";
import { promoteCandidate } from "~/features/candidates/candidates.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  POST: async ({ params, context }) => json(await promoteCandidate(requireStaff(actorOf(context)), params.id), 201),
});

export const loader = handle;
export const action = handle;
