import { browserBody, STAFF } from "~/lib/api-operation.ts";
import { candidateDetail, candidateListResponse, createCandidateBody, listCandidatesQuery } from "~/features/candidates/candidate-schemas.ts";
import { createCandidate, listCandidateChanges, listCandidates } from "~/features/candidates/candidates.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { versionedJson } from "~/lib/entity-tag.server.ts";
import { json, readJsonOrFormBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      const query = readQuery(request, listCandidatesQuery);
      const { updatedSince } = query;
      return json(updatedSince ? await listCandidateChanges(actor, { ...query, updatedSince }) : await listCandidates(actor, query));
    },
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await createCandidate(actor, await readJsonOrFormBody(request, createCandidateBody)), 201);
    },
  },
  {
    GET: {
      operationId: "listCandidates",
      tag: "Candidates",
      auth: "session",
      roles: STAFF,
      summary: "List the organization's candidates.",
      query: listCandidatesQuery,
      success: {
        status: 200,
        description: "A page of candidates, newest first; with updatedSince, the changes since then, oldest first, deletions included.",
        schema: candidateListResponse,
      },
      errors: [400, 401, 403],
    },
    POST: {
      operationId: "createCandidate",
      idempotencyKey: true,
      tag: "Candidates",
      auth: "session",
      roles: STAFF,
      summary: "Create a candidate (JSON, urlencoded or multipart).",
      body: { schema: createCandidateBody, types: browserBody },
      success: { status: 201, description: "The created candidate.", schema: candidateDetail, location: "/api/candidates/{id}" },
      versioned: true,
      errors: [400, 401, 403, 409, 413, 415],
      codes: { 409: ["EMAIL_TAKEN", "EXTERNAL_ID_TAKEN"] },
    },
  },
);

export const loader = handle;
export const action = handle;
