import { STAFF } from "~/lib/api-operation.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { readQuery } from "~/lib/http.server.ts";
import { CANDIDATE_STATUSES } from "../candidates/candidate-statuses.ts";
import { STUDENT_STATUSES } from "../students/student-statuses.ts";
import { rosterExportQuery } from "./person-schemas.ts";
import { ROSTER_EXPORT_COLUMNS, rosterExportCsv, rosterExportFilename } from "./roster-export.server.ts";

/** GET /api/students/export and /api/candidates/export: one handler and one declaration for both. */
export function rosterExportEndpoint(kind: "students" | "candidates") {
  const tag = kind === "students" ? "Students" : "Candidates";
  const query = rosterExportQuery(kind === "students" ? STUDENT_STATUSES : CANDIDATE_STATUSES);
  return endpoint(
    {
      // biome-ignore lint/correctness/noComponentHookFactories: an HTTP method handler, not a React component
      GET: async ({ request, context }) => {
        const actor = requireStaff(actorOf(context));
        const csv = await rosterExportCsv(actor, kind, readQuery(request, query));
        return new Response(csv, {
          headers: {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": `attachment; filename="${rosterExportFilename(actor, kind)}"`,
            "Cache-Control": "no-store",
          },
        });
      },
    },
    {
      GET: {
        operationId: `export${tag}`,
        tag,
        auth: "session",
        roles: STAFF,
        summary: `The organization's ${kind} with the list's filters, oldest first, as a CSV file that POST /api/${kind}/import reads back: the columns ${ROSTER_EXPORT_COLUMNS.join(", ")}.`,
        query,
        success: {
          status: 200,
          description:
            "The file (Content-Disposition: attachment): UTF-8 with a BOM, comma separated, CR LF between records, RFC 4180 quoting; dates as YYYY-MM-DD; " +
            "a text a spreadsheet would run as a formula begins with `'`, which the import takes off.",
          contentType: ["text/csv"],
          headers: ["Content-Disposition"],
        },
        errors: [400, 401, 403],
      },
    },
  );
}
