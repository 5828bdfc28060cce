import { STAFF } from "~/lib/api-operation.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readCsvUpload, readQuery } from "~/lib/http.server.ts";
import { importFileBody, importPreview, importQuery, importResult } from "./person-schemas.ts";
import { importRoster, previewRoster } from "./roster-import.server.ts";

/** POST /api/students/import and /api/candidates/import: one handler and one declaration for both. */
export function rosterImportEndpoint(kind: "students" | "candidates") {
  const tag = kind === "students" ? "Students" : "Candidates";
  return endpoint(
    {
      // biome-ignore lint/correctness/noComponentHookFactories: an HTTP method handler, not a React component
      POST: async ({ request, context }) => {
        const actor = requireStaff(actorOf(context));
        const { dryRun } = readQuery(request, importQuery);
        const text = await readCsvUpload(request);
        if (dryRun) {
          const { problems: _, ...preview } = await previewRoster(actor, kind, text);
          return json(preview);
        }
        return json(await importRoster(actor, kind, text), 201);
      },
    },
    {
      POST: {
        operationId: `import${tag}`,
        idempotencyKey: true,
        tag,
        auth: "session",
        roles: STAFF,
        summary: `Import ${kind} from a CSV file (the multipart field file, or a text/csv body): a header naming name (required), email, phone, age, grade, gender, status and group, at most 5,000 rows. Every row or none.`,
        query: importQuery,
        body: { schema: importFileBody, types: ["multipart"] },
        success: { status: 201, description: "Imported: how many, and how many groups the file created.", schema: importResult },
        alsoSuccess: { status: 200, description: "dryRun=true: what the import would do; nothing is written.", schema: importPreview },
        errors: [400, 401, 403, 413, 415],
      },
    },
  );
}
