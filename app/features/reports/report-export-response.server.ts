import type { RouterContextProvider } from "react-router";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { dayIn } from "~/lib/zoned-time.ts";
import { exportFilters, recordAudit } from "../audit/audit.server.ts";
import { makeExport, reportExportPlan } from "./report-export.server.ts";
import type { ExportReportsQuery } from "./report-schemas.ts";

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

/** `reports-2026-11-25.csv`: the day it was made, in the organization's time zone. */
const exportFilename = (actor: Actor, format: ExportReportsQuery["format"], now = new Date()) => `reports-${dayIn(now, actor.timeZone)}.${format}`;

/**
 * The export as the HTTP answer, for the API and the reports page alike: checked first (a 400, 404
 * or 503 before any byte), then streamed. Its `export.created` event is written once the file has
 * begun and before the answer: the file is streamed, so its row count is the count of the plan's
 * rows at that moment (a result completed while the file streams may be in it or not).
 */
export async function reportExportResponse(context: Readonly<RouterContextProvider>, actor: Actor, query: ExportReportsQuery): Promise<Response> {
  const { plan, rowCount } = await reportExportPlan(actor, query, "Reports");
  const body = await makeExport(context, plan);
  const { format, delimiter, ...filters } = query;
  try {
    await recordAudit(db, {
      by: actor,
      action: "export.created",
      targetId: actor.organizationId,
      details: { kind: "reports", format, filters: exportFilters(filters), rowCount: await rowCount() },
    });
  } catch (error) {
    // The file is not answered: its stream (and the worker or connection making it) ends here.
    await body.cancel();
    throw error;
  }
  return new Response(body, {
    headers: {
      "Content-Type": CONTENT_TYPES[query.format],
      "Content-Disposition": `attachment; filename="${exportFilename(actor, query.format)}"`,
      "Cache-Control": "no-store",
    },
  });
}
