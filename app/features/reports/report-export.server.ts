import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";
import { stringify as stringifyRows } from "csv-stringify/sync";
import ExcelJS from "exceljs";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { rawDate, rawJson } from "~/lib/raw-values.ts";
import { EXPORT_FIXED_COLUMNS } from "./report-export-columns.ts";
import type { ExportReportsQuery } from "./report-schemas.ts";
import { reportSelection, searchTextContains } from "./reports.server.ts";

/**
 * The reports list as a file to take away (contract §13): one row per completed submission, in
 * the list's order (newest first) and with its filters, and with a form chosen one more pair of
 * columns per question (the answer, then its score). Streamed: rows are read in batches by keyset
 * (completedAt, id), each batch written before the next is read, so 100,000 rows take the memory
 * of one batch and the first bytes leave at once. A client that goes away stops the reading.
 */

/** Rows per read: one query for the ids, one for their columns. */
export const EXPORT_BATCH = 1000;

type Cell = string | number | Date | null;
type ExportRow = Cell[];

/** A batch's row as read: the result's columns with its respondent's and assigner's names. */
type BatchRow = {
  id: string;
  createdAt: unknown;
  completedAt: unknown;
  totalScore: number | null;
  maxScore: number | null;
  percentage: number | null;
  scoreLabel: string | null;
  formTitle: string | null;
  assignedByName: string;
  studentId: string | null;
  candidateId: string | null;
  respondentName: string | null;
};

type ExportQuestion = { id: string; text: string };

/** The questions of the chosen form, in order, for their columns (a form of the caller's organization; none otherwise). */
async function formQuestions(actor: Actor, formId: string | undefined): Promise<ExportQuestion[]> {
  if (!formId) return [];
  const form = await db.form.findFirst({
    where: { id: formId, ...(actor.role === "SUPER_ADMIN" ? {} : { organizationId: actor.organizationId }) },
    select: { questions: { orderBy: { position: "asc" }, select: { id: true, text: true } } },
  });
  return form?.questions ?? [];
}

/** The header and the rows of an export, batch by batch; nothing is read until the first batch is asked for. */
export async function reportExport(actor: Actor, query: ExportReportsQuery) {
  const selection = await reportSelection(actor, query);
  const questions = await formQuestions(actor, query.formId);
  const header = [...EXPORT_FIXED_COLUMNS, ...questions.flatMap((q, i) => [`${i + 1}. ${q.text}`, `${i + 1}. ${q.text} [score]`])];
  const conditions = selection.term ? [...selection.sql, searchTextContains(env().databaseProvider, selection.term)] : selection.sql;

  async function* batches(): AsyncGenerator<ExportRow[]> {
    let after: { completedAt: Date; id: string } | null = null;
    for (;;) {
      const cursor: Prisma.Sql = after
        ? // The first term bounds the scope index's completedAt range; with the OR alone SQLite read
          // every row of the scope for every batch (250,000 rows: 250 × 250,000 index entries).
          Prisma.sql`AND s."completedAt" <= ${after.completedAt} AND (s."completedAt" < ${after.completedAt} OR s."id" < ${after.id})`
        : Prisma.empty;
      // Raw rows, three queries per 1,000: the ORM's nested reads made ten times the garbage for
      // the same bytes, and the heap it left behind was most of an export's memory (ADR 26).
      const rows = await db.$queryRaw<BatchRow[]>`
        SELECT s."id", s."createdAt", s."completedAt", s."totalScore", s."maxScore", s."percentage", s."scoreLabel", s."formTitle",
               u."name" AS "assignedByName", s."studentId", s."candidateId", COALESCE(st."name", ca."name") AS "respondentName"
          FROM "Submission" AS s
          JOIN "User" AS u ON u."id" = s."assignedById"
          LEFT JOIN "Student" AS st ON st."id" = s."studentId"
          LEFT JOIN "Candidate" AS ca ON ca."id" = s."candidateId"
         WHERE ${Prisma.join(conditions, " AND ")} ${cursor}
         ORDER BY s."completedAt" DESC, s."id" DESC LIMIT ${EXPORT_BATCH}`;
      if (rows.length === 0) return;
      const [groups, answers] = await Promise.all([groupsOf(rows), answersOf(rows, questions)]);
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
          ...questions.flatMap((question) => {
            const answer = answered?.get(question.id);
            if (!answer) return [null, null];
            const chosen = rawJson(answer.optionTexts) as string[];
            return [chosen.length > 0 ? chosen.join("; ") : (answer.text ?? ""), answer.score];
          }),
        ];
      });
      if (rows.length < EXPORT_BATCH) return;
      const last = rows.at(-1)!;
      after = { completedAt: rawDate(last.completedAt)!, id: last.id };
    }
  }

  return { header, batches };
}

/** The names of the groups (not deleted) each respondent of a batch is in, by respondent id, in name order. */
async function groupsOf(rows: BatchRow[]): Promise<Map<string, string[]>> {
  const students = rows.flatMap((row) => (row.studentId ? [row.studentId] : []));
  const candidates = rows.flatMap((row) => (row.candidateId ? [row.candidateId] : []));
  const member = [
    ...(students.length > 0 ? [Prisma.sql`m."studentId" IN (${Prisma.join([...new Set(students)])})`] : []),
    ...(candidates.length > 0 ? [Prisma.sql`m."candidateId" IN (${Prisma.join([...new Set(candidates)])})`] : []),
  ];
  const groups = new Map<string, string[]>();
  if (member.length === 0) return groups;
  const memberships = await db.$queryRaw<{ person: string; name: string }[]>`
    SELECT COALESCE(m."studentId", m."candidateId") AS person, g."name" FROM "GroupMember" AS m
      JOIN "Group" AS g ON g."id" = m."groupId" AND g."deletedAt" IS NULL
     WHERE ${Prisma.join(member, " OR ")}
     ORDER BY g."name", g."id"`;
  for (const { person, name } of memberships) groups.set(person, [...(groups.get(person) ?? []), name]);
  return groups;
}

type AnswerCells = { questionId: string; optionTexts: unknown; text: string | null; score: number };

/** The answers of a batch's results to the chosen form's questions, by result and question (none without a form). */
async function answersOf(rows: BatchRow[], questions: ExportQuestion[]): Promise<Map<string, Map<string, AnswerCells>>> {
  const answers = new Map<string, Map<string, AnswerCells>>();
  if (questions.length === 0) return answers;
  const found = await db.$queryRaw<(AnswerCells & { submissionId: string })[]>`
    SELECT a."submissionId", a."questionId", a."optionTexts", a."text", a."score" FROM "Answer" AS a
     WHERE a."submissionId" IN (${Prisma.join(rows.map((row) => row.id))})`;
  for (const answer of found) {
    const byQuestion = answers.get(answer.submissionId) ?? new Map<string, AnswerCells>();
    byQuestion.set(answer.questionId, answer);
    answers.set(answer.submissionId, byQuestion);
  }
  return answers;
}

/**
 * A text cell that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a
 * carriage return: what a respondent may type) gets a leading apostrophe in the CSV, as OWASP
 * advises; numbers stay numbers. The XLSX writes text cells as text, which never run.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const csvCell = (cell: Cell) => {
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === "string" && FORMULA_START.test(cell)) return `'${cell}`;
  return cell;
};

/**
 * The export as CSV: UTF-8 with a BOM (so Excel reads the accents), RFC 4180 quoting by
 * csv-stringify. One chunk per batch of rows rather than one per row: a stream of 100,000 small
 * chunks spent more time and garbage passing them along than making them. The stream pulls:
 * the next batch is read only when the client has taken the last one, and a client that goes
 * away stops the reading.
 */
export function csvStream(exported: Awaited<ReturnType<typeof reportExport>>, delimiter: "comma" | "semicolon"): ReadableStream<Uint8Array> {
  const options = { delimiter: delimiter === "semicolon" ? ";" : ",", record_delimiter: "windows" } as const;
  const encoder = new TextEncoder();
  const chunks = (async function* () {
    yield encoder.encode(`\uFEFF${stringifyRows([exported.header], options)}`);
    for await (const batch of exported.batches())
      yield encoder.encode(
        stringifyRows(
          batch.map((row) => row.map(csvCell)),
          options,
        ),
      );
  })();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    // Nothing read ahead: a batch is made when the client asks for it.
    { highWaterMark: 0 },
  );
}

/** The export as one XLSX worksheet, written row by row by ExcelJS's streaming writer. */
export function xlsxStream(exported: Awaited<ReturnType<typeof reportExport>>, sheetName: string): ReadableStream<Uint8Array> {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = exported.header.map((name, i) => ({
    header: name,
    key: String(i),
    width: i < 2 ? 28 : 16,
    style: i === 6 || i === 7 ? { numFmt: "yyyy-mm-dd hh:mm" } : {},
  }));
  let closed = false;
  output.on("close", () => {
    closed = true;
  });
  (async () => {
    for await (const batch of exported.batches()) {
      if (closed) return;
      for (const row of batch) sheet.addRow(row).commit();
      // The reader is slower than the database: wait for it before reading on (or for it to go away).
      if (output.writableNeedDrain) await Promise.race([once(output, "drain"), once(output, "close")]);
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => output.destroy(error as Error));
  return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}
