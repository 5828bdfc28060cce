import { createFormBody, listFormsQuery } from "~/features/forms/form-schemas.ts";
import { createForm, listForms } from "~/features/forms/forms.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await listForms(actor, readQuery(request, listFormsQuery)));
  },
  POST: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await createForm(actor, await readJsonBody(request, createFormBody)), 201);
  },
});

export const loader = handle;
export const action = handle;
