import { readCookie } from "./cookies.ts";
import { isValidTimeZone } from "~/i18n/format.ts";

/**
 * The browser's time zone, reported by the page itself in a `tz` cookie (see useTimeZoneCookie),
 * so the server renders dates the way the browser would. Until it has (first visit, or JavaScript
 * off), dates are shown in UTC.
 */
export const TIME_ZONE_COOKIE = "tz";

export function timeZoneFromCookie(header: string | null | undefined): string {
  const value = readCookie(header, TIME_ZONE_COOKIE);
  return isValidTimeZone(value) ? value : "UTC";
}

export function timeZoneCookie(timeZone: string): string {
  const secure = typeof location !== "undefined" && location.protocol === "https:" ? "; Secure" : "";
  return `${TIME_ZONE_COOKIE}=${encodeURIComponent(timeZone)}; Path=/; Max-Age=${365 * 24 * 60 * 60}; SameSite=Lax${secure}`;
}
