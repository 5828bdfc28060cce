import { badRequest, fieldProblem } from "~/lib/problem.server.ts";
import { DATE_ONLY, endOfDayIn } from "~/lib/zoned-time.ts";

/**
 * A link's expiry as posted (`expiryInput`) as an instant in the future: a date-time is that
 * instant; a day (`2026-12-01`) is the end of that day in the caller's organization's time zone
 * (docs/api-contract.md §10), so "until Friday" means Friday where the school is. `null`/`undefined`: no
 * expiry. Resolved before anything is looked up, so a bad body is a 400 whatever its ids.
 */
export function linkExpiry(value: string | null | undefined, timeZone: string, now = new Date()): Date | null {
  if (value === null || value === undefined) return null;
  const instant = DATE_ONLY.test(value) ? endOfDayIn(value, timeZone) : new Date(value);
  if (!instant || Number.isNaN(instant.getTime())) throw badRequest("The expiry is not a date.", [fieldProblem("expiresAt", "date")]);
  if (instant.getTime() <= now.getTime()) throw badRequest("The expiry must be in the future.", [fieldProblem("expiresAt", "futureDate")]);
  return instant;
}
