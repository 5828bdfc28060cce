import { createContext, type RouterContextProvider } from "react-router";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { ApiError, notFound } from "~/lib/problem.server.ts";
import { openSqlClient } from "~/lib/sql-client.server.ts";
import { visibleFormsWhere } from "../forms/forms.server.ts";
import { visibleSubmissionsSql, visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";
import { EXPORT_FIXED_COLUMNS } from "./report-export-columns.ts";
import { type ExportPlan, type ExportQuestion, type ExportSubscale, exportFileChunks } from "./report-export-file.server.ts";
import { subscaleDefinitions } from "../scoring/scale-schemas.ts";
import type { ExportReportsQuery } from "./report-schemas.ts";
import { countWhere, reportSelection, searchTextContains } from "./reports.server.ts";

/**
 * The reports list as a file to take away (docs/api-contract.md §13): one row per completed submission, in
 * the list's order (newest first) and with its filters, and with a form chosen a column per
 * subscale (its score as captured) and a pair of columns per question (the answer, then its score). The request checks and scopes; the file is
 * made from the resulting plan (report-export-file.server.ts) by the export maker of the request's
 * context: in the production server a worker thread per export (server/export-workers.ts, ADR 34).
 */

/**
 * The questions of the chosen form, in order, for their columns. The form must be in the caller's
 * scope, as for reading it (`GET /api/forms/:id`: an administrator's organization, a teacher's own
 * forms and the organization's templates), or be the form of one of the caller's results (a form
 * since deleted, a template since withdrawn: the reports list names it, and each report shows its
 * questions). Anything else is 404, as that read answers: its question texts are the header.
 */
async function formColumns(actor: Actor, formId: string | undefined): Promise<{ questions: ExportQuestion[]; subscales: ExportSubscale[] }> {
  if (!formId) return { questions: [], subscales: [] };
  const form = await db.form.findFirst({
    where: { id: formId, OR: [visibleFormsWhere(actor), { submissions: { some: visibleSubmissionsWhere(actor) } }] },
    select: { subscales: true, questions: { orderBy: { position: "asc" }, select: { id: true, text: true } } },
  });
  if (!form) throw notFound("form");
  return { questions: form.questions, subscales: subscaleDefinitions.parse(form.subscales).map(({ key, name }) => ({ key, name })) };
}

/**
 * What to export for this caller and these filters; a filter that names something out of reach is
 * refused here (400, 404). `rowCount` counts the rows the plan selects, for the export's audit event.
 */
export async function reportExportPlan(
  actor: Actor,
  query: ExportReportsQuery,
  sheetName: string,
): Promise<{ plan: ExportPlan; rowCount: () => Promise<number> }> {
  const selection = await reportSelection(actor, query);
  const { questions, subscales } = await formColumns(actor, query.formId);
  const header = [
    ...EXPORT_FIXED_COLUMNS,
    ...subscales.map((subscale) => `${subscale.name} [${subscale.key}]`),
    ...questions.flatMap((q, i) => [`${i + 1}. ${q.text}`, `${i + 1}. ${q.text} [score]`]),
  ];
  const conditions = selection.term ? [...selection.sql, searchTextContains(env().databaseProvider, selection.term)] : selection.sql;
  // Prisma.Sql keeps `?` placeholders in `.sql` and the values apart: the worker's own connection binds them.
  const where = Prisma.join(conditions, " AND ");
  const visible = visibleSubmissionsSql(actor, "p");
  const plan: ExportPlan = {
    where: { sql: where.sql, values: where.values },
    visible: { sql: visible.sql, values: visible.values },
    questions,
    subscales,
    header,
    format: query.format,
    delimiter: query.delimiter,
    sheetName,
    timeZone: actor.timeZone,
  };
  return { plan, rowCount: () => countWhere(where) };
}

/**
 * Makes an export's bytes from its plan. It resolves once the file has begun (the connection is
 * open and the header made), so that a failure to start is an error answer rather than a cut
 * download; it rejects with `EXPORTS_BUSY` when too many exports are already running and waiting.
 */
export type ExportMaker = (plan: ExportPlan) => Promise<ReadableStream<Uint8Array>>;

/** How the worker pool says it is full (server/export-workers.ts); a name, because the pool lives outside the app bundle. */
export const EXPORTS_BUSY = "ExportsBusyError";
export const EXPORTS_RETRY_AFTER_SECONDS = 10;

/** Without the production server (`npm run dev`): the file is made on the event loop, through a connection of its own. */
export const exportMakerContext = createContext<ExportMaker>(async (plan) => {
  const client = openSqlClient(env().DATABASE_URL, { poolSize: 1, readOnlyWithCacheKiB: 2048 });
  const chunks = exportFileChunks(client, plan);
  const close = () => client.close().catch(() => {});
  try {
    const first = await chunks.next();
    return new ReadableStream<Uint8Array>(
      {
        start(controller) {
          if (!first.done) controller.enqueue(first.value);
        },
        async pull(controller) {
          try {
            const next = await chunks.next();
            if (!next.done) return controller.enqueue(next.value);
            controller.close();
            await close();
          } catch (error) {
            controller.error(error);
            await close();
          }
        },
        async cancel() {
          await chunks.return(undefined);
          await close();
        },
      },
      // Nothing read ahead: a batch is made when the client asks for it.
      { highWaterMark: 0 },
    );
  } catch (error) {
    await close();
    throw error;
  }
});

/** The export's bytes from the context's maker; 503 with Retry-After when every export slot is taken. */
export async function makeExport(context: Readonly<RouterContextProvider>, plan: ExportPlan): Promise<ReadableStream<Uint8Array>> {
  try {
    return await context.get(exportMakerContext)(plan);
  } catch (error) {
    if (error instanceof Error && error.name === EXPORTS_BUSY) {
      throw new ApiError(503, "BUSY", "Too many exports are being made right now. Try again in a moment.", undefined, {
        "Retry-After": String(EXPORTS_RETRY_AFTER_SECONDS),
      });
    }
    throw error;
  }
}
