import type http from "node:http";
import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { EXPORT_FIXED_COLUMNS } from "../../app/features/reports/report-export-columns.ts";
import { round2, summaryCounts, summaryQuestion } from "../../app/features/summaries/form-summary-rows.ts";
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

/** GET /api/reports/export?format=csv: keyset batches of 1,000 ids, their columns and groups, through csv-stringify with backpressure. */
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

  async function* rows(): AsyncGenerator<(string | number | null)[]> {
    let after: { completedAt: Date; id: string } | null = null;
    for (;;) {
      const cursor: string = after ? ` AND (s."completedAt" < ? OR (s."completedAt" = ? AND s."id" < ?))` : "";
      const ids: { id: string }[] = await client.all<{ id: string }>(
        `SELECT s."id" FROM "Submission" AS s WHERE ${condition}${cursor} ORDER BY s."completedAt" DESC, s."id" DESC LIMIT ?`,
        [...params, ...(after ? [after.completedAt, after.completedAt, after.id] : []), EXPORT_BATCH],
      );
      if (ids.length === 0) return;
      const idList: string[] = ids.map((row) => row.id);
      const batch: ExportRow[] = await client.all<ExportRow>(
        `SELECT s."id", s."createdAt", s."completedAt", s."totalScore", s."maxScore", s."percentage", s."scoreLabel", s."formTitle",
                u."name" AS "assignedByName", st."id" AS "studentId", ca."id" AS "candidateId", COALESCE(st."name", ca."name") AS "respondentName"
           FROM "Submission" AS s
           JOIN "User" AS u ON u."id" = s."assignedById"
           LEFT JOIN "Student" AS st ON st."id" = s."studentId"
           LEFT JOIN "Candidate" AS ca ON ca."id" = s."candidateId"
          WHERE s."id" IN (${placeholders(idList.length)})
          ORDER BY s."completedAt" DESC, s."id" DESC`,
        idList,
      );
      const people = [...new Set(batch.flatMap((row) => [row.studentId, row.candidateId].filter((id): id is string => id !== null)))];
      const memberships = people.length
        ? await client.all<{ studentId: string | null; candidateId: string | null; name: string }>(
            `SELECT m."studentId", m."candidateId", g."name" FROM "GroupMember" AS m JOIN "Group" AS g ON g."id" = m."groupId" AND g."deletedAt" IS NULL
              WHERE m."studentId" IN (${placeholders(people.length)}) OR m."candidateId" IN (${placeholders(people.length)})`,
            [...people, ...people],
          )
        : [];
      const groups = new Map<string, string[]>();
      for (const member of memberships) {
        const person = (member.studentId ?? member.candidateId)!;
        groups.set(person, [...(groups.get(person) ?? []), member.name]);
      }
      for (const row of batch) {
        const person = row.studentId ?? row.candidateId;
        yield [
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
      }
      if (ids.length < EXPORT_BATCH) return;
      const last: ExportRow | undefined = batch.find((row) => row.id === idList.at(-1)) ?? batch.at(-1);
      if (!last) return;
      after = { completedAt: new Date(iso(last.completedAt)), id: last.id };
    }
  }

  const csv = stringify({
    bom: true,
    header: true,
    columns: [...EXPORT_FIXED_COLUMNS],
    delimiter: url.searchParams.get("delimiter") === "semicolon" ? ";" : ",",
    record_delimiter: "windows",
  });
  response.writeHead(200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="reports.csv"`,
    "Cache-Control": "no-store",
  });
  // Backpressure end to end: the generator is read only as fast as the socket drains.
  pipeline(Readable.from(rows()), csv, response, (error) => {
    if (error) console.error(error);
  });
}

/** GET /api/forms/:id/summary without filters: the form's content, then the app's six aggregate queries. */
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
  const where = (completed: boolean) => `${[...scope.sql, `s."formId" = ?`, `s."isCompleted" = ${completed}`].join(" AND ")}`;
  const params = [...scope.params, formId];
  const postgres = client.dialect === "postgresql";
  const optionCount = postgres ? `jsonb_array_length(a."optionIds")` : `json_array_length(a."optionIds")`;
  const optionElements = postgres ? `CROSS JOIN LATERAL jsonb_array_elements_text(a."optionIds") AS o(value)` : `CROSS JOIN json_each(a."optionIds") AS o`;
  const now = new Date();
  const [states, spread, answered, chosen] = await Promise.all([
    client.all<{ revoked: unknown; expired: unknown; waiting: unknown }>(
      `SELECT SUM(CASE WHEN s."revokedAt" IS NOT NULL THEN 1 ELSE 0 END) AS "revoked",
              SUM(CASE WHEN s."revokedAt" IS NULL AND s."expiresAt" IS NOT NULL AND s."expiresAt" <= ? THEN 1 ELSE 0 END) AS "expired",
              SUM(CASE WHEN s."revokedAt" IS NULL AND (s."expiresAt" IS NULL OR s."expiresAt" > ?) THEN 1 ELSE 0 END) AS "waiting"
         FROM "Submission" AS s WHERE ${where(false)}`,
      [now, now, ...params],
    ),
    client.all<{ count: unknown; mean: unknown; min: unknown; max: unknown }>(
      `SELECT COUNT(*) AS "count", AVG(s."totalScore") AS "mean", MIN(s."totalScore") AS "min", MAX(s."totalScore") AS "max" FROM "Submission" AS s WHERE ${where(true)}`,
      params,
    ),
    client.all<{ questionId: string; answered: unknown; mean: unknown }>(
      `SELECT a."questionId", COUNT(*) AS "answered", AVG(a."score") AS "mean"
         FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId"
        WHERE ${where(true)} AND (${optionCount} > 0 OR a."text" IS NOT NULL) GROUP BY a."questionId"`,
      params,
    ),
    client.all<{ questionId: string; optionId: string; count: unknown }>(
      `SELECT a."questionId", o.value AS "optionId", COUNT(*) AS "count"
         FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId" ${optionElements}
        WHERE ${where(true)} GROUP BY a."questionId", o.value`,
      params,
    ),
  ]);
  const count = Number(spread[0]?.count ?? 0);
  const bandColumns = bands.map((_, i) => `SUM(CASE WHEN s."totalScore" >= ? AND s."totalScore" <= ? THEN 1 ELSE 0 END) AS "b${i}"`).join(", ");
  const [middle, inBands] = await Promise.all([
    count === 0
      ? []
      : client.all<{ totalScore: unknown }>(`SELECT s."totalScore" FROM "Submission" AS s WHERE ${where(true)} ORDER BY s."totalScore" LIMIT ? OFFSET ?`, [
          ...params,
          count % 2 === 0 ? 2 : 1,
          Math.floor((count - 1) / 2),
        ]),
    bands.length === 0
      ? []
      : client.all<Record<string, unknown>>(`SELECT ${bandColumns} FROM "Submission" AS s WHERE ${where(true)}`, [
          ...bands.flatMap((band) => [band.min, band.max]),
          ...params,
        ]),
  ]);
  const byQuestion = new Map(answered.map((row) => [row.questionId, row]));
  const byOption = new Map(chosen.map((row) => [`${row.questionId}:${row.optionId}`, Number(row.count)]));
  const middleValues = middle.map((row) => Number(row.totalScore));
  const median = middleValues.length === 0 ? null : round2(middleValues.reduce((a, b) => a + b, 0) / middleValues.length);
  return {
    ...summaryCounts(count, states[0], spread[0], median),
    bands: bands.map((band, i) => ({ ...band, count: Number(inBands[0]?.[`b${i}`] ?? 0) })),
    questions: questions.map((question) =>
      summaryQuestion(
        { ...question, options: options.filter((option) => option.questionId === question.id) },
        byQuestion.get(question.id),
        (optionId) => byOption.get(`${question.id}:${optionId}`) ?? 0,
      ),
    ),
  };
}
