import type { ReportFilters } from "./report-schemas.ts";

/**
 * The report totals' cache key and size (docs/decisions/0013-report-totals.md) and the scopes the
 * submission counts answer (ADR 36), without the database. Both are built from every filter of
 * the reports list (docs/decisions/0056-totals-from-every-filter.md): REPORT_FILTER_RULES must
 * say, for each field of ReportFilters, how it enters the key and whether the counts still answer
 * it, or the code does not compile.
 */

/** How many totals one process keeps; the least recently used one goes first. */
export const REPORT_TOTALS_CACHE_SIZE = 500;

/** The filters whose value the list does not apply as given (reportSelection in reports.server.ts). */
type AppliedAs = {
  /** The folded search term; undefined for none. */
  search: string | undefined;
  /** The completedAt bounds, both included: a date-only `from`/`to` is its day in the caller's time zone. */
  from: Date | undefined;
  to: Date | undefined;
};

/**
 * What, besides the caller's scope, decides a total: every filter of the reports list as the list
 * applies it, undefined when unset. No field is optional, so a filter added to ReportFilters is a
 * type error where the list builds this until it is given.
 */
export type ReportTotalFilter = {
  [Field in keyof Required<ReportFilters>]: Field extends keyof AppliedAs ? AppliedAs[Field] : ReportFilters[Field] | undefined;
};

/** The rows of "SubmissionCount" that hold a total (ADR 36): an organization, one assigner or all, one form or all. */
export type CountedScope = { organizationId: string; assignedById?: string; formId?: string };

type FilterRule<Value> = {
  /**
   * How the filter enters a total's cache key: "value", its value (a date as its instant); or
   * "uncached", a total with it set is never cached but counted every time, because what it selects
   * by changes without a submission changing, which the version (ADR 13) does not see.
   */
  key: "value" | "uncached";
  /**
   * Whether the submission counts can give a total with the filter set: null when they cannot (a
   * condition on anything but their columns: the total is counted), or the rows of
   * "SubmissionCount" that the value narrows the scope to.
   */
  counts: null | ((value: Value) => Pick<CountedScope, "formId">);
};

/**
 * What every filter of the reports list does to its total. A filter on a column of "Submission"
 * (a score, a band) is `key: "value"`, `counts: null`; only a column the counts are kept by can
 * narrow them.
 */
const REPORT_FILTER_RULES: { [Field in keyof ReportTotalFilter]: FilterRule<NonNullable<ReportTotalFilter[Field]>> } = {
  search: { key: "value", counts: null },
  from: { key: "value", counts: null },
  to: { key: "value", counts: null },
  formId: { key: "value", counts: (formId) => ({ formId }) },
  // A group's members change without any submission changing.
  groupId: { key: "uncached", counts: null },
  // Columns of "Submission": an acknowledgement is an UPDATE, which renews the version (ADR 13).
  flagged: { key: "value", counts: null },
};

const REPORT_FILTER_FIELDS = Object.keys(REPORT_FILTER_RULES) as (keyof ReportTotalFilter)[];

/** What one filter does to the counted scope: nothing while it is unset, otherwise its rule's narrowing, or null when the counts cannot answer it. */
function countsWith<Field extends keyof ReportTotalFilter>(field: Field, filter: ReportTotalFilter): Pick<CountedScope, "formId"> | null {
  const value = filter[field];
  if (value === undefined) return {};
  const rule: FilterRule<NonNullable<ReportTotalFilter[Field]>> = REPORT_FILTER_RULES[field];
  return rule.counts ? rule.counts(value) : null;
}

/** Who asks for a total: what decides their scope. */
type Caller = { role: string; userId: string; organizationId: string; staffOf: readonly unknown[] };

/**
 * The caller's scope in the cache key and the counts, or null for a scope whose totals are counted
 * every time (see report-totals.server.ts). A teacher who shares groups (ADR 86) sees their
 * members' results, which a change of membership or staff changes without any submission changing
 * (the version of ADR 13 would not see it), and which the counts by assigner do not hold: counted.
 */
function callerScope(caller: Caller): { key: string; counted: CountedScope } | null {
  const { organizationId } = caller;
  if (caller.role === "ADMIN") return { key: "organization", counted: { organizationId } };
  if (caller.role === "TEACHER" && caller.staffOf.length === 0) {
    return { key: `assignedBy:${caller.userId}`, counted: { organizationId, assignedById: caller.userId } };
  }
  return null;
}

/**
 * The scope whose total the submission counts hold (docs/decisions/0036-submission-counts.md), or
 * null when the total must be counted: an administrator's organization or a teacher's own
 * assignments, narrowed by the filters the counts answer (a form), when every filter set is one of
 * them.
 */
export function countedScope(caller: Caller, filter: ReportTotalFilter): CountedScope | null {
  const scope = callerScope(caller);
  if (!scope) return null;
  let counted = scope.counted;
  for (const field of REPORT_FILTER_FIELDS) {
    const narrowed = countsWith(field, filter);
    if (narrowed === null) return null;
    counted = { ...counted, ...narrowed };
  }
  return counted;
}

/**
 * The cache key of a total, or null when the total is never cached (see report-totals.server.ts):
 * the organization, the caller's scope and every filter by name, with its value.
 */
export function reportTotalKey(caller: Caller, filter: ReportTotalFilter): string | null {
  const scope = callerScope(caller);
  if (!scope) return null;
  const filters: [string, unknown][] = [];
  for (const field of REPORT_FILTER_FIELDS) {
    const value = filter[field];
    if (value !== undefined && REPORT_FILTER_RULES[field].key === "uncached") return null;
    filters.push([field, value ?? null]);
  }
  // JSON writes a Date as its instant (toISOString).
  return JSON.stringify([caller.organizationId, scope.key, filters]);
}
