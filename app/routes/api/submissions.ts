import { STAFF } from "~/lib/api-operation.ts";
import { createSubmissionBody, listSubmissionsQuery, submissionDetail, submissionListResponse } from "~/features/submissions/submission-schemas.ts";
import { assignForm, listSubmissionChanges, listSubmissions } from "~/features/submissions/submissions.server.ts";
import { requireActor, requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      const actor = requireActor(actorOf(context));
      const query = readQuery(request, listSubmissionsQuery);
      const { updatedSince } = query;
      return json(updatedSince ? await listSubmissionChanges(actor, { ...query, updatedSince }) : await listSubmissions(actor, query));
    },
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await assignForm(actor, await readJsonBody(request, createSubmissionBody)), 201);
    },
  },
  {
    POST: {
      operationId: "assignForm",
      idempotencyKey: true,
      tag: "Submissions",
      auth: "session",
      roles: STAFF,
      summary: "Assign a published form to a student or a candidate; answers the private link (token and url).",
      body: { schema: createSubmissionBody, types: ["json"] },
      success: { status: 201, description: "The assignment with its token and absolute url.", schema: submissionDetail, location: "/api/submissions/{id}" },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["FORM_NOT_PUBLISHED"] },
    },
    GET: {
      operationId: "listSubmissions",
      tag: "Submissions",
      auth: "session",
      summary: "List submissions: administrators all of the organization, teachers those they assigned, students their own.",
      query: listSubmissionsQuery,
      success: {
        status: 200,
        description: "A page of submissions, newest first; with updatedSince, the changes since then, oldest first, deletions included.",
        schema: submissionListResponse,
      },
      errors: [400, 401],
    },
  },
);

export const loader = handle;
export const action = handle;
