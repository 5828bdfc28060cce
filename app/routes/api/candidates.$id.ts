import { ADMINS, browserBody, STAFF } from "~/lib/api-operation.ts";
import { deletedResponse } from "~/lib/schemas.ts";
import type { Route } from "./+types/candidates.$id";
import { candidateDetail, updateCandidateBody } from "~/features/candidates/candidate-schemas.ts";
import { deleteCandidate, getCandidate, updateCandidate } from "~/features/candidates/candidates.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { readIfMatch, versionedJson } from "~/lib/entity-tag.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => versionedJson(await getCandidate(requireStaff(actorOf(context)), params.id)),
    PUT: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await updateCandidate(actor, params.id, await readJsonOrFormBody(request, updateCandidateBody), readIfMatch(request)));
    },
    DELETE: async ({ params, context }) => json(await deleteCandidate(requireStaff(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "getCandidate",
      tag: "Candidates",
      auth: "session",
      roles: STAFF,
      summary: "Read a candidate with the evaluations the caller may see.",
      success: { status: 200, description: "The candidate.", schema: candidateDetail },
      versioned: true,
      errors: [401, 403, 404],
    },
    PUT: {
      operationId: "updateCandidate",
      tag: "Candidates",
      auth: "session",
      roles: STAFF,
      summary: "Update the fields sent (JSON, urlencoded or multipart).",
      body: { schema: updateCandidateBody, types: browserBody },
      success: { status: 200, description: "The updated candidate.", schema: candidateDetail },
      versioned: true,
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["EMAIL_TAKEN", "EXTERNAL_ID_TAKEN", "ALREADY_PROMOTED"] },
    },
    DELETE: {
      operationId: "deleteCandidate",
      tag: "Candidates",
      auth: "session",
      roles: ADMINS,
      summary: "Soft-delete a candidate.",
      success: { status: 200, description: "Deleted.", schema: deletedResponse },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
