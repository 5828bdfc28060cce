import type { Route } from "./+types/forms.$id";
import { updateFormBody } from "~/features/forms/form-schemas.ts";
import { deleteForm, getForm, updateForm } from "~/features/forms/forms.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  GET: async ({ params, context }) => json(await getForm(requireStaff(actorOf(context)), params.id)),
  PUT: async ({ request, params, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await updateForm(actor, params.id, await readJsonBody(request, updateFormBody)));
  },
  DELETE: async ({ params, context }) => json(await deleteForm(requireStaff(actorOf(context)), params.id)),
});

export const loader = handle;
export const action = handle;
