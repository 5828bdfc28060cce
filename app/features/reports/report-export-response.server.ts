import type { Actor } from "~/lib/auth/actor.server.ts";
import { dayIn } from "~/lib/zoned-time.ts";
import { csvStream, reportExport, xlsxStream } from "./report-export.server.ts";
import type { ExportReportsQuery } from "./report-schemas.ts";

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

/** `reports-2026-11-25.csv`: the day it was made, in the organization's time zone. */
const exportFilename = (actor: Actor, format: ExportReportsQuery["format"], now = new Date()) => `reports-${dayIn(now, actor.timeZone)}.${format}`;

/** The export as the HTTP answer, for the API and the reports page alike: checked first (a 400 or 404 before any byte), then streamed. */
export async function reportExportResponse(actor: Actor, query: ExportReportsQuery): Promise<Response> {
  const exported = await reportExport(actor, query);
  const body = query.format === "csv" ? csvStream(exported, query.delimiter) : xlsxStream(exported, "Reports");
  return new Response(body, {
    headers: {
      "Content-Type": CONTENT_TYPES[query.format],
      "Content-Disposition": `attachment; filename="${exportFilename(actor, query.format)}"`,
      "Cache-Control": "no-store",
    },
  });
}
