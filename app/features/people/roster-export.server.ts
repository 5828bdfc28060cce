import { stringify } from "csv-stringify/sync";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { dayIn } from "~/lib/zoned-time.ts";
import { guardFormula } from "../reports/report-export-file.server.ts";
import { personListWhere } from "./people.server.ts";
import { PROFILE_COLUMNS } from "./roster-columns.ts";
import { exportFilters, recordAudit } from "../audit/audit.server.ts";

type Kind = "students" | "candidates";

/**
 * The columns of a roster file the service writes, named as the import reads them, so that a file
 * exported here imports again (`mode=upsert` on another day, or into another organization) to the
 * same people. Groups stay out: a person may be in several, and a row names one.
 */
export const ROSTER_EXPORT_COLUMNS = PROFILE_COLUMNS;

const select = Object.fromEntries(ROSTER_EXPORT_COLUMNS.map((column) => [column, true])) as Record<(typeof ROSTER_EXPORT_COLUMNS)[number], true>;

/** People read per statement: the file is built a batch at a time. */
const BATCH = 1000;

/**
 * The caller's students or candidates, with the list's filters (search, status, group), oldest
 * first, as a CSV file: UTF-8 with a BOM, comma separated, CR LF between rows, RFC 4180 quoting,
 * and the apostrophe before a text a spreadsheet would run as a formula (ADR 49), which the
 * import takes off again. The file is made whole before it is answered, so its `export.created`
 * event has its exact row count.
 */
export async function rosterExportCsv(
  actor: Actor,
  kind: Kind,
  query: { search?: string | undefined; status?: string | undefined; groupId?: string | undefined },
) {
  const where = personListWhere(actor, query);
  const options = { record_delimiter: "windows", quote_record_delimiter: true, cast: { string: guardFormula, number: String } } as const;
  const chunks = [`\uFEFF${stringify([[...ROSTER_EXPORT_COLUMNS]], options)}`];
  let rowCount = 0;
  for (let skip = 0; ; skip += BATCH) {
    const page = { where, select, orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], skip, take: BATCH };
    const people =
      kind === "students"
        ? await db.student.findMany(page as Prisma.StudentFindManyArgs & { select: typeof select })
        : await db.candidate.findMany(page as Prisma.CandidateFindManyArgs & { select: typeof select });
    if (people.length === 0) break;
    rowCount += people.length;
    chunks.push(
      stringify(
        people.map((person) => ROSTER_EXPORT_COLUMNS.map((column) => person[column] ?? null)),
        options,
      ),
    );
    if (people.length < BATCH) break;
  }
  await recordAudit(db, {
    by: actor,
    action: "export.created",
    targetId: actor.organizationId,
    details: { kind, format: "csv", filters: exportFilters(query), rowCount },
  });
  return chunks.join("");
}

/** `students-2026-11-30.csv`: the day it was made, in the organization's time zone. */
export const rosterExportFilename = (actor: Actor, kind: Kind, now = new Date()) => `${kind}-${dayIn(now, actor.timeZone)}.csv`;
