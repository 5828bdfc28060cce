import { badRequest, fieldProblem } from "./problem.server.ts";
import { DATE_ONLY, endOfDayIn, startOfDayIn } from "./zoned-time.ts";

/** The bounds a list's `from`/`to` filters ask for (both included), for a date column's `where`. */
export type DateRange = { gte?: Date; lte?: Date };

/**
 * Date-only bounds cover whole days in the organization's time zone (docs/api-contract.md §10); a date-time
 * without a zone is read as UTC. A bound that is not a date, or a start after the end, is 400 naming
 * its field.
 */
export function dateRange(query: { from?: string; to?: string }, timeZone: string): DateRange | undefined {
  const parse = (value: string, endOfDay: boolean) => {
    if (DATE_ONLY.test(value)) return endOfDay ? endOfDayIn(value, timeZone) : startOfDayIn(value, timeZone);
    const date = new Date(/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`);
    return Number.isNaN(date.getTime()) ? null : date;
  };
  const from = query.from ? parse(query.from, false) : undefined;
  const to = query.to ? parse(query.to, true) : undefined;
  if (from === null) throw badRequest("The start date is not a date.", [fieldProblem("from", "date")]);
  if (to === null) throw badRequest("The end date is not a date.", [fieldProblem("to", "date")]);
  if (from && to && from > to) throw badRequest("The start date is after the end date.", [fieldProblem("from", "startAfterEnd")]);
  if (!from && !to) return undefined;
  return { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}) };
}
