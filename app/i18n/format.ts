import type { Locale } from "~/lib/i18n.ts";

/**
 * Dates and numbers for a locale with Intl. The server and the browser must produce the same text
 * (hydration), so the time zone is explicit: the organization's (`Organization.timeZone`), which the
 * loaders hand down (app/i18n/hooks.ts `useFormat`).
 */
export type DateInput = Date | string | number;

export type Format = {
  locale: Locale;
  timeZone: string;
  /** 3 Mar 2026 / 3 mar 2026 / 3 de mar. de 2026 */
  date: (value: DateInput) => string;
  /** 3 Mar 2026, 14:05 */
  dateTime: (value: DateInput) => string;
  /** A calendar day as a date input posts it (`2026-03-03`: 3 Mar 2026), whatever the zone. */
  day: (value: string) => string;
  /** 1,234.5 / 1234,5 / 1.234,5; null (a score too many missing answers left unscorable) is "—". */
  number: (value: number | null, options?: Intl.NumberFormatOptions) => string;
  /** A percentage given from 0 to 100 (as the service stores it): 62.5 → "62.5%" / "62,5 %"; null is "—". */
  percent: (value: number | null) => string;
  /** "name, e-mail and grade" / "nombre, correo y grado" / "nome, e-mail e série" */
  list: (items: readonly string[]) => string;
};

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>(key: string, create: () => T): T {
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = create();
    cache.set(key, formatter);
  }
  return formatter;
}

/** What stands for a score that could not be given, in every language. */
const NO_SCORE = "—";

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
  const dayFormat = cached(`d|${locale}|UTC`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }));
  const dateTimeFormat = cached(`dt|${locale}|${zone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: zone }));
  const percentFormat = cached(`p|${locale}`, () => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }));
  return {
    locale,
    timeZone: zone,
    date: (value) => dateFormat.format(toDate(value)),
    dateTime: (value) => dateTimeFormat.format(toDate(value)),
    day: (value) => dayFormat.format(new Date(`${value}T00:00:00Z`)),
    number: (value, options) =>
      value === null
        ? NO_SCORE
        : options
          ? new Intl.NumberFormat(locale, options).format(value)
          : cached(`n|${locale}`, () => new Intl.NumberFormat(locale)).format(value),
    percent: (value) => (value === null ? NO_SCORE : percentFormat.format(value / 100)),
    list: (items) => cached(`l|${locale}`, () => new Intl.ListFormat(locale, { type: "conjunction" })).format(items),
  };
}
