import { createCandidateBody, listCandidatesQuery } from "~/features/candidates/candidate-schemas.ts";
import { createCandidate, listCandidates } from "~/features/candidates/candidates.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await listCandidates(actor, readQuery(request, listCandidatesQuery)));
  },
  POST: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await createCandidate(actor, await readJsonOrFormBody(request, createCandidateBody)), 201);
  },
});

export const loader = handle;
export const action = handle;
