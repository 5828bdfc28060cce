import type { Actor } from "~/lib/auth/actor.server.ts";
import { Prisma, readThroughDriver } from "~/lib/db.server.ts";
import { VersionedCache } from "~/lib/versioned-cache.ts";
import { REPORT_TOTALS_CACHE_SIZE, type ReportTotalFilter, countedScope, reportTotalKey } from "./report-totals-cache.ts";

export { REPORT_TOTALS_CACHE_SIZE, type ReportTotalFilter };

/**
 * Exact totals of the reports list, cached in this process and checked against the database on
 * every request (docs/decisions/0013-report-totals.md).
 *
 * Triggers on "Submission" write a new random version into the organization's "SubmissionsVersion"
 * row in every transaction that inserts, updates or deletes one of its submissions. A total is
 * stored with the version read *before* it was counted and served only while that version is still
 * the current one: a write committed in between changed the version, so it can only cost a needless
 * recount, never a stale total. Every app instance keeps its own cache and checks it against the
 * same row, so the totals are exact across instances too. Page rows are never cached.
 *
 * Not cached at all: the totals that the submission counts kept by triggers hold (ADR 36, an
 * administrator's or teacher's whole scope or one form of it, with no search, dates or group) are
 * read from them, exact after every write.
 *
 * Cached: administrators (scope: the organization) and teachers (the submissions they assigned),
 * whose scope is decided by "Submission" columns alone. Not cached, counted every time:
 * - SUPER_ADMIN: the scope is every organization, which no single row versions;
 * - STUDENT: the scope follows "Student"."userId" (which student record is theirs), which the
 *   version does not cover; their totals are small anyway;
 * - an organization without a version row yet (created since the migration, no submission so far):
 *   a row that did not exist is no version to trust.
 */

const totals = new VersionedCache<number>(REPORT_TOTALS_CACHE_SIZE);

/** The current version of the organization's submissions; null while it has no row. Its text never changes: a named statement. */
async function submissionsVersion(organizationId: string): Promise<string | null> {
  const statement = Prisma.sql`SELECT "version" FROM "SubmissionsVersion" WHERE "organizationId" = ${organizationId}`;
  const [row] = await readThroughDriver<{ version: string }>(statement, { name: "submissions-version" });
  return row?.version ?? null;
}

/**
 * The exact number of reports in the caller's scope that match `filter`: the cached one when the
 * organization's submissions have not changed since it was counted, otherwise `count()` (which
 * must count exactly what `filter` and the caller's scope select). Requests that miss at the same
 * time for the same key and version share one count.
 */
export async function exactReportTotal(actor: Actor, filter: ReportTotalFilter, count: () => Promise<number>): Promise<number> {
  const counted = countedScope(actor, filter);
  if (counted) return completedCount(counted);
  const key = reportTotalKey(actor, filter);
  if (key === null) return count();
  // First the version, then the count: see the module comment.
  const version = await submissionsVersion(actor.organizationId);
  if (version === null) return count();

  return totals.get(key, version, count);
}

/**
 * The completed, not deleted submissions of a scope as the triggers count them
 * (docs/decisions/0036-submission-counts.md): a sum over the scope's forms and assigners, exact
 * after every committed write, whatever was written a moment ago. Its text follows the scope (an
 * assigner, a form), so it is not a named statement (ADR 97).
 */
async function completedCount(scope: NonNullable<ReturnType<typeof countedScope>>): Promise<number> {
  const conditions = [Prisma.sql`"organizationId" = ${scope.organizationId}`];
  if (scope.assignedById) conditions.push(Prisma.sql`"assignedById" = ${scope.assignedById}`);
  if (scope.formId) conditions.push(Prisma.sql`"formId" = ${scope.formId}`);
  const [row] = await readThroughDriver<{ completed: unknown }>(Prisma.sql`
    SELECT COALESCE(SUM("completed"), 0) AS "completed" FROM "SubmissionCount" WHERE ${Prisma.join(conditions, " AND ")}`);
  return Number(row?.completed ?? 0);
}

/** How many totals this process holds (for tests). */
export function cachedReportTotals(): number {
  return totals.count;
}
