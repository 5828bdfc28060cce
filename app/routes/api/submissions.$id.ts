import type { Route } from "./+types/submissions.$id";
import { getSubmission } from "~/features/submissions/submissions.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  GET: async ({ params, context }) => json(await getSubmission(requireActor(actorOf(context)), params.id)),
});

export const loader = handle;
export const action = handle;
