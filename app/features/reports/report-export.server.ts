import { once } from "node:events";
import { PassThrough, Readable, pipeline } from "node:stream";
import { stringify } from "csv-stringify";
import ExcelJS from "exceljs";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
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

const rowSelect = {
  id: true,
  createdAt: true,
  completedAt: true,
  totalScore: true,
  maxScore: true,
  percentage: true,
  scoreLabel: true,
  formTitle: true,
  assignedBy: { select: { name: true } },
  student: { select: { name: true, groups: { where: { group: { deletedAt: null } }, select: { group: { select: { name: true } } } } } },
  candidate: { select: { name: true, groups: { where: { group: { deletedAt: null } }, select: { group: { select: { name: true } } } } } },
} satisfies Prisma.SubmissionSelect;

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
        ? Prisma.sql`AND (s."completedAt" < ${after.completedAt} OR (s."completedAt" = ${after.completedAt} AND s."id" < ${after.id}))`
        : Prisma.empty;
      const ids = await db.$queryRaw<{ id: string }[]>`
        SELECT s."id" FROM "Submission" AS s WHERE ${Prisma.join(conditions, " AND ")} ${cursor}
        ORDER BY s."completedAt" DESC, s."id" DESC LIMIT ${EXPORT_BATCH}`;
      if (ids.length === 0) return;
      const rows = await db.submission.findMany({
        where: { id: { in: ids.map((row) => row.id) } },
        select: {
          ...rowSelect,
          ...(questions.length > 0 ? { answers: { select: { questionId: true, optionTexts: true, text: true, score: true } } } : {}),
        },
        orderBy: [{ completedAt: "desc" }, { id: "desc" }],
      });
      yield rows.map((row) => {
        const respondent = row.student ?? row.candidate;
        const answers = new Map(("answers" in row ? row.answers : []).map((answer) => [answer.questionId, answer]));
        return [
          row.id,
          respondent?.name ?? "",
          row.student ? "student" : "candidate",
          (respondent?.groups ?? []).map((member) => member.group.name).join("; "),
          row.formTitle ?? "",
          row.assignedBy.name,
          row.createdAt,
          row.completedAt,
          row.totalScore,
          row.maxScore,
          row.percentage,
          row.scoreLabel,
          ...questions.flatMap((question) => {
            const answer = answers.get(question.id);
            if (!answer) return [null, null];
            const chosen = answer.optionTexts as string[];
            return [chosen.length > 0 ? chosen.join("; ") : (answer.text ?? ""), answer.score];
          }),
        ];
      });
      if (ids.length < EXPORT_BATCH) return;
      // Go on after the batch's last row (or, deleted between the two reads, the last one still there).
      const last = rows.find((row) => row.id === ids.at(-1)?.id) ?? rows.at(-1);
      if (!last?.completedAt) return;
      after = { completedAt: last.completedAt, id: last.id };
    }
  }

  return { header, batches };
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

/** The export as CSV: UTF-8 with a BOM (so Excel reads the accents), RFC 4180 quoting by csv-stringify. */
export function csvStream(exported: Awaited<ReturnType<typeof reportExport>>, delimiter: "comma" | "semicolon"): ReadableStream<Uint8Array> {
  const source = Readable.from(
    (async function* () {
      for await (const batch of exported.batches()) for (const row of batch) yield row.map(csvCell);
    })(),
  );
  const csv = stringify({ bom: true, header: true, columns: exported.header, delimiter: delimiter === "semicolon" ? ";" : ",", record_delimiter: "windows" });
  // pipeline: a client that goes away destroys the CSV stream, which stops the reading.
  pipeline(source, csv, () => {});
  return Readable.toWeb(csv) as ReadableStream<Uint8Array>;
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
