import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";

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
 * Cached: administrators (scope: the organization) and teachers (the submissions they assigned),
 * whose scope is decided by "Submission" columns alone. Not cached, counted every time:
 * - SUPER_ADMIN: the scope is every organization, which no single row versions;
 * - STUDENT: the scope follows "Student"."userId" (which student record is theirs), which the
 *   version does not cover; their totals are small anyway;
 * - an organization without a version row yet (created since the migration, no submission so far):
 *   a row that did not exist is no version to trust.
 */

/** How many totals one process keeps; the least recently used one goes first. */
export const REPORT_TOTALS_CACHE_SIZE = 500;

/**
 * What, besides the caller's scope, decides a total: the folded search term ("" for none), the
 * completedAt bounds, the form and the group. A group's members change without a submission
 * changing, which the version does not see: those totals are counted every time.
 */
export type ReportTotalFilter = { term: string; from: Date | undefined; to: Date | undefined; formId?: string | undefined; groupId?: string | undefined };

type Entry = { version: string; total: Promise<number> };

const totals = new Map<string, Entry>();

function cacheKey(actor: Actor, filter: ReportTotalFilter): string | null {
  let scope: string;
  if (actor.role === "ADMIN") scope = "organization";
  else if (actor.role === "TEACHER") scope = `assignedBy:${actor.userId}`;
  else return null;
  if (filter.groupId) return null;
  return JSON.stringify([
    actor.organizationId,
    scope,
    filter.term,
    filter.from?.toISOString() ?? null,
    filter.to?.toISOString() ?? null,
    filter.formId ?? null,
  ]);
}

/** The current version of the organization's submissions; null while it has no row. */
async function submissionsVersion(organizationId: string): Promise<string | null> {
  const row = await db.submissionsVersion.findUnique({ where: { organizationId }, select: { version: true } });
  return row?.version ?? null;
}

/**
 * The exact number of reports in the caller's scope that match `filter`: the cached one when the
 * organization's submissions have not changed since it was counted, otherwise `count()` (which
 * must count exactly what `filter` and the caller's scope select). Requests that miss at the same
 * time for the same key and version share one count.
 */
export async function exactReportTotal(actor: Actor, filter: ReportTotalFilter, count: () => Promise<number>): Promise<number> {
  const key = cacheKey(actor, filter);
  if (key === null) return count();
  // First the version, then the count: see the module comment.
  const version = await submissionsVersion(actor.organizationId);
  if (version === null) return count();

  const cached = totals.get(key);
  if (cached?.version === version) {
    // Most recently used last, so the first key is the one to evict.
    totals.delete(key);
    totals.set(key, cached);
    return cached.total;
  }

  const entry: Entry = { version, total: count() };
  totals.delete(key);
  totals.set(key, entry);
  if (totals.size > REPORT_TOTALS_CACHE_SIZE) totals.delete(totals.keys().next().value!);
  try {
    return await entry.total;
  } catch (error) {
    // A failed count is not kept: the next request counts again.
    if (totals.get(key) === entry) totals.delete(key);
    throw error;
  }
}

/** How many totals this process holds (for tests). */
export function cachedReportTotals(): number {
  return totals.size;
}
