import type http from "node:http";
import { pipeline, Readable } from "node:stream";
import { EXPORT_FIXED_COLUMNS } from "../../app/features/reports/report-export-columns.ts";
import { exportFileChunks } from "../../app/features/reports/report-export-file.server.ts";
import { type ChoiceTally, fromTallies, summaryCounts, summaryQuestion, type TotalTally } from "../../app/features/summaries/form-summary-rows.ts";
import type { SqlClient } from "../../app/lib/sql-client.server.ts";

/**
 * The baseline's reports export (CSV) and form summary: the app's work without its framework. The
 * export selects as the app does and makes the file with the app's own driver-level maker
 * (report-export-file.server.ts) on the event loop; the summary is written by hand over the same
 * aggregate queries (app/features/summaries/form-summary.server.ts). Only
 * what the bench asks for is supported: the export's date-time bounds and separator, the summary
 * without filters; anything else is refused, so a wrong request cannot pass for a fast one.
 */

export type Caller = { userId: string; organizationId: string; role: string; timeZone: string };

export class BaselineError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const isAdmin = (caller: Caller) => caller.role === "ADMIN" || caller.role === "SUPER_ADMIN";

/** The caller's submissions: the organization's for administrators, their own for teachers. */
function scopeOf(caller: Caller): { sql: string[]; params: unknown[] } {
  if (caller.role === "STUDENT") throw new BaselineError(403, "forbidden");
  const sql = [`s."deletedAt" IS NULL`, `s."organizationId" = ?`];
  const params: unknown[] = [caller.organizationId];
  if (!isAdmin(caller)) {
    sql.push(`s."assignedById" = ?`);
    params.push(caller.userId);
  }
  return { sql, params };
}

function refuseOthers(url: URL, allowed: string[]) {
  for (const key of url.searchParams.keys()) if (!allowed.includes(key)) throw new BaselineError(400, `the baseline does not support ${key}`);
}

/** GET /api/reports/export?format=csv: the caller's scope and dates as the app selects them, then the app's file maker. */
export function exportReportsCsv(client: SqlClient, caller: Caller, url: URL, response: http.ServerResponse) {
  refuseOthers(url, ["format", "delimiter", "from", "to"]);
  if (url.searchParams.get("format") !== "csv") throw new BaselineError(400, "the baseline exports CSV only");
  const { sql, params } = scopeOf(caller);
  sql.push(`s."isCompleted" = true`);
  for (const [key, operator] of [
    ["from", ">="],
    ["to", "<="],
  ] as const) {
    const value = url.searchParams.get(key);
    if (!value) continue;
    if (!/T.*(Z|[+-]\d\d:\d\d)$/.test(value)) throw new BaselineError(400, "the baseline takes date-times with a zone only");
    sql.push(`s."completedAt" ${operator} ?`);
    params.push(new Date(value));
  }
  // The app's own file maker (app/features/reports/report-export-file.server.ts), on the
  // baseline's connection and event loop: the same batches, queries and chunks, without the
  // request's framework or the worker thread.
  const chunks = exportFileChunks(client, {
    where: { sql: sql.join(" AND "), values: params },
    questions: [],
    header: [...EXPORT_FIXED_COLUMNS],
    format: "csv",
    delimiter: url.searchParams.get("delimiter") === "semicolon" ? "semicolon" : "comma",
    sheetName: "Reports",
    timeZone: caller.timeZone,
  });
  response.writeHead(200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="reports.csv"`,
    "Cache-Control": "no-store",
  });
  // The next batch is read once the socket drained.
  pipeline(Readable.from(chunks, { objectMode: false, highWaterMark: 1 }), response, (error) => {
    if (error) console.error(error);
  });
}

/** GET /api/forms/:id/summary without filters: the form's content, the links by state, then the tallies (as the app reads them). */
export async function formSummary(client: SqlClient, caller: Caller, formId: string, url: URL) {
  refuseOthers(url, []);
  const scope = scopeOf(caller);
  const visible = isAdmin(caller) ? "" : ` AND ("createdById" = ? OR "isTemplate" = true)`;
  const [form] = await client.all<{ id: string }>(
    `SELECT "id" FROM "Form" WHERE "id" = ? AND "organizationId" = ? AND "deletedAt" IS NULL${visible}`,
    visible ? [formId, caller.organizationId, caller.userId] : [formId, caller.organizationId],
  );
  if (!form) throw new BaselineError(404, "form not found");
  const [questions, options, bands] = await Promise.all([
    client.all<{ id: string; text: string; type: string }>(`SELECT "id", "text", "type" FROM "Question" WHERE "formId" = ? ORDER BY "position"`, [formId]),
    client.all<{ id: string; text: string; questionId: string }>(
      `SELECT o."id", o."text", o."questionId" FROM "Option" AS o JOIN "Question" AS q ON q."id" = o."questionId" WHERE q."formId" = ? ORDER BY o."position"`,
      [formId],
    ),
    client.all<{ min: number; max: number; label: string; color: string }>(
      `SELECT "min", "max", "label", "color" FROM "ScoreRange" WHERE "formId" = ? ORDER BY "position"`,
      [formId],
    ),
  ]);
  const where = `${[...scope.sql, `s."formId" = ?`, `s."isCompleted" = false`].join(" AND ")}`;
  const now = new Date();
  // The completed results from the tallies the database keeps (ADR 32), as the app reads them.
  const assigner = isAdmin(caller) ? "" : ` AND "assignedById" = ?`;
  const tallyParams = isAdmin(caller) ? [formId] : [formId, caller.userId];
  const [states, totalRows, choiceRows] = await Promise.all([
    client.all<{ revoked: unknown; expired: unknown; waiting: unknown }>(
      `SELECT SUM(CASE WHEN s."revokedAt" IS NOT NULL THEN 1 ELSE 0 END) AS "revoked",
              SUM(CASE WHEN s."revokedAt" IS NULL AND s."expiresAt" IS NOT NULL AND s."expiresAt" <= ? THEN 1 ELSE 0 END) AS "expired",
              SUM(CASE WHEN s."revokedAt" IS NULL AND (s."expiresAt" IS NULL OR s."expiresAt" > ?) THEN 1 ELSE 0 END) AS "waiting"
         FROM "Submission" AS s WHERE ${where}`,
      [now, now, ...scope.params, formId],
    ),
    client.all<TotalTally>(
      `SELECT "totalScore", SUM("results") AS "results" FROM "SummaryTotal" WHERE "formId" = ?${assigner}
        GROUP BY "totalScore" HAVING SUM("results") > 0 ORDER BY "totalScore"`,
      tallyParams,
    ),
    client.all<ChoiceTally>(
      `SELECT "questionId", "optionId", SUM("answers") AS "answers", SUM("scoreSum") AS "scoreSum" FROM "SummaryChoice" WHERE "formId" = ?${assigner}
        GROUP BY "questionId", "optionId" HAVING SUM("answers") > 0`,
      tallyParams,
    ),
  ]);
  const results = fromTallies(totalRows, choiceRows, bands);
  const byQuestion = new Map(results.questionRows.map((row) => [row.questionId, row]));
  const byOption = new Map(results.optionRows.map((row) => [`${row.questionId}:${row.optionId}`, Number(row.count)]));
  return {
    ...summaryCounts(results.count, states[0], results.spread, results.median),
    bands: bands.map((band, i) => ({ ...band, count: results.bandCounts[i] ?? 0 })),
    questions: questions.map((question) =>
      summaryQuestion(
        { ...question, options: options.filter((option) => option.questionId === question.id) },
        byQuestion.get(question.id),
        (optionId) => byOption.get(`${question.id}:${optionId}`) ?? 0,
      ),
    ),
  };
}
