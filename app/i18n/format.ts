import type { Locale } from "~/lib/i18n.ts";

/**
 * Dates and numbers for a locale with Intl. The server and the browser must produce the same text
 * (hydration), so the time zone is explicit: the one the browser reported in the `tz` cookie
 * (app/lib/time-zone.ts), UTC until it has.
 */
export type DateInput = Date | string | number;

export type Format = {
  locale: Locale;
  timeZone: string;
  /** 3 Mar 2026 / 3 mar 2026 / 3 de mar. de 2026 */
  date: (value: DateInput) => string;
  /** 3 Mar 2026, 14:05 */
  dateTime: (value: DateInput) => string;
  /** 1,234.5 / 1234,5 / 1.234,5 */
  number: (value: number, options?: Intl.NumberFormatOptions) => string;
  /** A percentage given from 0 to 100 (as the service stores it): 62.5 → "62.5%" / "62,5 %". */
  percent: (value: number) => string;
};

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, create: () => T): T {
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = create();
    cache.set(key, formatter);
  }
  return formatter;
}

const toDate = (value: DateInput) => (value instanceof Date ? value : new Date(value));

export function isValidTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== "string" || timeZone.length === 0 || timeZone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return true;
  } catch {
    return false;
  }
}

export function createFormat(locale: Locale, timeZone = "UTC"): Format {
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  const dateFormat = cached(`d|${locale}|${zone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: zone }));
  const dateTimeFormat = cached(`dt|${locale}|${zone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: zone }));
  const percentFormat = cached(`p|${locale}`, () => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }));
  return {
    locale,
    timeZone: zone,
    date: (value) => dateFormat.format(toDate(value)),
    dateTime: (value) => dateTimeFormat.format(toDate(value)),
    number: (value, options) =>
      options ? new Intl.NumberFormat(locale, options).format(value) : cached(`n|${locale}`, () => new Intl.NumberFormat(locale)).format(value),
    percent: (value) => percentFormat.format(value / 100),
  };
}

/**
 * The instant the current month began in a time zone (for "this month" counts): midnight of the
 * 1st there, as a Date.
 */
export function startOfMonthIn(timeZone: string, now = new Date()): Date {
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "numeric", month: "numeric" }).formatToParts(now).map((part) => [part.type, part.value]),
  );
  const guess = Date.UTC(Number(parts.year), Number(parts.month) - 1, 1);
  return new Date(guess - offsetMinutes(zone, new Date(guess)) * 60_000);
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
function offsetMinutes(timeZone: string, at: Date): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}
