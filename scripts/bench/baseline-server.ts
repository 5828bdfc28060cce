import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import { parse } from "csv-parse/sync";
import {
  FTS_DRIVEN_MAX_MATCHES,
  ftsPhrase,
  indexable,
  newestWindow,
  PEOPLE_FIRST_MAX_PEOPLE,
  PEOPLE_FIRST_MAX_RESULTS,
  type PeopleFirstRow,
  peopleFirstRespondents,
} from "../../app/features/reports/report-search.ts";
import { REPORT_TOTALS_CACHE_SIZE, type ReportTotalFilter, countedScope, reportTotalKey } from "../../app/features/reports/report-totals-cache.ts";
import { VersionedCache } from "../../app/lib/versioned-cache.ts";
import { Deletion, deletionsNeeded, liveWindow, mergeChanges } from "../../app/lib/changes.ts";
import { answerProblems, scoreAnswers, type ScoringQuestion } from "../../app/features/scoring/scoring.ts";
import { STUDENT_STATUSES } from "../../app/features/students/student-statuses.ts";
import { decodeRoster } from "../../app/features/people/roster-columns.ts";
import { avatarUrl, hashToken, isUsable } from "../../app/lib/auth/actor-user.server.ts";
import { LAST_SEEN_RESOLUTION_MS, SESSION_COOKIE_NAME, SESSION_IDLE_TIMEOUT_MS } from "../../app/lib/auth/session.server.ts";
import { readSignedCookie } from "../../app/lib/auth/signed-cookie.server.ts";
import { resolveLocale } from "../../app/lib/i18n.ts";
import { foldForSearch } from "../../app/lib/search.ts";
import { BaselineError as HttpError, exportReportsCsv, formSummary } from "./baseline-exports.ts";
import { openSqlClient, type SqlClient } from "../../app/lib/sql-client.server.ts";

/**
 * The baseline: a bare `node:http` server that answers the benchmarked requests with the same
 * results as the app, running hand-written SQL through the same driver (better-sqlite3 or pg) and
 * nothing else: no router, no validation library, no ORM. It is the raw limit the app is measured
 * against. The SQL mirrors what the app's services ask for (session lookup included); the bench
 * checks that both servers answer with the same rows before it measures them.
 */

export const REPORTS_SEARCH_TABLE = "Submission_search";

type Caller = {
  userId: string;
  organizationId: string;
  role: string;
  name: string;
  email: string;
  image: string | null;
  locale: string;
  timeZone: string;
  sessionExpiresAt: Date;
};

const bool = (value: unknown) => value === true || value === 1;
const asDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));
const date = (value: unknown) => asDate(value).toISOString();
const isAdmin = (caller: Pick<Caller, "role">) => caller.role === "ADMIN" || caller.role === "SUPER_ADMIN";

/**
 * The caller of a request, as the app's readActor (app/lib/auth/session.server.ts) finds them: the
 * session cookie's signature checked with the app's readSignedCookie and secret, then the session
 * with its user, the user's avatar and organization in one query; an expired or idle session, or
 * one of a deactivated or deleted user, is deleted and answers no one; lastSeenAt is refreshed at
 * most once per LAST_SEEN_RESOLUTION_MS.
 */
async function callerOf(client: SqlClient, request: http.IncomingMessage, sessionSecret: string): Promise<Caller | null> {
  const token = readSignedCookie(request.headers.cookie ?? null, SESSION_COOKIE_NAME, [sessionSecret]);
  if (typeof token !== "string" || token.length === 0) return null;
  const id = hashToken(token);
  const [row] = await client.all<{
    expiresAt: unknown;
    lastSeenAt: unknown;
    userId: string;
    role: string;
    organizationId: string;
    name: string;
    email: string;
    locale: string;
    isActive: unknown;
    deletedAt: unknown;
    avatarUpdatedAt: unknown;
    timeZone: string;
  }>(
    `SELECT se."expiresAt", se."lastSeenAt", u."id" AS "userId", u."role", u."organizationId", u."name", u."email", u."locale", u."isActive", u."deletedAt",
            a."updatedAt" AS "avatarUpdatedAt", o."timeZone"
       FROM "Session" se
       JOIN "User" u ON u."id" = se."userId"
       JOIN "Organization" o ON o."id" = u."organizationId"
       LEFT JOIN "Avatar" a ON a."userId" = u."id"
      WHERE se."id" = ?`,
    [id],
  );
  if (!row) return null;
  const now = Date.now();
  const lastSeenAt = asDate(row.lastSeenAt).getTime();
  const usable = isUsable({ isActive: bool(row.isActive), deletedAt: row.deletedAt === null ? null : asDate(row.deletedAt) });
  if (asDate(row.expiresAt).getTime() <= now || lastSeenAt + SESSION_IDLE_TIMEOUT_MS <= now || !usable) {
    await client.run(`DELETE FROM "Session" WHERE "id" = ?`, [id]);
    return null;
  }
  if (now - lastSeenAt > LAST_SEEN_RESOLUTION_MS) await client.run(`UPDATE "Session" SET "lastSeenAt" = ? WHERE "id" = ?`, [new Date(now), id]);
  return {
    userId: row.userId,
    organizationId: row.organizationId,
    role: row.role,
    name: row.name,
    email: row.email,
    image: row.avatarUpdatedAt === null ? null : avatarUrl(row.userId, asDate(row.avatarUpdatedAt)),
    locale: row.locale,
    timeZone: row.timeZone,
    sessionExpiresAt: asDate(row.expiresAt),
  };
}

export type ReportQuery = { page: number; limit: number; search?: string | undefined };

/** SQL conditions on the "Submission" row `s` and their parameters, in order. */
type Conditions = { sql: string; params: unknown[] };

/**
 * The submissions the caller may see, as the app's visibleSubmissionsSql writes them:
 * administrators every one of their organization (a SUPER_ADMIN of every organization), students
 * the ones they answer, teachers the ones they assigned.
 */
function visibleScope(caller: Caller): { sql: string[]; params: unknown[] } {
  const sql = [`s."deletedAt" IS NULL`];
  const params: unknown[] = [];
  if (caller.role !== "SUPER_ADMIN") {
    sql.push(`s."organizationId" = ?`);
    params.push(caller.organizationId);
  }
  if (caller.role === "STUDENT") {
    sql.push(`s."studentId" IN (SELECT "id" FROM "Student" WHERE "userId" = ?)`);
    params.push(caller.userId);
  } else if (!isAdmin(caller)) {
    sql.push(`s."assignedById" = ?`);
    params.push(caller.userId);
  }
  return { sql, params };
}

/** The completed submissions the caller may see, as reportSelection writes them. */
function reportScope(caller: Caller): Conditions {
  const { sql, params } = visibleScope(caller);
  sql.push(`s."isCompleted" = TRUE`);
  return { sql: sql.join(" AND "), params };
}

/** The reports page's form and group choices, as assignedForms and groupChoices read them. */
export async function pageChoices(client: SqlClient, caller: Caller) {
  const scope = visibleScope(caller);
  const inOrganization = caller.role === "SUPER_ADMIN" ? "TRUE" : `f."organizationId" = ?`;
  const organization = caller.role === "SUPER_ADMIN" ? [] : [caller.organizationId];
  const [forms, groups] = await Promise.all([
    client.all<{ id: string; title: string }>(
      `SELECT f."id", f."title" FROM "Form" AS f
        WHERE ${inOrganization} AND EXISTS (SELECT 1 FROM "Submission" AS s WHERE s."formId" = f."id" AND ${scope.sql.join(" AND ")})
        ORDER BY f."title", f."id" LIMIT 200`,
      [...organization, ...scope.params],
    ),
    client.all<{ id: string; name: string }>(
      `SELECT "id", "name" FROM "Group" WHERE "deletedAt" IS NULL${caller.role === "SUPER_ADMIN" ? "" : ` AND "organizationId" = ?`}
        ORDER BY "searchName", "id" LIMIT 200`,
      organization,
    ),
  ]);
  return { forms, groups };
}

/**
 * Exact totals cached per organization version, as the app's exactReportTotal
 * (app/features/reports/report-totals.server.ts, ADR 13) with the same cache, key and rules: the
 * version is read first, and a total is served while it is unchanged; no key or no version row
 * means counting.
 */
const reportTotals = new VersionedCache<number>(REPORT_TOTALS_CACHE_SIZE);
type TotalOf = (count: () => Promise<number>) => Promise<number>;

async function exactReportTotal(client: SqlClient, caller: Caller, filter: ReportTotalFilter, count: () => Promise<number>): Promise<number> {
  // The scopes the triggers count (ADR 36): a sum over the scope's rows of "SubmissionCount".
  const counted = countedScope(caller, filter);
  if (counted) {
    const conditions = [`"organizationId" = ?`, ...(counted.assignedById ? [`"assignedById" = ?`] : []), ...(counted.formId ? [`"formId" = ?`] : [])];
    const params = [counted.organizationId, ...(counted.assignedById ? [counted.assignedById] : []), ...(counted.formId ? [counted.formId] : [])];
    const [row] = await client.all<{ completed: number | string }>(
      `SELECT COALESCE(SUM("completed"), 0) AS "completed" FROM "SubmissionCount" WHERE ${conditions.join(" AND ")}`,
      params,
    );
    return Number(row?.completed ?? 0);
  }
  const key = reportTotalKey(caller, filter);
  if (key === null) return count();
  const [row] = await client.all<{ version: string }>(`SELECT "version" FROM "SubmissionsVersion" WHERE "organizationId" = ?`, [caller.organizationId]);
  if (!row) return count();
  return reportTotals.get(key, row.version, count);
}

async function countSubmissions(client: SqlClient, where: Conditions): Promise<number> {
  const [counted] = await client.all<{ total: number | string }>(`SELECT COUNT(*) AS "total" FROM "Submission" AS s WHERE ${where.sql}`, where.params);
  return Number(counted?.total ?? 0);
}

const NEWEST_FIRST = `ORDER BY s."completedAt" DESC, s."id" DESC`;

/**
 * The ids of one page of searched reports and the exact total, step for step as the app's
 * searchReportIds (app/features/reports/reports.server.ts): on SQLite, the FTS matches first (up
 * to FTS_DRIVEN_MAX_MATCHES + 1); when that is all of them, their rows looked up by rowid, the
 * page a slice and the total its length; otherwise the page from a bounded window of the newest
 * results when it holds the page, else from the scope filtered by `+rowid IN (MATCH)`, and the
 * count through the cache of totals. PostgreSQL: the people-first plan when it applies
 * (peopleFirstReportIds); otherwise, and for terms too short for the trigram index,
 * `searchText LIKE '%term%'` for the page and the count.
 */
async function searchReportIds(client: SqlClient, caller: Caller, scope: Conditions, term: string, page: { skip: number; take: number }, totalOf: TotalOf) {
  if (client.dialect === "postgresql" && indexable(term)) {
    const found = await peopleFirstReportIds(client, caller, scope, term, page);
    if (found) return found;
  }
  const fts = client.dialect === "sqlite" && indexable(term);
  if (fts) {
    const matches = await client.all<{ rowid: number | bigint }>(
      `SELECT rowid FROM "${REPORTS_SEARCH_TABLE}" WHERE "${REPORTS_SEARCH_TABLE}" MATCH ? LIMIT ?`,
      [ftsPhrase(term), FTS_DRIVEN_MAX_MATCHES + 1],
    );
    if (matches.length === 0) return { ids: [], total: 0 };
    if (matches.length <= FTS_DRIVEN_MAX_MATCHES) {
      const rows = await client.all<{ id: string }>(
        `SELECT s."id" FROM "Submission" AS s NOT INDEXED WHERE ${scope.sql} AND s.rowid IN (${placeholders(matches)}) ${NEWEST_FIRST}`,
        [...scope.params, ...matches.map((match) => Number(match.rowid))],
      );
      return { ids: rows.slice(page.skip, page.skip + page.take).map((row) => row.id), total: rows.length };
    }
  }
  const where: Conditions = fts
    ? {
        sql: `${scope.sql} AND +s.rowid IN (SELECT rowid FROM "${REPORTS_SEARCH_TABLE}" WHERE "${REPORTS_SEARCH_TABLE}" MATCH ?)`,
        params: [...scope.params, ftsPhrase(term)],
      }
    : { sql: `${scope.sql} AND s."searchText" LIKE '%' || ? || '%'`, params: [...scope.params, term] };
  if (fts) {
    const newest = await newestMatchingPage(client, scope, term, page);
    if (newest) return { ids: newest, total: await totalOf(() => countSubmissions(client, where)) };
  }
  const [rows, total] = await Promise.all([
    client.all<{ id: string }>(`SELECT s."id" FROM "Submission" AS s WHERE ${where.sql} ${NEWEST_FIRST} LIMIT ? OFFSET ?`, [
      ...where.params,
      page.take,
      page.skip,
    ]),
    totalOf(() => countSubmissions(client, where)),
  ]);
  return { ids: rows.map((row) => row.id), total };
}

/**
 * The app's peopleFirstReportIds (ADR 39): the organization's captured form titles and the people
 * whose name contains the term in one statement; when no title may hold the term and few people
 * match, their results in scope, the page a slice and the total its length; otherwise null.
 */
async function peopleFirstReportIds(client: SqlClient, caller: Caller, scope: Conditions, term: string, page: { skip: number; take: number }) {
  const everyOrganization = caller.role === "SUPER_ADMIN";
  const inScope = (alias: string) => (everyOrganization ? "TRUE" : `${alias}."organizationId" = ?`);
  const organization = everyOrganization ? [] : [caller.organizationId];
  const found = await client.all<PeopleFirstRow>(
    `SELECT 'title' AS "kind", t."formTitle" AS "value" FROM "SubmissionFormTitle" AS t WHERE ${inScope("t")}
     UNION ALL (SELECT 'student', p."id" FROM "Student" AS p WHERE ${inScope("p")} AND p."searchName" LIKE '%' || ? || '%' LIMIT ?)
     UNION ALL (SELECT 'candidate', p."id" FROM "Candidate" AS p WHERE ${inScope("p")} AND p."searchName" LIKE '%' || ? || '%' LIMIT ?)`,
    [...organization, ...organization, term, PEOPLE_FIRST_MAX_PEOPLE + 1, ...organization, term, PEOPLE_FIRST_MAX_PEOPLE + 1],
  );
  const people = peopleFirstRespondents(found, term, foldForSearch);
  if (!people) return null;
  const { students, candidates } = people;
  if (students.length === 0 && candidates.length === 0) return { ids: [], total: 0 };
  const respondents = [
    ...(students.length > 0 ? [`s."studentId" IN (${placeholders(students)})`] : []),
    ...(candidates.length > 0 ? [`(s."studentId" IS NULL AND s."candidateId" IN (${placeholders(candidates)}))`] : []),
  ];
  const rows = await client.all<{ id: string }>(
    `SELECT s."id" FROM "Submission" AS s WHERE ${scope.sql} AND (${respondents.join(" OR ")}) AND strpos(s."searchText", ?) > 0 ${NEWEST_FIRST} LIMIT ?`,
    [...scope.params, ...students, ...candidates, term, PEOPLE_FIRST_MAX_RESULTS + 1],
  );
  if (rows.length > PEOPLE_FIRST_MAX_RESULTS) return null;
  return { ids: rows.slice(page.skip, page.skip + page.take).map((row) => row.id), total: rows.length };
}

/** The app's newestMatchingPage: the page from a bounded window of the caller's newest results, or null when the window does not hold it. */
async function newestMatchingPage(client: SqlClient, scope: Conditions, term: string, page: { skip: number; take: number }) {
  const needed = page.skip + page.take;
  const window = newestWindow(needed);
  if (window === null) return null;
  const rows = await client.all<{ id: string }>(
    `SELECT "id" FROM (
       SELECT s."id", s."completedAt", s."searchText" FROM "Submission" AS s
       WHERE ${scope.sql} ${NEWEST_FIRST} LIMIT ?
     ) AS newest
     WHERE newest."searchText" LIKE '%' || ? || '%'
     ORDER BY newest."completedAt" DESC, newest."id" DESC LIMIT ?`,
    [...scope.params, window, term, needed],
  );
  return rows.length === needed ? rows.slice(page.skip).map((row) => row.id) : null;
}

const REPORT_COLUMNS = `s."id", s."completedAt", s."totalScore", s."maxScore", s."percentage", s."scoreLabel", s."scoreColor", s."formTitle",
              COALESCE(st."name", ca."name") AS "studentName", u."name" AS "assignedByName", s."updatedAt"
         FROM "Submission" s
         LEFT JOIN "Student" st ON st."id" = s."studentId"
         LEFT JOIN "Candidate" ca ON ca."id" = s."candidateId"
         JOIN "User" u ON u."id" = s."assignedById"`;

/**
 * Reports: one page of completed submissions in the caller's scope, newest first, with the exact
 * total from the cache of totals (as the app's listReports). A search finds the page's ids first
 * (searchReportIds) and then reads their rows, in the page's order.
 */
export async function queryReports(client: SqlClient, caller: Caller, query: ReportQuery) {
  const scope = reportScope(caller);
  const term = query.search ? foldForSearch(query.search) : "";
  // The baseline's reports take a search only: every other filter is unset.
  const filter: ReportTotalFilter = { search: term || undefined, from: undefined, to: undefined, formId: undefined, groupId: undefined };
  const totalOf: TotalOf = (count) => exactReportTotal(client, caller, filter, count);
  const page = { skip: (query.page - 1) * query.limit, take: query.limit };
  let rows: Record<string, unknown>[];
  let total: number;
  if (term) {
    const found = await searchReportIds(client, caller, scope, term, page, totalOf);
    total = found.total;
    const read =
      found.ids.length === 0
        ? []
        : await client.all<Record<string, unknown>>(`SELECT ${REPORT_COLUMNS} WHERE s."id" IN (${placeholders(found.ids)})`, found.ids);
    const byId = new Map(read.map((row) => [row.id as string, row]));
    // In the order of the page; a row deleted in between is left out.
    rows = found.ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
  } else {
    [rows, total] = await Promise.all([
      // As the app's listReports: the page's ids from the scope's index, then their rows.
      client.all<Record<string, unknown>>(
        `SELECT ${REPORT_COLUMNS} WHERE s."id" IN (SELECT s."id" FROM "Submission" AS s WHERE ${scope.sql} ${NEWEST_FIRST} LIMIT ? OFFSET ?) ${NEWEST_FIRST}`,
        [...scope.params, page.take, page.skip],
      ),
      totalOf(() => countSubmissions(client, scope)),
    ]);
  }
  return { reports: rows.map(reportItem), total, page: query.page, limit: query.limit };
}

/** A report as the list answers it. */
const reportItem = (row: Record<string, unknown>) => ({
  id: row.id as string,
  studentName: row.studentName,
  formTitle: row.formTitle,
  completedAt: date(row.completedAt),
  totalScore: row.totalScore,
  maxScore: row.maxScore,
  percentage: row.percentage,
  scoreLabel: row.scoreLabel,
  scoreColor: row.scoreColor,
  assignedByName: row.assignedByName,
  updatedAt: asDate(row.updatedAt),
  deletedAt: null,
});

/**
 * The tombstones of results the caller is told of, as the app's visibleTombstonesWhere writes them
 * (app/lib/tombstones.server.ts): the organization's (a SUPER_ADMIN's every one), administrators
 * those for everyone and for the owners, teachers those for everyone, for them as the owner and
 * for the others than the owner; a student's own login none.
 */
function tombstoneScope(caller: Caller, since: Date): Conditions | null {
  if (caller.role === "STUDENT") return null;
  const sql = [`t."kind" = 'submission'`, `t."deletedAt" >= ?`];
  const params: unknown[] = [since];
  if (caller.role !== "SUPER_ADMIN") {
    sql.push(`t."organizationId" = ?`);
    params.push(caller.organizationId);
  }
  if (isAdmin(caller)) sql.push(`t."audience" IN ('ALL', 'OWNER')`);
  else {
    sql.push(`(t."audience" = 'ALL' OR (t."audience" = 'OWNER' AND t."ownerId" = ?) OR (t."audience" = 'OTHERS' AND t."ownerId" <> ?))`);
    params.push(caller.userId, caller.userId);
  }
  return { sql: sql.join(" AND "), params };
}

const OLDEST_CHANGE_FIRST = `ORDER BY s."updatedAt" ASC, s."id" ASC`;

/**
 * Reports with `updatedSince`, as the app's listReportChanges (ADR 52): the results in scope changed
 * since then, counted, and the tombstones since then, merged by the app's own mergeChanges
 * (app/lib/changes.ts) from the same window of live rows, read in order from the scope's index.
 */
export async function queryReportChanges(client: SqlClient, caller: Caller, query: { page: number; limit: number; since: Date }) {
  const scope = reportScope(caller);
  const where: Conditions = { sql: `${scope.sql} AND s."updatedAt" >= ?`, params: [...scope.params, query.since] };
  const page = { skip: (query.page - 1) * query.limit, take: query.limit };
  const tombstones = tombstoneScope(caller, query.since);
  const [found, liveTotal] = await Promise.all([
    tombstones
      ? client.all<{ itemId: string; deletedAt: unknown }>(
          `SELECT t."itemId", t."deletedAt" FROM "Tombstone" AS t WHERE ${tombstones.sql} ORDER BY t."deletedAt", t."itemId" LIMIT ?`,
          [...tombstones.params, deletionsNeeded(page)],
        )
      : [],
    countSubmissions(client, where),
  ]);
  // As the app: the tombstones are counted only when the page's read may not have had them all.
  const deletionTotal =
    tombstones && found.length === deletionsNeeded(page)
      ? Number(
          (await client.all<{ total: number | string }>(`SELECT COUNT(*) AS "total" FROM "Tombstone" AS t WHERE ${tombstones.sql}`, tombstones.params))[0]
            ?.total ?? 0,
        )
      : found.length;
  const deletions = found.map((row) => new Deletion(row.itemId, asDate(row.deletedAt)));
  const window = liveWindow(page, deletions.length);
  const rows = await client.all<Record<string, unknown>>(
    `SELECT ${REPORT_COLUMNS} WHERE s."id" IN (SELECT s."id" FROM "Submission" AS s WHERE ${where.sql} ${OLDEST_CHANGE_FIRST} LIMIT ? OFFSET ?) ${OLDEST_CHANGE_FIRST}`,
    [...where.params, window.limit, window.offset],
  );
  return {
    reports: mergeChanges(page, window, rows.map(reportItem), deletions),
    total: liveTotal + deletionTotal,
    page: query.page,
    limit: query.limit,
  };
}

type ListQuery = { search: string; page: number; limit: number };

/**
 * Forms, as the app's listForms (app/features/forms/forms.server.ts): the page and the total of
 * the forms the caller can see (administrators every form of the organization, teachers their
 * own and the templates), then the question and submission counts of the listed forms only.
 */
async function listForms(client: SqlClient, caller: Caller, query: ListQuery) {
  const conditions = [`"deletedAt" IS NULL`];
  const params: unknown[] = [];
  if (caller.role !== "SUPER_ADMIN") {
    conditions.push(`"organizationId" = ?`);
    params.push(caller.organizationId);
  }
  if (!isAdmin(caller)) {
    conditions.push(`("createdById" = ? OR "isTemplate" = TRUE)`);
    params.push(caller.userId);
  }
  if (query.search) {
    conditions.push(`"searchTitle" LIKE ?`);
    params.push(`%${foldForSearch(query.search)}%`);
  }
  const condition = conditions.join(" AND ");
  const [forms, counted] = await Promise.all([
    client.all<Record<string, unknown> & { id: string }>(
      `SELECT "id", "title", "description", "category", "type", "targetAudience", "isPublished", "isTemplate", "showResultToRespondent", "createdAt", "updatedAt"
         FROM "Form" WHERE ${condition}
        ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?`,
      [...params, query.limit, (query.page - 1) * query.limit],
    ),
    client.all<{ total: number | string }>(`SELECT COUNT(*) AS "total" FROM "Form" WHERE ${condition}`, params),
  ]);
  const ids = forms.map((form) => form.id);
  // Questions counted and submissions summed from the triggers' counts (ADR 36) per listed form, in one statement, as the app.
  const counts =
    ids.length === 0
      ? []
      : await client.all<{ id: string; questions: number | string; submissions: number | string }>(
          `SELECT f."id",
                  (SELECT COUNT(*) FROM "Question" AS q WHERE q."formId" = f."id") AS "questions",
                  (SELECT COALESCE(SUM(c."submissions"), 0) FROM "SubmissionCount" AS c WHERE c."formId" = f."id") AS "submissions"
             FROM "Form" AS f WHERE f."id" IN (${placeholders(ids)})`,
          ids,
        );
  const countsOf = new Map(counts.map((row) => [row.id, { questions: Number(row.questions), submissions: Number(row.submissions) }]));
  return {
    forms: forms.map((form) => ({
      ...form,
      isPublished: bool(form.isPublished),
      isTemplate: bool(form.isTemplate),
      showResultToRespondent: bool(form.showResultToRespondent),
      createdAt: date(form.createdAt),
      updatedAt: date(form.updatedAt),
      deletedAt: null,
      _count: countsOf.get(form.id) ?? { questions: 0, submissions: 0 },
    })),
    total: Number(counted[0]!.total),
    page: query.page,
    limit: query.limit,
  };
}

/** Students, as the app's listStudents (app/features/students/students.server.ts): the page and the total with the same conditions. */
async function listStudents(client: SqlClient, caller: Caller, query: ListQuery) {
  const conditions = [`"deletedAt" IS NULL`];
  const params: unknown[] = [];
  if (caller.role !== "SUPER_ADMIN") {
    conditions.push(`"organizationId" = ?`);
    params.push(caller.organizationId);
  }
  if (query.search) {
    conditions.push(`"searchName" LIKE ?`);
    params.push(`%${foldForSearch(query.search)}%`);
  }
  const condition = conditions.join(" AND ");
  const [rows, counted] = await Promise.all([
    client.all<Record<string, unknown>>(
      `SELECT "id", "name", "email", "externalId", "phone", "age", "grade", "gender", "status", "createdAt", "updatedAt"
         FROM "Student" WHERE ${condition} ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?`,
      [...params, query.limit, (query.page - 1) * query.limit],
    ),
    client.all<{ total: number | string }>(`SELECT COUNT(*) AS "total" FROM "Student" WHERE ${condition}`, params),
  ]);
  return {
    students: rows.map((row) => ({ ...row, createdAt: date(row.createdAt), updatedAt: date(row.updatedAt), deletedAt: null })),
    total: Number(counted[0]!.total),
    page: query.page,
    limit: query.limit,
  };
}

/** A form's questions and bands by form, kept while its content version is unchanged, as the app's cache of form contents (ADR 33). */
const formContents = new Map<string, { version: number; questions: ScoringQuestion[]; bands: { min: number; max: number; label: string; color: string }[] }>();

async function formContent(client: SqlClient, formId: string, version: number) {
  const cached = formContents.get(formId);
  if (cached?.version === version) return cached;
  const [questionRows, optionRows, bands] = await Promise.all([
    client.all<{ id: string; text: string; type: ScoringQuestion["type"]; required: unknown }>(
      `SELECT "id", "text", "type", "required" FROM "Question" WHERE "formId" = ? ORDER BY "position"`,
      [formId],
    ),
    client.all<{ id: string; text: string; score: number; questionId: string }>(
      `SELECT o."id", o."text", o."score", o."questionId" FROM "Option" o JOIN "Question" q ON q."id" = o."questionId" WHERE q."formId" = ? ORDER BY o."position"`,
      [formId],
    ),
    client.all<{ min: number; max: number; label: string; color: string }>(
      `SELECT "min", "max", "label", "color" FROM "ScoreRange" WHERE "formId" = ? ORDER BY "position"`,
      [formId],
    ),
  ]);
  const questions: ScoringQuestion[] = questionRows.map((q) => ({
    id: q.id,
    text: q.text,
    type: q.type,
    required: bool(q.required),
    options: optionRows.filter((o) => o.questionId === q.id).map((o) => ({ id: o.id, text: o.text, score: o.score })),
  }));
  const content = { version, questions, bands };
  formContents.set(formId, content);
  return content;
}

/**
 * The app's submit step for step (app/features/submissions/test-link.server.ts): the link with its
 * respondent and form in one query, the form's content from the cache, the rate limit, the
 * organization's webhooks, then in one transaction the claim (with the search text), the
 * respondent's name read again, the answers in one INSERT and the draft removed.
 */
async function submit(client: SqlClient, token: string, body: { answers: { questionId: string; optionIds?: string[] }[] }, clientAddress: string) {
  const links = await client.all<Record<string, unknown>>(
    `SELECT s."id", s."organizationId", s."isCompleted", s."expiresAt", s."formId", f."contentVersion",
            COALESCE(st."id", ca."id") AS "respondentId", COALESCE(st."name", ca."name") AS "respondentName",
            COALESCE(st."grade", ca."grade") AS "grade", COALESCE(st."age", ca."age") AS "age",
            f."title", f."category", f."type"
       FROM "Submission" s
       JOIN "Form" f ON f."id" = s."formId" AND f."deletedAt" IS NULL
       LEFT JOIN "Student" st ON st."id" = s."studentId"
       LEFT JOIN "Candidate" ca ON ca."id" = s."candidateId"
      WHERE s."token" = ? AND s."deletedAt" IS NULL`,
    [token],
  );
  const link = links[0];
  if (!link) throw new HttpError(404, "not found");
  if (bool(link.isCompleted)) throw new HttpError(409, "already completed");
  const { questions, bands } = await formContent(client, String(link.formId), Number(link.contentVersion));
  // The same rate-limit statement as the app's (app/lib/auth/rate-limit.server.ts).
  const now = Date.now();
  await client.all(
    `INSERT INTO "RateLimit" ("key", "windowStart", "count") VALUES (?, ?, 1)
     ON CONFLICT ("key") DO UPDATE SET
       "count" = CASE WHEN "RateLimit"."windowStart" <= ? THEN 1 ELSE "RateLimit"."count" + 1 END,
       "windowStart" = CASE WHEN "RateLimit"."windowStart" <= ? THEN ? ELSE "RateLimit"."windowStart" END
     RETURNING "count", "windowStart"`,
    [`test-link-submit:${clientAddress}`, now, now - 600_000, now - 600_000, now],
  );
  if (answerProblems(questions, body.answers).length > 0) throw new HttpError(400, "bad answers");
  const result = scoreAnswers(questions, bands, body.answers);
  const completedAt = new Date();
  const snapshot = {
    form: { id: link.formId, title: link.title, category: link.category, type: link.type },
    respondent: { kind: "student", id: link.respondentId, name: link.respondentName, grade: link.grade, age: link.age },
    questions,
    scoreRanges: bands,
  };
  const webhooks = await client.all<{ id: string; events: unknown }>(`SELECT "id", "events" FROM "Webhook" WHERE "organizationId" = ?`, [link.organizationId]);
  if (webhooks.some((webhook) => String(webhook.events).includes("submission.completed")))
    throw new HttpError(500, "the baseline queues no webhook deliveries: the bench's organization must have no webhooks");
  await client.transaction(async (tx) => {
    const claimed = await tx.run(
      `UPDATE "Submission" SET "isCompleted" = true, "completedAt" = ?, "totalScore" = ?, "maxScore" = ?, "percentage" = ?,
              "scoreLabel" = ?, "scoreColor" = ?, "searchText" = ?, "formTitle" = ?, "scoredAgainst" = ?, "updatedAt" = ?
        WHERE "id" = ? AND "isCompleted" = false AND "revokedAt" IS NULL`,
      [
        completedAt,
        result.totalScore,
        result.maxScore,
        result.percentage,
        result.scoreLabel,
        result.scoreColor,
        foldForSearch(`${link.respondentName} ${link.title}`),
        link.title,
        JSON.stringify(snapshot),
        completedAt,
        link.id,
      ],
    );
    if (claimed !== 1) throw new HttpError(409, "already completed");
    await tx.all(`SELECT "name" FROM "Student" WHERE "id" = ?`, [link.respondentId]);
    const values = result.answers.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ");
    await tx.run(
      `INSERT INTO "Answer" ("id", "submissionId", "questionId", "position", "questionText", "questionType", "optionIds", "optionTexts", "text", "score", "maxScore", "createdAt") VALUES ${values}`,
      result.answers.flatMap((answer, index) => [
        `${String(link.id)}a${index}`,
        link.id,
        answer.questionId,
        answer.position,
        answer.questionText,
        answer.questionType,
        JSON.stringify(answer.optionIds),
        JSON.stringify(answer.optionTexts),
        answer.text,
        answer.score,
        answer.maxScore,
        completedAt,
      ]),
    );
    await tx.run(`DELETE FROM "SubmissionDraft" WHERE "submissionId" = ?`, [link.id]);
  });
  return { submissionId: link.id, isCompleted: true, completedAt: completedAt.toISOString() };
}

const placeholders = (values: readonly unknown[]) => values.map(() => "?").join(", ");
const isStaff = (caller: Caller) => caller.role !== "STUDENT";

type BulkBody = { formId: string; studentIds?: string[]; candidateIds?: string[] };
type Respondent = { kind: "student" | "candidate"; id: string; name: string; status: string };

/**
 * POST /api/submissions/bulk without send or expiry: the form, the people named, those of them
 * with a link to it still waiting, then one link each for the others, in one transaction and one
 * statement. The database's triggers renew the organization's SubmissionsVersion and index the
 * rows for search, for these inserts as for the app's. The answer is made from the inserted values
 * and the names already read, in the app's shape.
 */
async function bulkAssign(client: SqlClient, caller: Caller, body: BulkBody, appUrl: string) {
  if (!isStaff(caller)) throw new HttpError(403, "forbidden");
  const studentIds = [...new Set(body.studentIds ?? [])];
  const candidateIds = [...new Set(body.candidateIds ?? [])];
  if (studentIds.length + candidateIds.length === 0 || studentIds.length + candidateIds.length > 1000) throw new HttpError(400, "1 to 1,000 people");
  const visible = caller.role === "ADMIN" || caller.role === "SUPER_ADMIN" ? "" : ` AND ("createdById" = ? OR "isTemplate" = true)`;
  const [form] = await client.all<{ id: string; organizationId: string; title: string; isPublished: unknown }>(
    `SELECT "id", "organizationId", "title", "isPublished" FROM "Form" WHERE "id" = ? AND "organizationId" = ? AND "deletedAt" IS NULL${visible}`,
    visible ? [body.formId, caller.organizationId, caller.userId] : [body.formId, caller.organizationId],
  );
  if (!form) throw new HttpError(404, "form not found");
  if (!bool(form.isPublished)) throw new HttpError(409, "FORM_NOT_PUBLISHED");

  const people = async (table: "Student" | "Candidate", ids: string[]) =>
    ids.length === 0
      ? []
      : client.all<Omit<Respondent, "kind">>(
          `SELECT "id", "name", "status" FROM "${table}" WHERE "organizationId" = ? AND "deletedAt" IS NULL AND "id" IN (${placeholders(ids)})`,
          [form.organizationId, ...ids],
        );
  const [students, candidates] = await Promise.all([people("Student", studentIds), people("Candidate", candidateIds)]);
  if (students.length !== studentIds.length || candidates.length !== candidateIds.length) throw new HttpError(404, "respondent not found");
  const respondents: Respondent[] = [
    ...students.map((person) => ({ kind: "student" as const, ...person })),
    ...candidates.map((person) => ({ kind: "candidate" as const, ...person })),
  ].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

  const now = new Date();
  const named: string[] = [];
  if (studentIds.length) named.push(`"studentId" IN (${placeholders(studentIds)})`);
  if (candidateIds.length) named.push(`"candidateId" IN (${placeholders(candidateIds)})`);
  // Pending or opened: not completed, not revoked, not expired.
  const waiting = await client.all<{ studentId: string | null; candidateId: string | null }>(
    `SELECT "studentId", "candidateId" FROM "Submission"
      WHERE "formId" = ? AND "deletedAt" IS NULL AND "isCompleted" = false AND "revokedAt" IS NULL
        AND ("expiresAt" IS NULL OR "expiresAt" > ?) AND (${named.join(" OR ")})`,
    [form.id, now, ...studentIds, ...candidateIds],
  );
  const hasLink = new Set(waiting.map((row) => row.studentId ?? row.candidateId));
  const skipped: { kind: Respondent["kind"]; id: string; name: string; reason: string }[] = [];
  const chosen: Respondent[] = [];
  for (const person of respondents) {
    const inactive = person.kind === "student" ? person.status !== "ACTIVE" : person.status === "PROMOTED";
    if (inactive) skipped.push({ kind: person.kind, id: person.id, name: person.name, reason: "NOT_ACTIVE" });
    else if (hasLink.has(person.id)) skipped.push({ kind: person.kind, id: person.id, name: person.name, reason: "ALREADY_PENDING" });
    else chosen.push(person);
  }

  const rows = chosen.map((person) => ({ person, id: randomUUID(), token: randomBytes(32).toString("base64url") }));
  if (rows.length > 0) {
    await client.transaction((tx) =>
      tx.run(
        `INSERT INTO "Submission" ("id", "organizationId", "formId", "studentId", "candidateId", "assignedById", "token", "expiresAt", "isCompleted", "sendCount", "createdAt", "updatedAt")
         VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, false, 0, ?, ?)").join(", ")}`,
        rows.flatMap(({ person, id, token }) => [
          id,
          form.organizationId,
          form.id,
          person.kind === "student" ? person.id : null,
          person.kind === "candidate" ? person.id : null,
          caller.userId,
          token,
          null,
          now,
          now,
        ]),
      ),
    );
  }
  const locale = resolveLocale(caller.locale);
  const created = rows.map(({ person, id, token }) => ({
    id,
    form: { id: form.id, title: form.title },
    student: person.kind === "student" ? { id: person.id, name: person.name } : null,
    candidate: person.kind === "candidate" ? { id: person.id, name: person.name } : null,
    assignedBy: { id: caller.userId, name: caller.name },
    isCompleted: false,
    completedAt: null,
    totalScore: null,
    maxScore: null,
    percentage: null,
    scoreLabel: null,
    scoreColor: null,
    expiresAt: null,
    createdAt: now.toISOString(),
    openedAt: null,
    sentAt: null,
    sendCount: 0,
    remindedAt: null,
    revokedAt: null,
    status: "PENDING",
    token,
    url: `${appUrl}/${locale}/test/${token}`,
  }));
  return { created, skipped };
}

const ROSTER_COLUMNS = new Set(["name", "email", "phone", "age", "grade", "gender", "status", "group"]);
const STUDENT_STATUS = new Set<string>(STUDENT_STATUSES);
// Zod's e-mail pattern (z.email()), which the app's schema checks with.
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
type RosterProblem = { row: number; field: string; message: string };
type RosterRow = {
  line: number;
  name: string;
  email: string | null;
  phone: string | null;
  age: number | null;
  grade: string | null;
  gender: string | null;
  status: string;
  group: string | null;
};

/**
 * POST /api/students/import with a text/csv body: parsed with the same parser and options as the
 * app's, every row checked as the app's schema does (one problem per field), e-mail addresses
 * checked once against the file and once, in one query, against the organization; then, unless a
 * dry run, the groups named, the students and their memberships written in one transaction.
 */
async function importStudents(client: SqlClient, caller: Caller, bytes: Uint8Array, dryRun: boolean) {
  const { text, encoding } = decodeRoster(bytes);
  if (!isStaff(caller)) throw new HttpError(403, "forbidden");
  const unmarked = text.replace(/^\uFEFF/, "");
  const header = unmarked.slice(0, unmarked.search(/\r?\n|$/));
  const delimiter = (header.match(/;/g)?.length ?? 0) > (header.match(/,/g)?.length ?? 0) ? ";" : ",";
  const [head = [], ...records] = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  const columns = head.map((name) => name.trim().toLowerCase());
  const problems: RosterProblem[] = [];
  const problem = (row: number, field: string, message: string) => problems.push({ row, field, message });
  columns.forEach((column, index) => {
    if (!ROSTER_COLUMNS.has(column)) problem(1, head[index]!.trim() || `#${index + 1}`, "Unknown column.");
  });
  if (!columns.includes("name")) problem(1, "name", "The file needs a name column.");
  if (records.length === 0) problem(1, "file", "The file has no rows.");
  if (records.length > 5000) problem(1, "file", "At most 5,000 rows.");
  if (problems.length > 0) {
    if (dryRun) return { status: 200, body: { rows: records.length, valid: 0, errors: problems } };
    throw new HttpError(400, "Some rows of the file need attention; nothing was imported.");
  }

  const at = Object.fromEntries(columns.map((column, index) => [column, index]));
  const rows: RosterRow[] = [];
  records.forEach((cells, index) => {
    const line = index + 2;
    const cell = (column: string) => (at[column] === undefined ? "" : (cells[at[column]] ?? "").trim());
    const before = problems.length;
    const optional = (column: string, max: number) => {
      const value = cell(column);
      if (value.length > max) problem(line, column, `At most ${max} characters.`);
      else if (CONTROL.test(value.replace(/[\r\n\t]/g, ""))) problem(line, column, "Control characters.");
      return value || null;
    };
    const name = cell("name");
    if (!name) problem(line, "name", "Enter a name.");
    else if (name.length > 200) problem(line, "name", "At most 200 characters.");
    else if (CONTROL.test(name)) problem(line, "name", "Control characters.");
    const email = cell("email").toLowerCase() || null;
    if (email && (email.length > 254 || !EMAIL.test(email))) problem(line, "email", "Enter a valid e-mail address.");
    const ageText = cell("age");
    const age = ageText === "" ? null : Number(ageText);
    if (age !== null && (!Number.isInteger(age) || age < 0 || age > 150)) problem(line, "age", "Age between 0 and 150.");
    const phone = optional("phone", 50);
    const grade = optional("grade", 50);
    const gender = optional("gender", 50);
    const status = cell("status").toUpperCase() || "ACTIVE";
    if (!STUDENT_STATUS.has(status)) problem(line, "status", "Unknown status.");
    if (problems.length === before) rows.push({ line, name, email, phone, age, grade, gender, status, group: cell("group") || null });
  });

  const seen = new Map<string, number>();
  for (const row of rows) {
    if (!row.email) continue;
    if (seen.has(row.email)) problem(row.line, "email", "This e-mail address is in the file twice.");
    else seen.set(row.email, row.line);
  }
  if (seen.size > 0) {
    const emails = [...seen.keys()];
    const taken = await client.all<{ email: string }>(
      `SELECT "email" FROM "Student" WHERE "organizationId" = ? AND "deletedAt" IS NULL AND "email" IN (${placeholders(emails)})`,
      [caller.organizationId, ...emails],
    );
    for (const { email } of taken) problem(seen.get(email)!, "email", "A student with this e-mail address already exists.");
  }
  problems.sort((a, b) => a.row - b.row || a.field.localeCompare(b.field));
  if (dryRun) {
    const badLines = new Set(problems.map((p) => p.row));
    return { status: 200, body: { rows: records.length, valid: rows.filter((row) => !badLines.has(row.line)).length, errors: problems, encoding } };
  }
  if (problems.length > 0) throw new HttpError(400, "Some rows of the file need attention; nothing was imported.");

  const now = new Date();
  const groupNames = new Map<string, string>();
  for (const row of rows) if (row.group && !groupNames.has(foldForSearch(row.group))) groupNames.set(foldForSearch(row.group), row.group);
  const ids = rows.map(() => randomUUID());
  const insertRows = async (tx: SqlClient, table: string, columnNames: string[], values: unknown[][]) => {
    // At most 500 rows a statement: under either database's limit on parameters.
    for (let from = 0; from < values.length; from += 500) {
      const batch = values.slice(from, from + 500);
      const tuple = `(${columnNames.map(() => "?").join(", ")})`;
      await tx.run(`INSERT INTO "${table}" (${columnNames.map((c) => `"${c}"`).join(", ")}) VALUES ${batch.map(() => tuple).join(", ")}`, batch.flat());
    }
  };
  const groupsCreated = await client.transaction(async (tx) => {
    const groupIds = new Map<string, string>();
    if (groupNames.size > 0) {
      const keys = [...groupNames.keys()];
      const existing = await tx.all<{ id: string; searchName: string }>(
        `SELECT "id", "searchName" FROM "Group" WHERE "organizationId" = ? AND "deletedAt" IS NULL AND "searchName" IN (${placeholders(keys)})`,
        [caller.organizationId, ...keys],
      );
      for (const group of existing) groupIds.set(group.searchName, group.id);
    }
    const missing = [...groupNames].filter(([key]) => !groupIds.has(key)).map(([key, name]) => [randomUUID(), key, name.slice(0, 200)] as const);
    for (const [id, key] of missing) groupIds.set(key, id);
    await insertRows(
      tx,
      "Group",
      ["id", "organizationId", "createdById", "name", "searchName", "createdAt", "updatedAt"],
      missing.map(([id, key, name]) => [id, caller.organizationId, caller.userId, name, key, now, now]),
    );
    await insertRows(
      tx,
      "Student",
      ["id", "organizationId", "createdById", "name", "searchName", "email", "phone", "age", "grade", "gender", "status", "createdAt", "updatedAt"],
      rows.map((row, index) => [
        ids[index],
        caller.organizationId,
        caller.userId,
        row.name,
        foldForSearch(row.name),
        row.email,
        row.phone,
        row.age,
        row.grade,
        row.gender,
        row.status,
        now,
        now,
      ]),
    );
    await insertRows(
      tx,
      "GroupMember",
      ["id", "groupId", "studentId", "createdAt"],
      rows.flatMap((row, index) => (row.group ? [[randomUUID(), groupIds.get(foldForSearch(row.group)), ids[index], now]] : [])),
    );
    return missing.length;
  });
  return { status: 201, body: { created: rows.length, groupsCreated, encoding } };
}

async function readBodyBytes(request: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const readBody = async (request: http.IncomingMessage) => (await readBodyBytes(request)).toString("utf8");

export type PageRenderer = (client: SqlClient, caller: Caller, url: URL) => Promise<string>;

export function createBaselineServer(databaseUrl: string, renderReportsPage?: PageRenderer) {
  const client = openSqlClient(databaseUrl);
  // The app's secret (run.ts passes the same SESSION_SECRET to both servers): the baseline checks the cookie's signature as the app does.
  const sessionSecret = process.env.SESSION_SECRET;
  if (!sessionSecret) throw new Error("the baseline needs SESSION_SECRET, the app's");
  const appUrl = process.env.APP_URL ?? "http://127.0.0.1";
  const send = (response: http.ServerResponse, status: number, body: string, type = "application/json; charset=utf-8") => {
    response.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
    response.end(body);
  };
  const server = http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? "/", "http://baseline");
      const submitMatch = /^\/api\/test-link\/([\w-]+)\/submit$/.exec(url.pathname);
      if (submitMatch && request.method === "POST") {
        const body = JSON.parse(await readBody(request)) as Parameters<typeof submit>[2];
        const address = String(request.headers["x-forwarded-for"] ?? request.socket.remoteAddress);
        return send(response, 200, JSON.stringify(await submit(client, submitMatch[1]!, body, address)));
      }
      const caller = await callerOf(client, request, sessionSecret);
      if (!caller) return send(response, 401, `{"status":401}`);
      if (request.method === "POST" && url.pathname === "/api/submissions/bulk") {
        const body = JSON.parse(await readBody(request)) as BulkBody;
        return send(response, 201, JSON.stringify(await bulkAssign(client, caller, body, appUrl)));
      }
      if (request.method === "POST" && url.pathname === "/api/students/import") {
        const answer = await importStudents(client, caller, await readBodyBytes(request), url.searchParams.get("dryRun") === "true");
        return send(response, answer.status, JSON.stringify(answer.body));
      }
      if (request.method === "GET" && url.pathname === "/api/reports/export") return exportReportsCsv(client, caller, url, response);
      const summaryMatch = /^\/api\/forms\/([\w-]+)\/summary$/.exec(url.pathname);
      if (request.method === "GET" && summaryMatch) return send(response, 200, JSON.stringify(await formSummary(client, caller, summaryMatch[1]!, url)));
      const search = url.searchParams.get("search") ?? "";
      const page = Number(url.searchParams.get("page") ?? 1);
      const limit = Number(url.searchParams.get("limit") ?? 20);
      switch (url.pathname) {
        case "/api/auth/session": {
          const { userId: id, name, email, role, image, sessionExpiresAt } = caller;
          return send(response, 200, JSON.stringify({ user: { id, name, email, role, image }, expires: sessionExpiresAt.toISOString() }));
        }
        case "/api/reports": {
          const since = url.searchParams.get("updatedSince");
          if (since) return send(response, 200, JSON.stringify(await queryReportChanges(client, caller, { page, limit, since: new Date(since) })));
          return send(response, 200, JSON.stringify(await queryReports(client, caller, { page, limit, search })));
        }
        case "/api/forms":
          return send(response, 200, JSON.stringify(await listForms(client, caller, { search, page, limit })));
        case "/api/students":
          return send(response, 200, JSON.stringify(await listStudents(client, caller, { search, page, limit })));
        case "/en/reports":
          if (renderReportsPage) return send(response, 200, await renderReportsPage(client, caller, url), "text/html; charset=utf-8");
      }
      send(response, 404, `{"status":404}`);
    } catch (error) {
      if (error instanceof HttpError) return send(response, error.status, JSON.stringify({ status: error.status, detail: error.message }));
      console.error(error);
      send(response, 500, `{"status":500}`);
    }
  });
  server.keepAliveTimeout = 65_000;
  return { server, client };
}
