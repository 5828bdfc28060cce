import { STAFF } from "~/lib/api-operation.ts";
import { deletedResponse } from "~/lib/schemas.ts";
import type { Route } from "./+types/forms.$id";
import { formDetail, updateFormBody } from "~/features/forms/form-schemas.ts";
import { deleteForm, getForm, updateForm } from "~/features/forms/forms.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { readIfMatch, versionedJson } from "~/lib/entity-tag.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => versionedJson(await getForm(requireStaff(actorOf(context)), params.id)),
    PUT: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await updateForm(actor, params.id, await readJsonBody(request, updateFormBody), readIfMatch(request)));
    },
    DELETE: async ({ params, context }) => json(await deleteForm(requireStaff(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "getForm",
      tag: "Forms",
      auth: "session",
      roles: STAFF,
      summary: "Read a form with its questions, options (with scores) and score ranges.",
      success: { status: 200, description: "The form.", schema: formDetail },
      versioned: true,
      errors: [401, 403, 404],
    },
    PUT: {
      operationId: "updateForm",
      tag: "Forms",
      auth: "session",
      roles: `${STAFF} (teachers: own forms)`,
      summary:
        "Update the fields sent; `questions` replaces the list (ids keep, no id creates, missing removes). " +
        "A form installed from the instrument library refuses questions, scoreRanges, scoring and subscales (409 INSTRUMENT_LOCKED naming each, whatever their values).",
      body: { schema: updateFormBody, types: ["json"] },
      success: { status: 200, description: "The updated form.", schema: formDetail },
      versioned: true,
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["INSTRUMENT_LOCKED"] },
    },
    DELETE: {
      operationId: "deleteForm",
      tag: "Forms",
      auth: "session",
      roles: `${STAFF} (teachers: own forms)`,
      summary: "Soft-delete a form: it leaves lists and reads, pending links stop, completed results stay.",
      success: { status: 200, description: "Deleted.", schema: deletedResponse },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
