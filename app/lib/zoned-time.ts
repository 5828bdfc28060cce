import { isValidTimeZone } from "~/i18n/format.ts";

/**
 * Whole days in an organization's time zone (docs/api-contract.md §10): a date-only expiry or report bound
 * means the end (or start) of that day where the school is, never silently UTC. Intl knows the
 * zones' rules (daylight saving included), so no time-zone library is needed.
 */

/** `2026-03-01`: a calendar day, as date inputs post it. */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The first instant of a calendar day in a zone; null when the text is not a real day. */
export function startOfDayIn(day: string, timeZone: string): Date | null {
  if (!DATE_ONLY.test(day)) return null;
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(year, month - 1, date);
  if (new Date(midnightUtc).toISOString().slice(0, 10) !== day) return null;
  return wallClockToInstant(midnightUtc, zoneOrUtc(timeZone));
}

/** The last millisecond of a calendar day in a zone (the day's end, for expiries and `to`). */
export function endOfDayIn(day: string, timeZone: string): Date | null {
  const start = startOfDayIn(day, timeZone);
  if (!start) return null;
  return new Date(startOfDayIn(addDays(day, 1), timeZone)!.getTime() - 1);
}

/** The calendar day `days` after `day` (before, when negative): `addDays("2026-03-28", 2)` is `2026-03-30`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (negative when `to` comes first). */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The calendar day an instant falls on in a zone, as a date input shows it (`2026-03-01`). */
export function dayIn(instant: Date, timeZone: string): string {
  const parts = zoneParts(zoneOrUtc(timeZone), instant);
  return `${parts.year}-${String(parts.month).padStart(2, "0")}-${String(parts.day).padStart(2, "0")}`;
}

/** The instant the current month began in a zone (for "this month" counts): midnight of the 1st there. */
export function startOfMonthIn(timeZone: string, now = new Date()): Date {
  const zone = zoneOrUtc(timeZone);
  const { year, month } = zoneParts(zone, now);
  return wallClockToInstant(Date.UTC(year, month - 1, 1), zone);
}

/**
 * A wall-clock time in a zone (given as if it were UTC) as an instant. The offset is read at the
 * first guess and again at the result, so a day that starts next to a daylight-saving change
 * lands on the right side of it.
 */
function wallClockToInstant(wallClockAsUtc: number, zone: string): Date {
  let instant = wallClockAsUtc - offsetMinutes(zone, new Date(wallClockAsUtc)) * 60_000;
  instant = wallClockAsUtc - offsetMinutes(zone, new Date(instant)) * 60_000;
  return new Date(instant);
}

const zoneOrUtc = (timeZone: string) => (isValidTimeZone(timeZone) ? timeZone : "UTC");

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function zoneParts(zone: string, at: Date) {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    partsFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
function offsetMinutes(zone: string, at: Date): number {
  const p = zoneParts(zone, at);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** A clock of one zone for many instants (a file's rows): `iso` and `wallClock` of each. */
export type ZoneClock = {
  /** `2026-11-29T02:53:00-03:00`: the local date and time to the second, with the zone's offset then (docs/api-contract.md §23). */
  iso: (instant: Date) => string;
  /**
   * The local date and time there as a Date whose UTC fields read it (`2026-11-29T02:53:00Z` for
   * the instant above): what a spreadsheet's date cell, which has no zone, should hold (ADR 49).
   */
  wallClock: (instant: Date) => Date;
};

const DAY_MS = 86_400_000;
/** The UTC days a clock remembers before it starts again: a few years of results. */
const REMEMBERED_DAYS = 4096;

/**
 * A clock for `timeZone` that asks `Intl` for the offset once per UTC day rather than per
 * instant (3 µs each, 1.7 s over a 250,000-row export's two dates a row). A day whose offset is
 * the same at its first and last second has it throughout (no zone changes twice within a day
 * and back); in a day with a change, every instant is asked for on its own.
 */
export function zoneClock(timeZone: string): ZoneClock {
  const zone = zoneOrUtc(timeZone);
  const days = new Map<number, number | null>();
  const offsetAt = (ms: number): number => {
    const day = Math.floor(ms / DAY_MS);
    let offset = days.get(day);
    if (offset === undefined) {
      const first = offsetMinutes(zone, new Date(day * DAY_MS));
      const last = offsetMinutes(zone, new Date((day + 1) * DAY_MS - 1000));
      offset = first === last ? first : null;
      if (days.size >= REMEMBERED_DAYS) days.clear();
      days.set(day, offset);
    }
    return offset ?? offsetMinutes(zone, new Date(ms));
  };
  return {
    iso(instant) {
      const ms = instant.getTime();
      const offset = offsetAt(ms);
      const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
      const minutes = Math.abs(offset);
      return `${local}${offset < 0 ? "-" : "+"}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
    },
    wallClock(instant) {
      const ms = instant.getTime();
      return new Date(ms + offsetAt(ms) * 60_000);
    },
  };
}
