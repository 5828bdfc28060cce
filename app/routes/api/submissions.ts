import { createSubmissionBody, listSubmissionsQuery } from "~/features/submissions/submission-schemas.ts";
import { assignForm, listSubmissions } from "~/features/submissions/submissions.server.ts";
import { requireActor, requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ request, context }) => {
    const actor = requireActor(actorOf(context));
    return json(await listSubmissions(actor, readQuery(request, listSubmissionsQuery)));
  },
  POST: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await assignForm(actor, await readJsonBody(request, createSubmissionBody)), 201);
  },
});

export const loader = handle;
export const action = handle;
