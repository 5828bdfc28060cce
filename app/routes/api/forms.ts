import { STAFF } from "~/lib/api-operation.ts";
import { createFormBody, formDetail, formListResponse, listFormsQuery } from "~/features/forms/form-schemas.ts";
import { createForm, listFormChanges, listForms } from "~/features/forms/forms.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { versionedJson } from "~/lib/entity-tag.server.ts";
import { json, readJsonBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      const query = readQuery(request, listFormsQuery);
      const { updatedSince } = query;
      return json(updatedSince ? await listFormChanges(actor, { ...query, updatedSince }) : await listForms(actor, query));
    },
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await createForm(actor, await readJsonBody(request, createFormBody)), 201);
    },
  },
  {
    GET: {
      operationId: "listForms",
      tag: "Forms",
      auth: "session",
      roles: STAFF,
      summary: "List the caller's forms (administrators: the organization's; teachers: their own plus templates).",
      query: listFormsQuery,
      success: {
        status: 200,
        description: "A page of forms, newest first; with updatedSince, the changes since then, oldest first, deletions included.",
        schema: formListResponse,
      },
      errors: [400, 401, 403],
    },
    POST: {
      operationId: "createForm",
      idempotencyKey: true,
      tag: "Forms",
      auth: "session",
      roles: STAFF,
      summary: "Create a form with its questions, options and score ranges.",
      body: { schema: createFormBody, types: ["json"] },
      success: { status: 201, description: "The created form.", schema: formDetail, location: "/api/forms/{id}" },
      versioned: true,
      errors: [400, 401, 403, 413, 415],
    },
  },
);

export const loader = handle;
export const action = handle;
