import { readCookie } from "./cookies.ts";
import { env } from "./env.server.ts";
import { isLocale, negotiateLocale, type Locale } from "./i18n.ts";

/**
 * The language a person last read the pages in, kept for a year so `/` opens in it. A plain
 * cookie (`locale=es`): it is a preference, not a credential, and is validated on every read.
 */
export const LOCALE_COOKIE = "locale";
const ONE_YEAR = 365 * 24 * 60 * 60;

export function rememberedLocale(request: Request): Locale | null {
  const value = readCookie(request.headers.get("cookie"), LOCALE_COOKIE);
  return isLocale(value) ? value : null;
}

export function rememberLocaleCookie(locale: Locale): string {
  const secure = env().APP_URL.startsWith("https://") ? "; Secure" : "";
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax; HttpOnly${secure}`;
}

/** The remembered locale, else the best match of Accept-Language, else the default. */
export function preferredLocale(request: Request): Locale {
  return rememberedLocale(request) ?? negotiateLocale(request.headers.get("accept-language"));
}
