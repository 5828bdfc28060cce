import type { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { type Options as CsvOptions, stringify as stringifyRows } from "csv-stringify/sync";
import { drainOrClose } from "~/lib/drain-or-close.ts";
import { rawDate, rawJson } from "~/lib/raw-values.ts";
import { inValues, type SqlClient } from "~/lib/sql-client.server.ts";
import { zoneClock } from "~/lib/zoned-time.ts";
import { type Change, type ChangeConstants, changeOf, formConstants } from "../scoring/change.ts";
import { EXPORT_TIME_COLUMNS } from "./report-export-columns.ts";

/**
 * The bytes of a reports export (docs/api-contract.md §13), made from a plan that the request has already
 * checked and scoped (report-export.server.ts). This module knows no caller, no Prisma client and
 * no environment: it reads through a connection of its own (`SqlClient`) so that it can run in a
 * worker thread whose heap and page cache are dropped when the export ends (ADR 34).
 *
 * Rows are read in batches of 1,000 by keyset (completedAt, id), newest first, and each batch is
 * written before the next is read: memory is one batch, and the first bytes leave at once.
 *
 * How the cells are written is docs/api-contract.md §23 (ADR 49): times in the organization's time zone, the
 * semicolon CSV with decimal commas, RFC 4180 quoting by csv-stringify and the apostrophe before
 * what a spreadsheet would run as a formula.
 */

/** Rows per read: one query for the rows with their names, one for their groups, one for their answers. */
export const EXPORT_BATCH = 1000;

export type ExportQuestion = { id: string; text: string };
/** A subscale of the chosen form: its column holds each result's score for it, found by key. */
export type ExportSubscale = { key: string; name: string };

/** Everything a worker needs to make the file; structured-clone safe (Dates stay Dates). */
export type ExportPlan = {
  /** The caller's selection as SQL conditions on `"Submission" AS s`, with `?` placeholders, and their values. */
  where: { sql: string; values: unknown[] };
  /**
   * What the caller may see, as conditions on `"Submission" AS p`: the results each row's change
   * is made against (its respondent's previous and first on its form), whatever the filters.
   */
  visible: { sql: string; values: unknown[] };
  /** The chosen form's questions, in order: one answer and one score column each. */
  questions: ExportQuestion[];
  /** The chosen form's subscales, in order: one score column each, after the total's. */
  subscales: ExportSubscale[];
  header: string[];
  format: "csv" | "xlsx";
  delimiter: "comma" | "semicolon";
  sheetName: string;
  /** The organization's time zone (an IANA name): the times are written as its clocks showed them. */
  timeZone: string;
};

type Cell = string | number | Date | null;
type ExportRow = Cell[];

/** A batch's row as read: the result's columns with its respondent's and assigner's names. */
type BatchRow = {
  id: string;
  formId: string;
  createdAt: unknown;
  completedAt: unknown;
  totalScore: number | null;
  maxScore: number | null;
  percentage: number | null;
  scoreLabel: string | null;
  subscales: unknown;
  formTitle: string | null;
  assignedByName: string;
  studentId: string | null;
  candidateId: string | null;
  respondentName: string | null;
};

/** The file, chunk by chunk; nothing is read until the first chunk after the header is asked for. */
export function exportFileChunks(client: SqlClient, plan: ExportPlan): AsyncGenerator<Uint8Array> {
  const rows = exportRows(client, plan);
  return plan.format === "csv" ? csvChunks(plan, rows) : xlsxChunks(plan, rows);
}

async function* exportRows(client: SqlClient, plan: ExportPlan): AsyncGenerator<ExportRow[]> {
  const { questions } = plan;
  let after: { completedAt: Date; id: string } | null = null;
  const constants = new Map<string, ChangeConstants>();
  for (;;) {
    // The first term bounds the scope index's completedAt range; with the OR alone SQLite read
    // every row of the scope for every batch (250,000 rows: 250 × 250,000 index entries).
    const cursor: string = after ? `AND s."completedAt" <= ? AND (s."completedAt" < ? OR s."id" < ?)` : "";
    const rows: BatchRow[] = await client.all<BatchRow>(
      `SELECT s."id", s."formId", s."createdAt", s."completedAt", s."totalScore", s."maxScore", s."percentage", s."scoreLabel", s."subscales", s."formTitle",
              u."name" AS "assignedByName", s."studentId", s."candidateId", COALESCE(st."name", ca."name") AS "respondentName"
         FROM "Submission" AS s
         JOIN "User" AS u ON u."id" = s."assignedById"
         LEFT JOIN "Student" AS st ON st."id" = s."studentId"
         LEFT JOIN "Candidate" AS ca ON ca."id" = s."candidateId"
        WHERE ${plan.where.sql} ${cursor}
        ORDER BY s."completedAt" DESC, s."id" DESC LIMIT ?`,
      [...plan.where.values, ...(after ? [after.completedAt, after.completedAt, after.id] : []), EXPORT_BATCH],
    );
    if (rows.length === 0) return;
    const [groups, answers, changes] = await Promise.all([
      groupsOf(client, rows),
      answersOf(client, rows, questions),
      changesOf(client, rows, plan.visible, constants),
    ]);
    yield rows.map((row) => {
      const person = row.studentId ?? row.candidateId ?? "";
      const answered = answers.get(row.id);
      return [
        row.id,
        row.respondentName ?? "",
        row.studentId ? "student" : "candidate",
        (groups.get(person) ?? []).join("; "),
        row.formTitle ?? "",
        row.assignedByName,
        rawDate(row.createdAt),
        rawDate(row.completedAt),
        row.totalScore,
        row.maxScore,
        row.percentage,
        row.scoreLabel,
        ...changeCells(changes.get(row.id)!),
        ...subscaleScores(row, plan.subscales),
        ...questions.flatMap((question) => {
          const answer = answered?.get(question.id);
          if (!answer) return [null, null];
          const chosen = rawJson(answer.optionTexts) as string[];
          return [chosen.length > 0 ? chosen.join("; ") : (answer.text ?? ""), answer.score];
        }),
      ];
    });
    if (rows.length < EXPORT_BATCH) return;
    const last: BatchRow = rows.at(-1)!;
    after = { completedAt: rawDate(last.completedAt)!, id: last.id };
  }
}

/**
 * A row's score for each of the chosen form's subscales, by key as captured at completion: empty
 * for a subscale the result was not scored with (completed before it was added) or could not score.
 */
function subscaleScores(row: BatchRow, subscales: ExportSubscale[]): Cell[] {
  if (subscales.length === 0) return [];
  const stored = row.subscales === null ? [] : (rawJson(row.subscales) as { key: string; score: number | null }[]);
  const byKey = new Map(stored.map((subscale) => [subscale.key, subscale.score]));
  return subscales.map((subscale) => byKey.get(subscale.key) ?? null);
}

/** The change columns of a row: numbers, the category's code, and the booleans as `true`/`false`. */
function changeCells(change: Change): Cell[] {
  const flag = (value: boolean | null) => (value === null ? null : String(value));
  return [change.fromPrevious, change.fromBaseline, change.reliable, flag(change.response), flag(change.remission)];
}

/**
 * Each row's change over time (docs/api-contract.md §18): its respondent's result just before it
 * and first one on its form among those the caller may see (`visible`), each found by one step of
 * the series indexes (ADR 80), then their totals, then `changeOf` with the form's constants (read
 * once per form an export meets). Students and candidates without a student are looked up apart,
 * so that each lookup names one indexed column.
 */
async function changesOf(
  client: SqlClient,
  rows: BatchRow[],
  visible: ExportPlan["visible"],
  constants: Map<string, ChangeConstants>,
): Promise<Map<string, Change>> {
  const neighbours = (column: "studentId" | "candidateId", ids: string[]) => {
    if (ids.length === 0) return Promise.resolve([]);
    const batch = inValues(client.dialect, `b."id"`, ids);
    const series = `${visible.sql} AND p."isCompleted" = TRUE AND p."formId" = b."formId" AND p."${column}" = b."${column}"`;
    return client.all<{ id: string; previousId: string | null; firstId: string | null }>(
      `SELECT b."id",
              (SELECT p."id" FROM "Submission" AS p
                WHERE ${series} AND (p."completedAt" < b."completedAt" OR (p."completedAt" = b."completedAt" AND p."id" < b."id"))
                ORDER BY p."completedAt" DESC, p."id" DESC LIMIT 1) AS "previousId",
              (SELECT p."id" FROM "Submission" AS p WHERE ${series} ORDER BY p."completedAt" ASC, p."id" ASC LIMIT 1) AS "firstId"
         FROM "Submission" AS b WHERE ${batch.sql}`,
      [...visible.values, ...visible.values, ...batch.params],
    );
  };
  const missingForms = [...new Set(rows.map((row) => row.formId))].filter((formId) => !constants.has(formId));
  const forms = missingForms.length === 0 ? null : inValues(client.dialect, `f."id"`, missingForms);
  const [ofStudents, ofCandidates, formRows] = await Promise.all([
    neighbours(
      "studentId",
      rows.flatMap((row) => (row.studentId ? [row.id] : [])),
    ),
    neighbours(
      "candidateId",
      rows.flatMap((row) => (row.studentId ? [] : [row.id])),
    ),
    forms
      ? client.all<Parameters<typeof formConstants>[0] & { id: string }>(
          `SELECT f."id", f."reliableChangeSd", f."reliableChangeReliability", f."remissionBelow", f."lowerIsBetter" FROM "Form" AS f WHERE ${forms.sql}`,
          forms.params,
        )
      : [],
  ]);
  for (const form of formRows) constants.set(form.id, formConstants(form));
  const found = new Map([...ofStudents, ...ofCandidates].map((row) => [row.id, row]));
  const compared = [...new Set([...found.values()].flatMap((row) => [row.previousId, row.firstId].filter((id): id is string => id !== null)))];
  const scores = new Map<string, number | null>();
  if (compared.length > 0) {
    const ids = inValues(client.dialect, `p."id"`, compared);
    for (const row of await client.all<{ id: string; totalScore: number | null }>(
      `SELECT p."id", p."totalScore" FROM "Submission" AS p WHERE ${ids.sql}`,
      ids.params,
    )) {
      scores.set(row.id, row.totalScore);
    }
  }
  return new Map(
    rows.map((row) => {
      const neighbour = found.get(row.id);
      const score = (id: string | null | undefined) => (id ? (scores.get(id) ?? null) : null);
      const change = changeOf(
        { score: row.totalScore, previous: score(neighbour?.previousId), baseline: score(neighbour?.firstId), isBaseline: neighbour?.firstId === row.id },
        constants.get(row.formId)!,
      );
      return [row.id, change];
    }),
  );
}

/** The names of the groups (not deleted) each respondent of a batch is in, by respondent id, in name order. */
async function groupsOf(client: SqlClient, rows: BatchRow[]): Promise<Map<string, string[]>> {
  const students = [...new Set(rows.flatMap((row) => (row.studentId ? [row.studentId] : [])))];
  const candidates = [...new Set(rows.flatMap((row) => (row.candidateId ? [row.candidateId] : [])))];
  const member = [
    ...(students.length > 0 ? [inValues(client.dialect, `m."studentId"`, students)] : []),
    ...(candidates.length > 0 ? [inValues(client.dialect, `m."candidateId"`, candidates)] : []),
  ];
  const groups = new Map<string, string[]>();
  if (member.length === 0) return groups;
  const memberships = await client.all<{ person: string; name: string }>(
    `SELECT COALESCE(m."studentId", m."candidateId") AS person, g."name" FROM "GroupMember" AS m
       JOIN "Group" AS g ON g."id" = m."groupId" AND g."deletedAt" IS NULL
      WHERE ${member.map((list) => list.sql).join(" OR ")}
      ORDER BY g."name", g."id"`,
    member.flatMap((list) => list.params),
  );
  for (const { person, name } of memberships) {
    const names = groups.get(person);
    if (names) names.push(name);
    else groups.set(person, [name]);
  }
  return groups;
}

type AnswerCells = { questionId: string; optionTexts: unknown; text: string | null; score: number };

/** The answers of a batch's results to the chosen form's questions, by result and question (none without a form). */
async function answersOf(client: SqlClient, rows: BatchRow[], questions: ExportQuestion[]): Promise<Map<string, Map<string, AnswerCells>>> {
  const answers = new Map<string, Map<string, AnswerCells>>();
  if (questions.length === 0) return answers;
  const ids = inValues(
    client.dialect,
    `a."submissionId"`,
    rows.map((row) => row.id),
  );
  const found = await client.all<AnswerCells & { submissionId: string }>(
    `SELECT a."submissionId", a."questionId", a."optionTexts", a."text", a."score" FROM "Answer" AS a WHERE ${ids.sql}`,
    ids.params,
  );
  for (const answer of found) {
    const byQuestion = answers.get(answer.submissionId) ?? new Map<string, AnswerCells>();
    byQuestion.set(answer.questionId, answer);
    answers.set(answer.submissionId, byQuestion);
  }
  return answers;
}

/**
 * A text cell that a spreadsheet would run as a formula gets a leading apostrophe in the CSV, as
 * OWASP advises (docs/api-contract.md §23): one that starts with =, +, -, @, a tab or a carriage return (what
 * a respondent may type), or that holds one of them right after either list separator, `,` or
 * `;`. The second is for a spreadsheet that splits the file on the other separator than the one
 * it was written with (a comma file opened where the decimal separator is a comma splits on `;`):
 * `Tom;=4+4` would start a cell `=4+4` there, so such a field is quoted too (RFC 4180 lets any
 * field be quoted), and that spreadsheet reads it as one cell that its apostrophe leads. Numbers
 * stay numbers. The XLSX writes text cells as text, which never run.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const FORMULA_AFTER_SEPARATOR = /[,;][=+\-@\t\r]/;
export const guardFormula = (text: string) => (FORMULA_START.test(text) || FORMULA_AFTER_SEPARATOR.test(text) ? `'${text}` : text);

/** A cell as it was before `guardFormula`: a roster exported here imports to the same values. */
export const unguardFormula = (text: string) => (text.startsWith("'") && guardFormula(text.slice(1)) === text ? text.slice(1) : text);

/**
 * How csv-stringify writes the cells. Its own RFC 4180 quoting: a field holding the separator or a
 * quote, and with `quote_record_delimiter` one holding a CR or an LF anywhere (by default it quotes
 * a line break only when it is the whole record delimiter, CR LF, and a multi-line answer typed on
 * a phone would end the record in the middle of the field). Its casts: a time in the
 * organization's zone with its offset, a number with a decimal comma in the semicolon file (what
 * Excel reads as a number where the decimal separator is a comma) and a point in the comma file,
 * and every text, the header's too, through the formula guard.
 */
function csvOptions(plan: ExportPlan): CsvOptions {
  const clock = zoneClock(plan.timeZone);
  const semicolon = plan.delimiter === "semicolon";
  return {
    delimiter: semicolon ? ";" : ",",
    record_delimiter: "windows",
    quote_record_delimiter: true,
    quoted_match: FORMULA_AFTER_SEPARATOR,
    cast: {
      string: guardFormula,
      number: semicolon ? (value) => String(value).replace(".", ",") : String,
      date: clock.iso,
    },
  };
}

/**
 * CSV: UTF-8 with a BOM (so Excel reads the accents). One chunk per batch of rows rather than one
 * per row: a stream of 100,000 small chunks spent more time and garbage passing them along than
 * making them.
 */
async function* csvChunks(plan: ExportPlan, rows: AsyncIterable<ExportRow[]>): AsyncGenerator<Uint8Array> {
  const options = csvOptions(plan);
  const encoder = new TextEncoder();
  yield encoder.encode(`\uFEFF${stringifyRows([plan.header], options)}`);
  for await (const batch of rows) yield encoder.encode(stringifyRows(batch, options));
}

/** The zip entry's stream ExcelJS writes a sheet into: archiver's, from readable-stream, which predates `writableNeedDrain`. */
type ZipEntryStream = EventEmitter & { writableNeedDrain?: boolean; _writableState?: { needDrain?: boolean } };

/**
 * XLSX: one worksheet written row by row by ExcelJS's streaming writer, the header row frozen.
 * A spreadsheet's date cell has no zone: it holds the organization's local date and time, and the
 * column's header names the zone (`completedAt (America/Sao_Paulo)`, ADR 49).
 */
async function* xlsxChunks(plan: ExportPlan, rows: AsyncIterable<ExportRow[]>): AsyncGenerator<Uint8Array> {
  const { header, sheetName, timeZone } = plan;
  const clock = zoneClock(timeZone);
  // Loaded for XLSX only: ExcelJS is large, and most exports are CSV.
  const { default: ExcelJS } = await import("exceljs");
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = header.map((name, i) => {
    const time = EXPORT_TIME_COLUMNS.includes(i);
    return {
      header: time ? `${name} (${timeZone})` : name,
      key: String(i),
      width: i < 2 ? 28 : time ? 20 : 16,
      style: time ? { numFmt: "yyyy-mm-dd hh:mm:ss" } : {},
    };
  });
  let closed = false;
  output.on("close", () => {
    closed = true;
  });
  const writing = (async () => {
    for await (const batch of rows) {
      if (closed) return;
      for (const row of batch) sheet.addRow(row.map((cell) => (cell instanceof Date ? clock.wallClock(cell) : cell))).commit();
      // ExcelJS's sheet stream hands its XML to the zip's deflate stream without waiting for it
      // (its StreamBuf ignores backpressure): wait for the deflate too, or the XML not yet
      // compressed piles up, ≈56 MiB at 100,000 rows and more with more.
      const deflating = (sheet as unknown as { stream?: { pipes?: ZipEntryStream[] } }).stream?.pipes?.[0];
      if (deflating && (deflating.writableNeedDrain ?? deflating._writableState?.needDrain)) await drainOrClose(deflating, output);
      // The reader is slower than the database: wait for it before reading on (or for it to go away).
      if (output.writableNeedDrain) await drainOrClose(output, output);
    }
    sheet.commit();
    await workbook.commit();
  })();
  writing.catch((error: unknown) => output.destroy(error as Error));
  try {
    for await (const chunk of output) yield chunk as Uint8Array;
    await writing;
  } finally {
    output.destroy();
  }
}
