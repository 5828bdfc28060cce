import { addDays, DATE_ONLY, dayIn, daysBetween, startOfDayIn } from "~/lib/zoned-time.ts";
import type { ScheduleEnding, ScheduleStatus } from "./schedule-states.ts";

/**
 * A schedule's days (docs/api-contract.md §18, ADR 76), pure: its series is calendar days in the
 * organization's time zone, `everyDays` apart, and each occurrence is due at the start of its day
 * there, whatever daylight saving does to the hours in between.
 */

/** How late an occurrence may still run: past a day after its start it is MISSED, never sent late. */
export const MISSED_AFTER_MS = 24 * 60 * 60 * 1000;

/** The day a posted `startsAt` or `endsAt` stands for: a date as it is, a date-time's day in the zone; null when not a real day. */
export function dayOf(value: string, timeZone: string): string | null {
  const day = DATE_ONLY.test(value) ? value : dayIn(new Date(value), timeZone);
  return startOfDayIn(day, timeZone) ? day : null;
}

/** When the occurrence of `day` is due: the start of that day in the zone. */
export const occurrenceDueAt = (day: string, timeZone: string): Date => startOfDayIn(day, timeZone) as Date;

/** The first day of the series through `from`, `everyDays` apart, that is `today` or later. */
export function seriesDayFrom(from: string, everyDays: number, today: string): string {
  const behind = daysBetween(from, today);
  return behind <= 0 ? from : addDays(from, Math.ceil(behind / everyDays) * everyDays);
}

type StateFields = {
  pausedAt: Date | null;
  count: number | null;
  occurrencesRun: number;
  endsOn: string | null;
  nextOn: string;
  form: { deletedAt: Date | null };
  group: { deletedAt: Date | null } | null;
};

/**
 * Where a schedule stands: ENDED for good once its form or group is deleted, ENDED (FINISHED) once
 * its count or its last day is reached (a change of either may start it again), else PAUSED or ACTIVE.
 */
export function scheduleState(schedule: StateFields): { status: ScheduleStatus; endedBecause: ScheduleEnding | null } {
  if (schedule.form.deletedAt) return { status: "ENDED", endedBecause: "FORM_DELETED" };
  if (schedule.group?.deletedAt) return { status: "ENDED", endedBecause: "GROUP_DELETED" };
  const counted = schedule.count !== null && schedule.occurrencesRun >= schedule.count;
  if (counted || (schedule.endsOn !== null && schedule.nextOn > schedule.endsOn)) return { status: "ENDED", endedBecause: "FINISHED" };
  return { status: schedule.pausedAt ? "PAUSED" : "ACTIVE", endedBecause: null };
}
