import type { Actor } from "~/lib/auth/actor.server.ts";
import { organizationScope } from "~/lib/auth/actor.server.ts";
import { db, Prisma, serializeWrites } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import type { ScoreBand } from "../scoring/scoring.ts";
import { badRequest, conflict, fieldProblem } from "~/lib/problem.server.ts";
import { dayIn } from "~/lib/zoned-time.ts";
import { recordTombstone } from "~/lib/tombstones.server.ts";
import { recordAudit } from "../audit/audit.server.ts";
import { foldForSearch, submissionSearchText } from "~/lib/search.ts";
import { type ScoreDisplay, readScoreDisplay } from "../scoring/score-display.ts";
import { subscaleResults } from "../scoring/scale-schemas.ts";
import { capturedDisplaySql } from "../scoring/score-display.server.ts";
import { changesOfRows, constantsOf, formChangeSelect } from "../scoring/change.server.ts";
import type { Change, ChangeConstants } from "../scoring/change.ts";
import { assertStaffResultsView, historySelect, visibleSubmissionsSql, visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";

/** Filters shared by the student and candidate lists: organization, not deleted, search, status. */
export function personListWhere(actor: Actor, query: { search?: string | undefined; status?: string | undefined; groupId?: string | undefined }) {
  return {
    deletedAt: null,
    ...organizationScope(actor),
    ...(query.search ? { OR: [{ searchName: { contains: foldForSearch(query.search) } }, { externalId: recordNumberStart(query.search) }] } : {}),
    ...(query.status ? { status: query.status } : {}),
    // A group of another organization (or a deleted one) has no members here: an empty page.
    ...(query.groupId ? { groups: { some: { groupId: query.groupId, group: { deletedAt: null, ...organizationScope(actor) } } } } : {}),
  };
}

/**
 * A record number (`externalId`) given whole or by its start (docs/api-contract.md §18), without
 * regard to case on both databases: SQLite's LIKE folds ASCII letters, PostgreSQL is asked to
 * (ILIKE). Prisma leaves LIKE's wildcards unescaped (prisma/orm#19506), and SQLite's LIKE has no
 * escape character unless told: a search holding `%` or `_` finds a record number only whole, as
 * it is written.
 */
function recordNumberStart(search: string) {
  if (/[%_]/.test(search)) return { equals: search };
  return env().databaseProvider === "postgresql" ? { startsWith: search, mode: "insensitive" as const } : { startsWith: search };
}

/**
 * A date of birth is a day that has begun where the organization is: a later one is refused (400
 * naming `dateOfBirth`), as schedules refuse a start before today (ADR 76).
 */
export function assertBornByToday(input: { dateOfBirth?: string | null | undefined }, timeZone: string, now = new Date()) {
  if (input.dateOfBirth && input.dateOfBirth > dayIn(now, timeZone)) {
    throw badRequest("A date of birth cannot be later than today.", [fieldProblem("dateOfBirth", "dateOfBirthFuture")]);
  }
}

/**
 * E-mail addresses are unique among an organization's students (and, separately, candidates)
 * that are not deleted. Checked here rather than by a database constraint because deleted
 * records keep their address; checked in the transaction `tx` that then writes the address, after
 * taking the organization's roster (ADR 41), so that two requests at once cannot both pass.
 * External ids are unique among all of them (a unique index; deleting a person releases theirs,
 * ADR 51): checked the same way, so that a second person with the id is a 409 rather than the
 * index's error.
 */
export async function assertProfileFree(
  tx: Prisma.TransactionClient,
  kind: "student" | "candidate",
  organizationId: string,
  input: { email?: string | null | undefined; externalId?: string | null | undefined },
  exceptId?: string,
) {
  const { email, externalId } = input;
  if (!email && !externalId) return;
  await serializeWrites(tx, "roster", organizationId);
  const others = exceptId ? { id: { not: exceptId } } : {};
  const find = (where: Prisma.StudentWhereInput & Prisma.CandidateWhereInput) =>
    kind === "student" ? tx.student.findFirst({ where, select: { id: true } }) : tx.candidate.findFirst({ where, select: { id: true } });
  if (email && (await find({ organizationId, email, deletedAt: null, ...others }))) {
    throw conflict(`Another ${kind} of this organization already uses this e-mail address.`, "EMAIL_TAKEN");
  }
  if (externalId && (await find({ organizationId, externalId, ...others }))) {
    throw conflict(`Another ${kind} of this organization already has this external id.`, "EXTERNAL_ID_TAKEN");
  }
}

/**
 * Soft-deletes a student or a candidate: the record stays for the results that reference it, and
 * its tombstone tells the lists read with updatedSince (ADR 52). The groups it was in changed
 * (their member counts), so their updatedAt moves too. Answers when it was deleted.
 */
export async function deletePerson(actor: Actor, person: Respondent): Promise<Date> {
  const deletedAt = new Date();
  await db.$transaction(async (tx) => {
    const organizationId = await softDeletePerson(tx, person, deletedAt);
    // Deleted meanwhile by another request, which recorded it.
    if (!organizationId) return;
    await recordAudit(tx, {
      by: actor,
      action: "studentId" in person ? "student.deleted" : "candidate.deleted",
      targetId: "studentId" in person ? person.studentId : person.candidateId,
      organizationId,
    });
  });
  return deletedAt;
}

/**
 * `deletePerson`'s writes, in the caller's transaction `tx` (an erasure's, ADR 88). A person
 * already deleted is left as it is: its tombstone was written then. Answers the deleted person's
 * organization, or null when it deleted nothing.
 */
export async function softDeletePerson(tx: Prisma.TransactionClient, person: Respondent, deletedAt: Date): Promise<string | null> {
  const where = { id: "studentId" in person ? person.studentId : person.candidateId, deletedAt: null };
  // The external id is released, so that the other system's next sync can bring the person back (ADR 51).
  const data = { deletedAt, updatedAt: deletedAt, externalId: null };
  const [deleted] =
    "studentId" in person
      ? await tx.student.updateManyAndReturn({ where, data, select: { organizationId: true } })
      : await tx.candidate.updateManyAndReturn({ where, data, select: { organizationId: true } });
  // Deleted meanwhile by another request, which told the lists.
  if (!deleted) return null;
  await recordTombstone(tx, {
    organizationId: deleted.organizationId,
    kind: "studentId" in person ? "student" : "candidate",
    itemId: where.id,
    audience: "ALL",
    deletedAt,
  });
  await touchGroupsOf(tx, person, deletedAt);
  return deleted.organizationId;
}

/** The groups `person` is in changed (their member counts): their updatedAt moves (ADR 52). */
export async function touchGroupsOf(tx: Prisma.TransactionClient, person: Respondent, at: Date) {
  await tx.group.updateMany({ where: { deletedAt: null, members: { some: person } }, data: { updatedAt: at } });
}

type ProfileInput = {
  name?: string | undefined;
  status?: string | undefined;
  email?: string | null | undefined;
  externalId?: string | null | undefined;
  dateOfBirth?: string | null | undefined;
  phone?: string | null | undefined;
  age?: number | null | undefined;
  grade?: string | null | undefined;
  gender?: string | null | undefined;
};

/** The columns a create or update body sets; fields left out are not touched. */
export function personData<S extends string>(input: ProfileInput & { status?: S | undefined }) {
  const data: { name?: string; searchName?: string; status?: S } & Record<string, string | number | null> = {};
  if (input.name !== undefined) Object.assign(data, { name: input.name, searchName: foldForSearch(input.name) });
  if (input.status !== undefined) data.status = input.status;
  for (const field of ["email", "externalId", "dateOfBirth", "phone", "age", "grade", "gender"] as const) {
    if (input[field] !== undefined) data[field] = input[field];
  }
  return data;
}

/**
 * A student's or candidate's results that the caller may see, newest first; each completed one
 * with its change over time within the person's results on its form (docs/api-contract.md §18),
 * and its subscales with theirs. Every result of the person is read, so each series is whole.
 */
export async function personHistory(actor: Actor, person: { studentId: string } | { candidateId: string }) {
  assertStaffResultsView(actor);
  const rows = await db.submission.findMany({
    where: { AND: [person, visibleSubmissionsWhere(actor)] },
    select: { ...historySelect, subscales: true, form: { select: { ...historySelect.form.select, ...formChangeSelect } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const forms = new Map(rows.map((row) => [row.form.id, row.form]));
  const changes = changesOfRows(
    rows.flatMap((row) => (row.isCompleted && row.completedAt ? [{ ...row, formId: row.form.id, person: "", completedAt: row.completedAt }] : [])),
    (formId) => constantsOf(forms.get(formId)!),
  );
  return rows.map(({ form, subscales, ...row }) => {
    const figures = changes.get(row.id);
    const changeOf = new Map(figures?.subscales.map((subscale) => [subscale.key, subscale.change]));
    return {
      ...row,
      form: { id: form.id, title: form.title },
      change: figures?.change ?? null,
      subscales: figures
        ? subscaleResults.parse(subscales ?? []).map(({ key, name, score, maxScore }) => ({ key, name, score, maxScore, change: changeOf.get(key)! }))
        : [],
    };
  });
}

/** The newest completed results a person's page charts and tables per form, and the newest not completed. */
export const HISTORY_PER_FORM = 50;
export const HISTORY_OPEN_LIMIT = 50;

/** A band of a form as a result captured it at completion (`scoredAgainst.scoreRanges`). */
export type CapturedBand = ScoreBand;

/** `scoreRanges` read back from the snapshot's JSON; anything malformed is left out. */
function capturedBands(json: unknown): CapturedBand[] {
  let value = json;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (band): band is CapturedBand =>
        typeof band === "object" &&
        band !== null &&
        Number.isFinite(band.min) &&
        Number.isFinite(band.max) &&
        typeof band.label === "string" &&
        typeof band.color === "string",
    )
    .map(({ min, max, label, color }) => ({ min, max, label, color }))
    .sort((a, b) => a.min - b.min);
}

/**
 * A person's page: their completed results grouped by form (instrument), each with the bands it
 * was scored against and its change over time (docs/api-contract.md §18), the newest
 * HISTORY_PER_FORM per form and how many there are; then the newest assignments not completed.
 * Two queries whatever the number of forms: one ranks the results per form (a window function,
 * with the bands taken out of the snapshot's JSON by the database so the large questions never
 * leave it), one reads those rows; the open assignments alongside. The ranks also pick, beyond
 * the results shown, the two that their figures are compared with: the first result ever (the
 * baseline) and the one just before the oldest shown.
 */
export async function personHistoryByForm(actor: Actor, person: { studentId: string } | { candidateId: string }) {
  assertStaffResultsView(actor);
  const who = "studentId" in person ? Prisma.sql`s."studentId" = ${person.studentId}` : Prisma.sql`s."candidateId" = ${person.candidateId}`;
  const bands =
    env().databaseProvider === "postgresql"
      ? Prisma.sql`(full_row."scoredAgainst"->'scoreRanges')::text`
      : Prisma.sql`json_extract(full_row."scoredAgainst", '$.scoreRanges')`;
  const where = { AND: [person, visibleSubmissionsWhere(actor)] };
  const [ranked, open] = await Promise.all([
    db.$queryRaw<{ id: string; formId: string; total: number | bigint; rank: number | bigint; bands: unknown; display: unknown }[]>`
      SELECT ranked."id", ranked."formId", ranked."total", ranked."rank", ${bands} AS "bands", ${capturedDisplaySql("full_row")} AS "display"
      FROM (
        SELECT s."id", s."formId",
          COUNT(*) OVER (PARTITION BY s."formId") AS "total",
          ROW_NUMBER() OVER (PARTITION BY s."formId" ORDER BY s."completedAt" DESC, s."id" DESC) AS "rank",
          ROW_NUMBER() OVER (PARTITION BY s."formId" ORDER BY s."completedAt" ASC, s."id" ASC) AS "position"
        FROM "Submission" AS s
        WHERE ${visibleSubmissionsSql(actor, "s")} AND ${who} AND s."isCompleted" = TRUE
      ) AS ranked
      JOIN "Submission" AS full_row ON full_row."id" = ranked."id"
      WHERE ranked."rank" <= ${HISTORY_PER_FORM + 1} OR ranked."position" = 1`,
    db.submission.findMany({
      where: { AND: [...where.AND, { isCompleted: false }] },
      select: historySelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: HISTORY_OPEN_LIMIT + 1,
    }),
  ]);
  const rows =
    ranked.length === 0
      ? []
      : await db.submission.findMany({
          where: { id: { in: ranked.map((row) => row.id) } },
          // The page marks flagged results (docs/api-contract.md §16).
          select: {
            ...historySelect,
            form: { select: { ...historySelect.form.select, ...formChangeSelect } },
            flaggedAt: true,
            acknowledgedAt: true,
            subscales: true,
          },
          orderBy: [{ completedAt: "asc" }, { id: "asc" }],
        });
  const rankedById = new Map(ranked.map((row) => [row.id, row]));
  const constants = new Map(rows.map((row) => [row.form.id, constantsOf(row.form)]));
  const changes = changesOfRows(
    rows.map((row) => ({ ...row, formId: row.form.id, person: "", completedAt: row.completedAt! })),
    (formId) => constants.get(formId)!,
  );
  const forms = new Map<string, HistoryForm>();
  // Oldest first: a form's first row is its first result ever, the baseline.
  const baselines = new Map<string, number | null>();
  for (const { form: stored, ...row } of rows) {
    if (!baselines.has(stored.id)) baselines.set(stored.id, row.totalScore);
    const rank = rankedById.get(row.id)!;
    // The baseline and the result before the oldest shown are only compared with.
    if (Number(rank.rank) > HISTORY_PER_FORM) continue;
    const figures = changes.get(row.id)!;
    const form = forms.get(stored.id) ?? {
      form: { id: stored.id, title: stored.title },
      total: Number(rank.total),
      constants: constants.get(stored.id)!.total,
      baseline: baselines.get(stored.id) ?? null,
      results: [],
    };
    form.results.push({
      ...row,
      form: form.form,
      bands: capturedBands(rank.bands),
      display: readScoreDisplay(rank.display),
      change: figures.change,
      // Each subscale's score as captured, for the chart's lines and the table's columns on request.
      subscales: subscaleResults.parse(row.subscales ?? []).map(({ key, name, score, maxScore }, index) => ({
        key,
        name,
        score,
        maxScore,
        change: figures.subscales[index]!.change,
      })),
    });
    forms.set(stored.id, form);
  }
  // The form used most recently first.
  const byForm = [...forms.values()].sort((a, b) => latest(b) - latest(a));
  return {
    forms: byForm,
    open: open.slice(0, HISTORY_OPEN_LIMIT),
    moreOpen: open.length > HISTORY_OPEN_LIMIT,
    perForm: HISTORY_PER_FORM,
  };
}

type HistoryRow = Prisma.SubmissionGetPayload<{ select: typeof historySelect }>;
/** A subscale's score as a result captured it (null: too many of its items unanswered), and its change. */
type HistorySubscale = { key: string; name: string; score: number | null; maxScore: number; change: Change };
type HistoryForm = {
  form: HistoryRow["form"];
  total: number;
  /** What the form's totals are compared with: the lines and the words of the chart and the table. */
  constants: ChangeConstants;
  /** The total of the first result ever on the form, which every other is compared with; null when it has none. */
  baseline: number | null;
  results: (HistoryRow & {
    flaggedAt: Date | null;
    acknowledgedAt: Date | null;
    bands: CapturedBand[];
    display: ScoreDisplay;
    change: Change;
    subscales: HistorySubscale[];
  })[];
};

const latest = (form: HistoryForm) => form.results.at(-1)?.completedAt?.getTime() ?? 0;

/** Who answers a submission: its student, or its candidate while no student was promoted from them. */
export type Respondent = { studentId: string } | { candidateId: string };

/**
 * Rewrites `searchText` of the respondent's completed submissions for their (new) `name`, inside
 * the caller's transaction, so the reports search, which reads only that column, finds a report by
 * the name the report shows. After a promotion the student is the respondent, so a candidate's
 * name only counts for the submissions that have no student. One UPDATE per distinct form title
 * (the title is part of the text and was captured per submission).
 */
export async function refreshRespondentSearchText(tx: Prisma.TransactionClient, respondent: Respondent, name: string) {
  const where: Prisma.SubmissionWhereInput =
    "studentId" in respondent
      ? { studentId: respondent.studentId, isCompleted: true }
      : { candidateId: respondent.candidateId, studentId: null, isCompleted: true };
  const titles = await tx.submission.findMany({ where, select: { formTitle: true }, distinct: ["formTitle"] });
  for (const { formTitle } of titles) {
    await tx.submission.updateMany({
      where: { AND: [where, { formTitle }] },
      data: { searchText: submissionSearchText(name, formTitle) },
    });
  }
}
