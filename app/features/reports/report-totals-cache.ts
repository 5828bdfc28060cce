/**
 * The report totals' cache key and size (docs/decisions/0013-report-totals.md) and the scopes the
 * submission counts answer (ADR 36), without the database, so that the bench's baseline takes its
 * totals the same way as the app.
 */

/** How many totals one process keeps; the least recently used one goes first. */
export const REPORT_TOTALS_CACHE_SIZE = 500;

/**
 * What, besides the caller's scope, decides a total: the folded search term ("" for none), the
 * completedAt bounds, the form and the group. A group's members change without a submission
 * changing, which the version does not see: those totals are counted every time.
 */
export type ReportTotalFilter = { term: string; from: Date | undefined; to: Date | undefined; formId?: string | undefined; groupId?: string | undefined };

/**
 * The scope whose total the submission counts hold (docs/decisions/0036-submission-counts.md), or
 * null when the total must be counted: an administrator's organization or a teacher's own
 * assignments, all of them or one form's, with no search, dates or group.
 */
export function countedScope(
  caller: { role: string; userId: string; organizationId: string },
  filter: ReportTotalFilter,
): { organizationId: string; assignedById?: string; formId?: string } | null {
  if (filter.term || filter.from || filter.to || filter.groupId) return null;
  const form = filter.formId ? { formId: filter.formId } : {};
  if (caller.role === "ADMIN") return { organizationId: caller.organizationId, ...form };
  if (caller.role === "TEACHER") return { organizationId: caller.organizationId, assignedById: caller.userId, ...form };
  return null;
}

/** The cache key of a total, or null when the total is never cached (see report-totals.server.ts). */
export function reportTotalKey(caller: { role: string; userId: string; organizationId: string }, filter: ReportTotalFilter): string | null {
  let scope: string;
  if (caller.role === "ADMIN") scope = "organization";
  else if (caller.role === "TEACHER") scope = `assignedBy:${caller.userId}`;
  else return null;
  if (filter.groupId) return null;
  return JSON.stringify([
    caller.organizationId,
    scope,
    filter.term,
    filter.from?.toISOString() ?? null,
    filter.to?.toISOString() ?? null,
    filter.formId ?? null,
  ]);
}
