import type { Route } from "./+types/candidates.$id";
import { updateCandidateBody } from "~/features/candidates/candidate-schemas.ts";
import { deleteCandidate, getCandidate, updateCandidate } from "~/features/candidates/candidates.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  GET: async ({ params, context }) => json(await getCandidate(requireStaff(actorOf(context)), params.id)),
  PUT: async ({ request, params, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await updateCandidate(actor, params.id, await readJsonOrFormBody(request, updateCandidateBody)));
  },
  DELETE: async ({ params, context }) => json(await deleteCandidate(requireStaff(actorOf(context)), params.id)),
});

export const loader = handle;
export const action = handle;
