import { ADMINS } from "~/lib/api-operation.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, type EndpointArgs, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";
import { eraseBody, erasureResponse, subjectAccessDocument } from "./data-protection-schemas.ts";
import type { PersonKind } from "./erasure-modes.ts";
import { erasePerson } from "./erasure.server.ts";
import { exportPerson, subjectAccessFilename } from "./subject-access.server.ts";

/**
 * GET /api/{students,candidates}/:id/export and POST /api/{students,candidates}/:id/erase
 * (docs/api-contract.md §21, ADR 88): one handler and one declaration for both kinds of person.
 */
const tagOf = (kind: PersonKind) => (kind === "student" ? "Students" : "Candidates");
const titleOf = (kind: PersonKind) => (kind === "student" ? "Student" : "Candidate");

export function subjectAccessEndpoint(kind: PersonKind) {
  return endpoint<EndpointArgs>(
    {
      // biome-ignore lint/correctness/noComponentHookFactories: an HTTP method handler, not a React component
      GET: async ({ params, context }) => {
        const id = params.id!;
        const document = await exportPerson(requireStaff(actorOf(context)), kind, id);
        return json(document, {
          headers: { "Content-Disposition": `attachment; filename="${subjectAccessFilename(kind, id)}"`, "Cache-Control": "no-store" },
        });
      },
    },
    {
      GET: {
        operationId: `export${titleOf(kind)}Data`,
        tag: tagOf(kind),
        auth: "session",
        roles: ADMINS,
        summary: `Subject access: everything stored about the ${kind}, deleted or not, as one JSON file; the download is recorded in the audit log (person.exported).`,
        success: {
          status: 200,
          description:
            "The document (Content-Disposition: attachment): the profile, the same person's other record after a promotion, their login, groups, every submission with its answers, scores, subscales and flags, the drafts, the schedules that reach them and the audit events about them.",
          schema: subjectAccessDocument,
          headers: ["Content-Disposition"],
        },
        errors: [401, 403, 404],
      },
    },
  );
}

export function erasureEndpoint(kind: PersonKind) {
  return endpoint<EndpointArgs>(
    {
      // biome-ignore lint/correctness/noComponentHookFactories: an HTTP method handler, not a React component
      POST: async ({ request, params, context }) => {
        const actor = requireStaff(actorOf(context));
        return json(await erasePerson(actor, kind, params.id!, await readJsonBody(request, eraseBody)));
      },
    },
    {
      POST: {
        operationId: `erase${titleOf(kind)}`,
        tag: tagOf(kind),
        auth: "session",
        roles: ADMINS,
        summary:
          `Erase the ${kind}, irreversibly: ANONYMISE replaces their name, e-mail, phone, record number, date of birth, age, gender and free-text answers and keeps their scores; ` +
          "DELETE removes them with their submissions, answers and drafts. Summaries and totals stay equal to a recount; the audit event names the record by id only.",
        body: { schema: eraseBody, types: ["json"] },
        success: { status: 200, description: "What was erased.", schema: erasureResponse },
        errors: [400, 401, 403, 404, 413, 415],
      },
    },
  );
}
