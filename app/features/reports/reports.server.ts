import { type Actor, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, Prisma, readThroughDriver } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { conflict, notFound } from "~/lib/problem.server.ts";
import { rawDate } from "~/lib/raw-values.ts";
import { dateRange } from "~/lib/date-range.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { changesPage } from "~/lib/tombstones.server.ts";
import { foldForSearch } from "~/lib/search.ts";
import { assertStaffResultsView, visibleSubmissionsSql, visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";
import { readScoredAgainst } from "../submissions/scored-against.ts";
import { readScaleResult } from "../scoring/scale-schemas.ts";
import { readScoreDisplay } from "../scoring/score-display.ts";
import { capturedDisplaySql } from "../scoring/score-display.server.ts";
import { changesOfRows, constantsOf, formChangeSelect } from "../scoring/change.server.ts";
import { readAcknowledgement } from "../flags/flag-schemas.ts";
import { findGroup } from "../groups/groups.server.ts";
import { recordAudit } from "../audit/audit.server.ts";
import type { ListReportsQuery, ReportDetail, ReportFilters } from "./report-schemas.ts";
import {
  FTS_DRIVEN_MAX_MATCHES,
  ftsPhrase,
  indexable,
  newestWindow,
  PEOPLE_FIRST_MAX_PEOPLE,
  PEOPLE_FIRST_MAX_RESULTS,
  type PeopleFirstRow,
  peopleFirstRespondents,
} from "./report-search.ts";
import { exactReportTotal, type ReportTotalFilter } from "./report-totals.server.ts";

export { FTS_DRIVEN_MAX_MATCHES, MIN_INDEXED_SEARCH_LENGTH, PEOPLE_FIRST_MAX_PEOPLE } from "./report-search.ts";

/**
 * Reports are completed submissions. Every number, label and colour in them was stored when the
 * test was completed; nothing here recomputes a score. Lists read the captured columns
 * (`formTitle`, the scores) and, of the large `scoredAgainst` snapshot, which only the full
 * report reads whole, just its `scoring.display`, extracted by the database (ADR 79).
 *
 * The list's statements are written with `Prisma.sql` and sent through the driver
 * (readThroughDriver, ADR 97), not the Prisma client: they see what is committed, so none of this
 * module's list functions may be called inside a transaction that has written what they read.
 */

/** The lists' order: newest completed first, the id breaking ties (both in the scope's index). */
const NEWEST_FIRST = Prisma.sql`ORDER BY s."completedAt" DESC, s."id" DESC`;

/**
 * The same order for flagged results only: a flagged result's flaggedAt is its completedAt (ADR
 * 68), and the indexes of flagged results (organization or assigner, flaggedAt) hold it, so a
 * page of them is read from those few entries instead of walking the whole scope's index to find
 * them (SQLite, 300,000 results of which 60 flagged: 63 ms against under 1; ADR 71).
 */
const NEWEST_FLAGGED_FIRST = Prisma.sql`ORDER BY s."flaggedAt" DESC, s."id" DESC`;

/** The order of the list read with updatedSince: the oldest change first, the id breaking ties (ADR 52). */
const OLDEST_CHANGE_FIRST = Prisma.sql`ORDER BY s."updatedAt" ASC, s."id" ASC`;

/** What a result keeps beside its total (ADR 68, 71): its subscales and flags, and who acknowledged a flag. Subject access reads them too. */
export const scalesAndFlagsSelect = {
  subscales: true,
  flags: true,
  flaggedAt: true,
  acknowledgedAt: true,
  acknowledgedBy: { select: { id: true, name: true } },
  acknowledgementNote: true,
} satisfies Prisma.SubmissionSelect;

const reportSelect = {
  id: true,
  completedAt: true,
  totalScore: true,
  maxScore: true,
  percentage: true,
  scoreLabel: true,
  scoreColor: true,
  ...scalesAndFlagsSelect,
  formTitle: true,
  student: { select: { id: true, name: true, grade: true, age: true } },
  candidate: { select: { id: true, name: true, grade: true, age: true } },
  assignedBy: { select: { id: true, name: true } },
} satisfies Prisma.SubmissionSelect;

type ReportRow = Prisma.SubmissionGetPayload<{ select: typeof reportSelect }>;

/** The respondent is the live student (after a promotion) or candidate; the title is the captured one. */
function toReportItem(row: ReportRow, snapshot?: ReturnType<typeof readScoredAgainst>) {
  const respondent = row.student ?? row.candidate;
  return {
    id: row.id,
    studentName: respondent?.name ?? snapshot?.respondent.name ?? "",
    formTitle: row.formTitle ?? snapshot?.form.title ?? "",
    completedAt: row.completedAt!,
    totalScore: row.totalScore,
    maxScore: row.maxScore!,
    percentage: row.percentage,
    scoreLabel: row.scoreLabel,
    scoreColor: row.scoreColor,
    ...readScaleResult(row),
    ...readAcknowledgement(row),
    assignedByName: row.assignedBy.name,
  };
}

/**
 * The SQL condition for "`searchText` contains `term`" (a folded, non-empty term) on the
 * "Submission" row `s`. `searchText` is the only searchable column (the respondent's current name
 * and the captured form title, folded), so a substring index serves it
 * (docs/decisions/0011-substring-search.md):
 *
 * - SQLite: the FTS5 trigram table "Submission_search", keyed by the rowid of "Submission". The
 *   term is one FTS5 phrase (quoted, `"` doubled), i.e. a run of consecutive trigrams: exactly a
 *   substring match. Terms of 1-2 characters have no trigram and fall back to a LIKE scan of the
 *   caller's scope.
 * - PostgreSQL: LIKE, which the pg_trgm GIN index serves for terms of 3 characters or more (for
 *   shorter ones the planner scans). foldForSearch has replaced %, _ and \ with look-alikes, so
 *   the term holds no LIKE special character and needs no escaping.
 */
export function searchTextContains(provider: "sqlite" | "postgresql", term: string): Prisma.Sql {
  if (provider === "sqlite" && indexable(term)) {
    return Prisma.sql`s.rowid IN (SELECT rowid FROM "Submission_search" WHERE "Submission_search" MATCH ${ftsPhrase(term)})`;
  }
  return Prisma.sql`s."searchText" LIKE '%' || ${term} || '%'`;
}

/** Counts exactly, or answers from the cache of exact totals (report-totals.server.ts). */
type TotalOf = (count: () => Promise<number>) => Promise<number>;

/**
 * The ids of one page of searched reports, newest first, and the exact total, with raw SQL (Prisma
 * cannot express MATCH). The conditions are the list's (reportSelection).
 *
 * SQLite's planner cannot tell how many rows a MATCH returns and, without statistics, always
 * starts from the caller's scope index with the matches as a filter: right for a common fragment
 * (the page comes in order from the index), but for a rare name it reads every index entry of the
 * scope. So on SQLite the matches are read first, up to FTS_DRIVEN_MAX_MATCHES + 1 rowids (cheap:
 * the FTS index returns them in rowid order and stops there). When that is all of them, one query
 * looks just those rows up by rowid (NOT INDEXED keeps the planner off the scope indexes; rowid
 * lookups stay allowed) and returns every visible match in order: the page is a slice and the
 * total its length, and the MATCH runs once. Otherwise the page and the count filter the scope
 * with `+rowid IN (SELECT rowid ... MATCH ?)` (the `+` keeps them on the scope index even when
 * statistics tempt the planner away from it). PostgreSQL has statistics for the trigram index and
 * chooses by itself, once peopleFirstReportIds has had its turn.
 *
 * The count of the general case, which visits every match in the scope, goes through `totalOf`
 * (the cache of exact totals); the FTS-driven case has its total for free.
 */
async function searchReportIds(
  conditions: Prisma.Sql[],
  organizationId: string | undefined,
  term: string,
  page: { skip: number; take: number },
  totalOf: TotalOf,
): Promise<{ ids: string[]; total: number }> {
  const provider = env().databaseProvider;

  if (provider === "postgresql" && indexable(term)) {
    const found = await peopleFirstReportIds(conditions, organizationId, term, page);
    if (found) return found;
  }

  if (provider === "sqlite" && indexable(term)) {
    const matches = await readThroughDriver<{ rowid: number | bigint }>(Prisma.sql`
      SELECT rowid FROM "Submission_search" WHERE "Submission_search" MATCH ${ftsPhrase(term)}
      LIMIT ${FTS_DRIVEN_MAX_MATCHES + 1}`);
    if (matches.length === 0) return { ids: [], total: 0 };
    if (matches.length <= FTS_DRIVEN_MAX_MATCHES) {
      const rowids = Prisma.join(matches.map((match) => Number(match.rowid)));
      const where = Prisma.join([...conditions, Prisma.sql`s.rowid IN (${rowids})`], " AND ");
      const rows = await readThroughDriver<{ id: string }>(Prisma.sql`SELECT s."id" FROM "Submission" AS s NOT INDEXED WHERE ${where} ${NEWEST_FIRST}`);
      return { ids: rows.slice(page.skip, page.skip + page.take).map((row) => row.id), total: rows.length };
    }
  }

  // On SQLite the page and the count walk the caller's scope index (the page in completedAt order,
  // stopping once it has the page) and keep the rows whose rowid is among the matches. The unary +
  // on rowid keeps the planner from starting from the matches instead: with statistics (ANALYZE)
  // it prefers that plan, which looks up the row of every match in the whole table and sorts them
  // (at 1,000,000 results, "mar": a page in 250 ms instead of 25 ms, a count in 260 ms instead of
  // 40-130 ms).
  const matching =
    provider === "sqlite" && indexable(term)
      ? Prisma.sql`+s.rowid IN (SELECT rowid FROM "Submission_search" WHERE "Submission_search" MATCH ${ftsPhrase(term)})`
      : searchTextContains(provider, term);
  const where = Prisma.join([...conditions, matching], " AND ");
  if (provider === "sqlite" && indexable(term)) {
    const newest = await newestMatchingPage(conditions, term, page);
    if (newest) return { ids: newest, total: await totalOf(() => countWhere(where)) };
  }
  const [rows, total] = await Promise.all([
    readThroughDriver<{ id: string }>(Prisma.sql`SELECT s."id" FROM "Submission" AS s WHERE ${where} ${NEWEST_FIRST} LIMIT ${page.take} OFFSET ${page.skip}`),
    totalOf(() => countWhere(where)),
  ]);
  return { ids: rows.map((row) => row.id), total };
}

/**
 * PostgreSQL: the results of the people whose name contains the term, when that is exactly what
 * the term matches (docs/decisions/0039-reports-search-people-first.md). The trigram index of
 * "searchText" intersects the posting lists of all the term's trigrams, and the common ones grow
 * with every result (a full name: 3.6 ms at 1,000,000 results against 0.4 ms at 100,000); the
 * people's names are tens of thousands of rows that do not grow with results, and their results
 * come from the respondent indexes.
 *
 * One statement reads every form title the organization's results were captured with (a superset:
 * "SubmissionFormTitle", kept by a trigger) and up to PEOPLE_FIRST_MAX_PEOPLE + 1 students and as
 * many candidates whose name contains the term. When no title may hold the term, a result matches
 * exactly when its respondent's name does (the student's once a candidate is promoted, as
 * `searchText` and the list's name). Null, for the caller's general plan, when a title may hold
 * it, when too many people match, or when they have more than PEOPLE_FIRST_MAX_RESULTS results in
 * scope; otherwise every match in order, the page a slice and the total its length.
 */
async function peopleFirstReportIds(
  conditions: Prisma.Sql[],
  organizationId: string | undefined,
  term: string,
  page: { skip: number; take: number },
): Promise<{ ids: string[]; total: number } | null> {
  const inScope = (alias: string) => (organizationId === undefined ? Prisma.sql`TRUE` : Prisma.sql`${Prisma.raw(alias)}."organizationId" = ${organizationId}`);
  const found = await readThroughDriver<PeopleFirstRow>(Prisma.sql`
    SELECT 'title' AS "kind", t."formTitle" AS "value" FROM "SubmissionFormTitle" AS t WHERE ${inScope("t")}
    UNION ALL (SELECT 'student', p."id" FROM "Student" AS p
                WHERE ${inScope("p")} AND p."searchName" LIKE '%' || ${term} || '%' LIMIT ${PEOPLE_FIRST_MAX_PEOPLE + 1})
    UNION ALL (SELECT 'candidate', p."id" FROM "Candidate" AS p
                WHERE ${inScope("p")} AND p."searchName" LIKE '%' || ${term} || '%' LIMIT ${PEOPLE_FIRST_MAX_PEOPLE + 1})`);
  const people = peopleFirstRespondents(found, term, foldForSearch);
  if (!people) return null;
  const { students, candidates } = people;
  if (students.length === 0 && candidates.length === 0) return { ids: [], total: 0 };
  const respondents: Prisma.Sql[] = [];
  if (students.length > 0) respondents.push(Prisma.sql`s."studentId" IN (${Prisma.join(students)})`);
  if (candidates.length > 0) respondents.push(Prisma.sql`(s."studentId" IS NULL AND s."candidateId" IN (${Prisma.join(candidates)}))`);
  // searchText is checked again, with strpos so that the trigram index is not used: a name that
  // changed after the first statement, or a result whose searchText is stale, is then answered as
  // the general plan answers it (what searchText holds), never with a result it would not list.
  const rows = await readThroughDriver<{ id: string }>(Prisma.sql`
    SELECT s."id" FROM "Submission" AS s
     WHERE ${Prisma.join(conditions, " AND ")} AND (${Prisma.join(respondents, " OR ")}) AND strpos(s."searchText", ${term}) > 0
     ${NEWEST_FIRST} LIMIT ${PEOPLE_FIRST_MAX_RESULTS + 1}`);
  if (rows.length > PEOPLE_FIRST_MAX_RESULTS) return null;
  return { ids: rows.slice(page.skip, page.skip + page.take).map((row) => row.id), total: rows.length };
}

/**
 * SQLite, a term with many matches: the page straight from the caller's newest results, in
 * completedAt order from the scope index, keeping those whose searchText contains the term. It
 * reads a bounded window (not the whole scope), and answers only when the window holds the whole
 * page, which is then exactly the page the full query would give; otherwise null, and the caller
 * filters the scope by the matches' rowids (which first has to collect every match: ≈25 ms for a
 * term with 150,000 matches, against ≈1 ms here).
 */
async function newestMatchingPage(conditions: Prisma.Sql[], term: string, page: { skip: number; take: number }): Promise<string[] | null> {
  const needed = page.skip + page.take;
  const window = newestWindow(needed);
  if (window === null) return null;
  const rows = await readThroughDriver<{ id: string }>(Prisma.sql`
    SELECT "id" FROM (
      SELECT s."id", s."completedAt", s."searchText" FROM "Submission" AS s
      WHERE ${Prisma.join(conditions, " AND ")} ${NEWEST_FIRST} LIMIT ${window}
    ) AS newest
    WHERE newest."searchText" LIKE '%' || ${term} || '%'
    ORDER BY newest."completedAt" DESC, newest."id" DESC LIMIT ${needed}`);
  return rows.length === needed ? rows.slice(page.skip).map((row) => row.id) : null;
}

/** How many submissions `s` the condition selects. */
export async function countWhere(where: Prisma.Sql): Promise<number> {
  const counted = await readThroughDriver<{ total: number | bigint | string }>(Prisma.sql`SELECT COUNT(*) AS total FROM "Submission" AS s WHERE ${where}`);
  return Number(counted[0]?.total ?? 0);
}

/**
 * The caller's submissions of one form or group (either optional), as SQL conditions on the
 * "Submission" row `s`. A group outside the caller's organization is 404.
 */
export async function submissionSelection(actor: Actor, filters: { formId?: string | undefined; groupId?: string | undefined }) {
  assertStaffResultsView(actor);
  if (filters.groupId) await findGroup(actor, filters.groupId);
  const sql = [visibleSubmissionsSql(actor, "s")];
  if (filters.formId) sql.push(Prisma.sql`s."formId" = ${filters.formId}`);
  if (filters.groupId) {
    const members = (column: "studentId" | "candidateId") =>
      Prisma.sql`SELECT m.${Prisma.raw(`"${column}"`)} FROM "GroupMember" AS m WHERE m."groupId" = ${filters.groupId} AND m.${Prisma.raw(`"${column}"`)} IS NOT NULL`;
    sql.push(Prisma.sql`(s."studentId" IN (${members("studentId")}) OR s."candidateId" IN (${members("candidateId")}))`);
  }
  return { sql };
}

/** The completed submissions in the caller's scope that the reports list's filters select (without the search, kept apart as `term`). */
export async function reportSelection(actor: Actor, filters: ReportFilters) {
  const completedAt = dateRange(filters, actor.timeZone);
  const { sql } = await submissionSelection(actor, filters);
  sql.push(Prisma.sql`s."isCompleted" = TRUE`);
  if (completedAt?.gte) sql.push(Prisma.sql`s."completedAt" >= ${completedAt.gte}`);
  if (completedAt?.lte) sql.push(Prisma.sql`s."completedAt" <= ${completedAt.lte}`);
  // A flagged result's flaggedAt is its completion (ADR 68); the indexes of flagged results find them (ADR 71).
  if (filters.flagged) sql.push(Prisma.sql`s."flaggedAt" IS NOT NULL`);
  if (filters.flagged === "unacknowledged") sql.push(Prisma.sql`s."acknowledgedAt" IS NULL`);
  const term = filters.search ? foldForSearch(filters.search) : "";
  return {
    sql,
    term,
    // Every filter as applied above, for the total's cache key and the counted-scope test (report-totals-cache.ts).
    totalFilter: {
      search: term || undefined,
      from: completedAt?.gte,
      to: completedAt?.lte,
      formId: filters.formId,
      groupId: filters.groupId,
      flagged: filters.flagged,
    } satisfies ReportTotalFilter,
  };
}

/**
 * One page of the caller's reports, newest first, and the exact total. The total is served from
 * the cache of exact totals while the organization's submissions are unchanged
 * (docs/decisions/0013-report-totals.md); the page is always read.
 */
export async function listReports(actor: Actor, query: ListReportsQuery) {
  const selection = await reportSelection(actor, query);
  const { term } = selection;
  const totalOf: TotalOf = (count) => exactReportTotal(actor, selection.totalFilter, count);
  if (term) {
    const { organizationId } = organizationScope(actor);
    const { ids, total } = await searchReportIds(selection.sql, organizationId, term, skipTake(query), totalOf);
    const rows = ids.length === 0 ? [] : await listRows(Prisma.sql`s."id" IN (${Prisma.join(ids)})`, Prisma.empty);
    const byId = new Map(rows.map((row) => [row.id, row]));
    // In the order of the page; a row deleted in between is simply left out.
    const reports = ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
    return { reports, total, page: query.page, limit: query.limit };
  }

  const { skip, take } = skipTake(query);
  const order = query.flagged ? NEWEST_FLAGGED_FIRST : NEWEST_FIRST;
  const [reports, total] = await Promise.all([
    // The page's ids first, from the scope's index alone (it holds the order and its tie-break),
    // then the rows and names of those twenty: joined before the OFFSET, page 500 read and joined
    // the 9,980 rows it skips (28 ms against 1 at 400,000 results).
    listRows(
      Prisma.sql`s."id" IN (SELECT s."id" FROM "Submission" AS s WHERE ${Prisma.join(selection.sql, " AND ")} ${order} LIMIT ${take} OFFSET ${skip})`,
      order,
    ),
    // Counted on the connection that read the total's version (ADR 97).
    totalOf(() => countWhere(Prisma.join(selection.sql, " AND "))),
  ]);
  return { reports, total, page: query.page, limit: query.limit };
}

/**
 * The list with `updatedSince` (ADR 52): the results in the caller's scope that changed since then
 * and that the filters select, oldest change first, and the deletions since then. The scope's
 * changes come in order from the index on (organizationId, isCompleted, updatedAt, id); the total
 * is counted (it is the changes since a moment, which the cache of totals does not keep).
 */
export async function listReportChanges(actor: Actor, query: ListReportsQuery & { updatedSince: Date }) {
  const selection = await reportSelection(actor, query);
  const conditions = [...selection.sql, Prisma.sql`s."updatedAt" >= ${query.updatedSince}`];
  if (selection.term) conditions.push(searchTextContains(env().databaseProvider, selection.term));
  const where = Prisma.join(conditions, " AND ");
  const { items, total } = await changesPage(actor, "submission", query.updatedSince, query, {
    page: (offset, limit) =>
      listRows(
        Prisma.sql`s."id" IN (SELECT s."id" FROM "Submission" AS s WHERE ${where} ${OLDEST_CHANGE_FIRST} LIMIT ${limit} OFFSET ${offset})`,
        OLDEST_CHANGE_FIRST,
      ),
    count: () => countWhere(where),
  });
  return { reports: items, total, page: query.page, limit: query.limit };
}

type ListRow = {
  id: string;
  completedAt: unknown;
  totalScore: number | null;
  maxScore: number;
  percentage: number | null;
  scoreLabel: string | null;
  scoreColor: string | null;
  subscales: unknown;
  flags: unknown;
  flaggedAt: unknown;
  acknowledgedAt: unknown;
  acknowledgedById: string | null;
  acknowledgedByName: string | null;
  acknowledgementNote: string | null;
  formTitle: string | null;
  respondentName: string | null;
  assignedByName: string;
  updatedAt: unknown;
  display: unknown;
};

/**
 * The list's rows with their respondent's and assigner's names in one statement (the ORM's
 * relations made it four on SQLite, on the most read list of the service). The driver's values
 * (SQLite's dates and JSON as text, pg's types) are read as Prisma's were (raw-values.ts).
 */
async function listRows(where: Prisma.Sql, tail: Prisma.Sql) {
  const rows = await readThroughDriver<ListRow>(Prisma.sql`
    SELECT s."id", s."completedAt", s."totalScore", s."maxScore", s."percentage", s."scoreLabel", s."scoreColor",
           s."subscales", s."flags", s."flaggedAt", s."formTitle",
           s."acknowledgedAt", s."acknowledgedById", ack."name" AS "acknowledgedByName", s."acknowledgementNote",
           COALESCE(st."name", ca."name") AS "respondentName", u."name" AS "assignedByName", s."updatedAt",
           ${capturedDisplaySql("s")} AS "display"
      FROM "Submission" AS s
      JOIN "User" AS u ON u."id" = s."assignedById"
      LEFT JOIN "User" AS ack ON ack."id" = s."acknowledgedById"
      LEFT JOIN "Student" AS st ON st."id" = s."studentId"
      LEFT JOIN "Candidate" AS ca ON ca."id" = s."candidateId"
     WHERE ${where} ${tail}`);
  return rows.map((row) => ({
    id: row.id,
    studentName: row.respondentName ?? "",
    formTitle: row.formTitle ?? "",
    completedAt: rawDate(row.completedAt)!,
    totalScore: row.totalScore,
    maxScore: row.maxScore,
    percentage: row.percentage,
    scoreLabel: row.scoreLabel,
    scoreColor: row.scoreColor,
    ...readScaleResult(row),
    ...readAcknowledgement({
      acknowledgedAt: row.acknowledgedAt,
      acknowledgedBy: row.acknowledgedById ? { id: row.acknowledgedById, name: row.acknowledgedByName ?? "" } : null,
      acknowledgementNote: row.acknowledgementNote,
    }),
    assignedByName: row.assignedByName,
    updatedAt: rawDate(row.updatedAt)!,
    deletedAt: null,
    display: readScoreDisplay(row.display),
  }));
}

/** The full report of one completed submission in the caller's scope (404 outside it, 409 while pending). */
export async function getReport(actor: Actor, submissionId: string): Promise<ReportDetail> {
  assertStaffResultsView(actor);
  const row = await db.submission.findFirst({
    where: { AND: [{ id: submissionId }, visibleSubmissionsWhere(actor)] },
    select: {
      ...reportSelect,
      formId: true,
      studentId: true,
      candidateId: true,
      // The report's header names the person's record number and date of birth too (docs/api-contract.md §18).
      student: { select: { ...reportSelect.student.select, externalId: true, dateOfBirth: true } },
      candidate: { select: { ...reportSelect.candidate.select, externalId: true, dateOfBirth: true } },
      createdAt: true,
      organization: { select: { id: true, name: true } },
      scoredAgainst: true,
      isCompleted: true,
      answers: {
        orderBy: { position: "asc" },
        select: { questionId: true, questionText: true, questionType: true, optionTexts: true, text: true, score: true, maxScore: true },
      },
    },
  });
  if (!row) throw notFound("report");
  if (!row.isCompleted) throw conflict("This test has not been completed yet.", "NOT_COMPLETED");
  const snapshot = readScoredAgainst(row.scoredAgainst);
  const live = row.student ?? row.candidate;
  const item = toReportItem(row, snapshot);
  const figures = await resultChange(actor, row);
  return {
    ...item,
    change: figures.change,
    isBaseline: figures.isBaseline,
    subscales: item.subscales.map((subscale, index) => ({ ...subscale, change: figures.subscales[index]!.change })),
    display: snapshot.scoring.display,
    form: snapshot.form,
    respondent: {
      ...snapshot.respondent,
      externalId: live?.externalId ?? null,
      dateOfBirth: live?.dateOfBirth ?? null,
      ...(live ? { id: live.id, name: live.name, grade: live.grade, age: live.age } : {}),
      kind: row.student ? "student" : "candidate",
    },
    assignedBy: row.assignedBy,
    organization: row.organization,
    assignedAt: row.createdAt,
    scoreRanges: snapshot.scoreRanges,
    answers: row.answers.map(({ questionType, optionTexts, ...answer }) => ({
      ...answer,
      type: questionType,
      optionTexts: optionTexts as string[],
    })),
  };
}

/**
 * Records that the caller was given a report (docs/api-contract.md §20), before the answer is sent:
 * its page, JSON or QuestionnaireResponse (`report.read`), or its PDF (`report.pdf_read`). With
 * `db`: a read changes nothing to be in a transaction with.
 */
export function recordReportRead(
  actor: Actor,
  report: Pick<ReportDetail, "id" | "organization">,
  action: "report.read" | "report.pdf_read",
  details?: { format: "fhir" },
) {
  return recordAudit(db, { by: actor, action, targetId: report.id, organizationId: report.organization.id, ...(details ? { details } : {}) });
}

/** A report as JSON or its page shows it, its reading recorded. */
export async function readReport(actor: Actor, submissionId: string): Promise<ReportDetail> {
  const report = await getReport(actor, submissionId);
  await recordReportRead(actor, report, "report.read");
  return report;
}

/**
 * One completed result's change over time (docs/api-contract.md §18): compared with the result
 * before it and the first one of its respondent on its form among those the caller may see, each
 * one step of the series index (ADR 80).
 */
async function resultChange(
  actor: Actor,
  result: {
    id: string;
    formId: string;
    studentId: string | null;
    candidateId: string | null;
    completedAt: Date | null;
    totalScore: number | null;
    subscales: unknown;
  },
) {
  const completedAt = result.completedAt!;
  const series: Prisma.SubmissionWhereInput = {
    AND: [
      visibleSubmissionsWhere(actor),
      { formId: result.formId, isCompleted: true },
      result.studentId ? { studentId: result.studentId } : { candidateId: result.candidateId },
    ],
  };
  const select = { id: true, completedAt: true, totalScore: true, subscales: true } satisfies Prisma.SubmissionSelect;
  const [form, previous, first] = await Promise.all([
    db.form.findUniqueOrThrow({ where: { id: result.formId }, select: formChangeSelect }),
    db.submission.findFirst({
      where: { AND: [series, { OR: [{ completedAt: { lt: completedAt } }, { completedAt, id: { lt: result.id } }] }] },
      select,
      orderBy: [{ completedAt: "desc" }, { id: "desc" }],
    }),
    db.submission.findFirst({ where: series, select, orderBy: [{ completedAt: "asc" }, { id: "asc" }] }),
  ]);
  const rows = [first, previous, { ...result, completedAt }].flatMap((row) =>
    row?.completedAt ? [{ ...row, completedAt: row.completedAt, formId: result.formId, person: "" }] : [],
  );
  const unique = [...new Map(rows.map((row) => [row.id, row])).values()];
  return { ...changesOfRows(unique, () => constantsOf(form)).get(result.id)!, isBaseline: first?.id === result.id };
}
