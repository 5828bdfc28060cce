import { ADMINS } from "~/lib/api-operation.ts";
import { auditFiltersQuery } from "~/features/audit/audit-schemas.ts";
import { AUDIT_CSV_COLUMNS, auditEventsCsv } from "~/features/audit/audit-log.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      const csv = await auditEventsCsv(requireActor(actorOf(context)), readQuery(request, auditFiltersQuery));
      return new Response(csv.body, {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${csv.filename}"`,
          "Cache-Control": "no-store",
        },
      });
    },
  },
  {
    GET: {
      operationId: "exportAuditEvents",
      tag: "Audit",
      auth: "session",
      roles: ADMINS,
      summary: `The audit log with the list's filters, newest first, as a CSV file with the columns ${AUDIT_CSV_COLUMNS.join(", ")}. The export is itself recorded (export.created, with its filters and row count).`,
      query: auditFiltersQuery,
      success: {
        status: 200,
        description:
          "The file (Content-Disposition: attachment): UTF-8 with a BOM, comma separated, CR LF between records, RFC 4180 quoting; times in ISO 8601 UTC; details as JSON; " +
          "a text a spreadsheet would run as a formula begins with `'`.",
        contentType: ["text/csv"],
        headers: ["Content-Disposition"],
      },
      errors: [400, 401, 403],
    },
  },
);

export const loader = handle;
export const action = handle;
