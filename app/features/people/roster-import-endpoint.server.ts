import { z } from "zod";
import { STAFF } from "~/lib/api-operation.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readCsvUpload, readQuery } from "~/lib/http.server.ts";
import { importFileBody, importPreview, importQuery, importResult, upsertPreview, upsertResult } from "./person-schemas.ts";
import { decodeRoster } from "./roster-columns.ts";
import { importRoster, previewRoster } from "./roster-import.server.ts";

/** POST /api/students/import and /api/candidates/import: one handler and one declaration for both. */
export function rosterImportEndpoint(kind: "students" | "candidates") {
  const tag = kind === "students" ? "Students" : "Candidates";
  const events = kind === "students" ? "student.created and student.updated" : "candidate.created";
  return endpoint(
    {
      // biome-ignore lint/correctness/noComponentHookFactories: an HTTP method handler, not a React component
      POST: async ({ request, context }) => {
        const actor = requireStaff(actorOf(context));
        const { dryRun, mode } = readQuery(request, importQuery);
        const source = decodeRoster(await readCsvUpload(request));
        if (dryRun) return json((await previewRoster(actor, kind, source, mode)).answer);
        return json(await importRoster(actor, kind, source, mode), 201);
      },
    },
    {
      POST: {
        operationId: `import${tag}`,
        idempotencyKey: true,
        tag,
        auth: "session",
        roles: STAFF,
        summary: `Import ${kind} from a CSV file (the multipart field file, or a text/csv body): a header naming name (required), email, externalId, dateOfBirth, phone, age, grade, gender, status and group, in English, Spanish or Portuguese (nombre, correo, matrícula, turma, …), at most 5,000 rows; UTF-8, else read as Windows-1252. mode=upsert updates the people the rows match (on externalId, else email) and creates the others. Every row or none; ${events} webhooks for each person created or changed.`,
        query: importQuery,
        body: { schema: importFileBody, types: ["multipart", "csv"] },
        success: {
          status: 201,
          description:
            "Imported: how many people and groups were created (mode=create), or what each row did (mode=upsert). No Location: the people are many, each at its own path.",
          schema: z.union([importResult, upsertResult]),
        },
        alsoSuccess: {
          status: 200,
          description: "dryRun=true: what the import would do; nothing is written.",
          schema: z.union([importPreview, upsertPreview]),
        },
        errors: [400, 401, 403, 413, 415],
      },
    },
  );
}
