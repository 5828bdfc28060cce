import type http from "node:http";
import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import { EXPORT_FIXED_COLUMNS } from "../../app/features/reports/report-export-columns.ts";
import { type ChoiceTally, fromTallies, summaryCounts, summaryQuestion, type TotalTally } from "../../app/features/summaries/form-summary-rows.ts";
import type { SqlClient } from "./sql-client.ts";

/**
 * The baseline's reports export (CSV) and form summary: the app's work (app/features/reports/
 * report-export.server.ts, app/features/summaries/form-summary.server.ts) written by hand over
 * the same SQL, with the same keyset batches, csv-stringify options and aggregate queries. Only
 * what the bench asks for is supported: the export's date-time bounds and separator, the summary
 * without filters; anything else is refused, so a wrong request cannot pass for a fast one.
 */

export type Caller = { userId: string; organizationId: string; role: string };

export class BaselineError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const isAdmin = (caller: Caller) => caller.role === "ADMIN" || caller.role === "SUPER_ADMIN";
const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();
const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

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

const EXPORT_BATCH = 1000;
const FORMULA_START = /^[=+\-@\t\r]/;
const textCell = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);

type ExportRow = {
  id: string;
  createdAt: unknown;
  completedAt: unknown;
  totalScore: number;
  maxScore: number;
  percentage: number;
  scoreLabel: string | null;
  formTitle: string | null;
  assignedByName: string;
  studentId: string | null;
  candidateId: string | null;
  respondentName: string | null;
};

/** GET /api/reports/export?format=csv: keyset batches of 1,000 rows with their names, then their groups, through csv-stringify with backpressure. */
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
  const condition = sql.join(" AND ");

  async function* batches(): AsyncGenerator<(string | number | null)[][]> {
    let after: { completedAt: Date; id: string } | null = null;
    for (;;) {
      const cursor: string = after ? ` AND s."completedAt" <= ? AND (s."completedAt" < ? OR s."id" < ?)` : "";
      const batch: ExportRow[] = await client.all<ExportRow>(
        `SELECT s."id", s."createdAt", s."completedAt", s."totalScore", s."maxScore", s."percentage", s."scoreLabel", s."formTitle",
                u."name" AS "assignedByName", s."studentId", s."candidateId", COALESCE(st."name", ca."name") AS "respondentName"
           FROM "Submission" AS s
           JOIN "User" AS u ON u."id" = s."assignedById"
           LEFT JOIN "Student" AS st ON st."id" = s."studentId"
           LEFT JOIN "Candidate" AS ca ON ca."id" = s."candidateId"
          WHERE ${condition}${cursor}
          ORDER BY s."completedAt" DESC, s."id" DESC LIMIT ?`,
        [...params, ...(after ? [after.completedAt, after.completedAt, after.id] : []), EXPORT_BATCH],
      );
      if (batch.length === 0) return;
      const people = [...new Set(batch.flatMap((row) => [row.studentId, row.candidateId].filter((id): id is string => id !== null)))];
      const memberships = people.length
        ? await client.all<{ studentId: string | null; candidateId: string | null; name: string }>(
            `SELECT m."studentId", m."candidateId", g."name" FROM "GroupMember" AS m JOIN "Group" AS g ON g."id" = m."groupId" AND g."deletedAt" IS NULL
              WHERE m."studentId" IN (${placeholders(people.length)}) OR m."candidateId" IN (${placeholders(people.length)})
              ORDER BY g."name", g."id"`,
            [...people, ...people],
          )
        : [];
      const groups = new Map<string, string[]>();
      for (const member of memberships) {
        const person = (member.studentId ?? member.candidateId)!;
        groups.set(person, [...(groups.get(person) ?? []), member.name]);
      }
      yield batch.map((row) => {
        const person = row.studentId ?? row.candidateId;
        return [
          row.id,
          textCell(row.respondentName ?? ""),
          row.studentId ? "student" : "candidate",
          textCell((person ? groups.get(person) : undefined)?.join("; ") ?? ""),
          textCell(row.formTitle ?? ""),
          textCell(row.assignedByName),
          iso(row.createdAt),
          iso(row.completedAt),
          row.totalScore,
          row.maxScore,
          row.percentage,
          row.scoreLabel === null ? null : textCell(row.scoreLabel),
        ];
      });
      if (batch.length < EXPORT_BATCH) return;
      const last = batch.at(-1)!;
      after = { completedAt: new Date(iso(last.completedAt)), id: last.id };
    }
  }

  const options = { delimiter: url.searchParams.get("delimiter") === "semicolon" ? ";" : ",", record_delimiter: "windows" } as const;
  response.writeHead(200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="reports.csv"`,
    "Cache-Control": "no-store",
  });
  // One chunk per batch, as the app writes them; the next batch is read once the socket drained.
  const chunks = (async function* () {
    yield `\uFEFF${stringify([[...EXPORT_FIXED_COLUMNS]], options)}`;
    for await (const batch of batches()) yield stringify(batch, options);
  })();
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
