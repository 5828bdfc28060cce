import { addDays, dayIn, startOfDayIn } from "~/lib/zoned-time.ts";
import { RETENTION_ACTIONS, type RetentionAction, type RetentionPolicy, type RetentionPolicyInput } from "./retention-schemas.ts";

/**
 * A retention policy as the organization's columns hold it, and the instants it is read against
 * (ADR 89). Pure: the job and the preview pass their own clock.
 */

/**
 * The same moment `months` calendar months before `now`, in UTC; a day the earlier month does not
 * have becomes its last (31 March less one month is 28 or 29 February).
 */
export function monthsBefore(now: Date, months: number): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, month, Math.min(now.getUTCDate(), lastDay), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()),
  );
}

/** When the daily run after `now` is due: the start of the next day in the organization's zone. */
export const nextRetentionRun = (now: Date, timeZone: string): Date => startOfDayIn(addDays(dayIn(now, timeZone), 1), timeZone) as Date;

/** The organization's columns that hold its policy. */
export type RetentionColumns = {
  retentionResultsMonths: number | null;
  retentionInactivePeopleMonths: number | null;
  retentionAction: string | null;
};

export const retentionColumnsSelect = { retentionResultsMonths: true, retentionInactivePeopleMonths: true, retentionAction: true } as const;

const isAction = (value: string | null): value is RetentionAction => (RETENTION_ACTIONS as readonly (string | null)[]).includes(value);

/** The policy the columns hold; null when there is none (everything is kept). */
export function policyOf(columns: RetentionColumns): RetentionPolicy | null {
  if (!isAction(columns.retentionAction)) return null;
  return { resultsMonths: columns.retentionResultsMonths, inactivePeopleMonths: columns.retentionInactivePeopleMonths, action: columns.retentionAction };
}

/** The columns a PUT writes for its policy (null: none). A rule left out of the policy is off. */
export const policyColumns = (policy: RetentionPolicyInput | null): RetentionColumns => ({
  retentionResultsMonths: policy?.resultsMonths ?? null,
  retentionInactivePeopleMonths: policy?.inactivePeopleMonths ?? null,
  retentionAction: policy?.action ?? null,
});

/** The instants before which each rule touches what it finds, at `now`; null for a rule that is off. */
export const cutoffsOf = (policy: RetentionPolicy, now: Date) => ({
  results: policy.resultsMonths === null ? null : monthsBefore(now, policy.resultsMonths),
  people: policy.inactivePeopleMonths === null ? null : monthsBefore(now, policy.inactivePeopleMonths),
});
