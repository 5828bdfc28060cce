/** The languages the pages speak; the first is the default. */
export const LOCALES = ["en", "es", "pt-BR"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Each language named in itself, as a language switcher shows it. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  es: "Español",
  "pt-BR": "Português (Brasil)",
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** A known locale, or the default: URLs are only ever built from this list, never from input. */
export function resolveLocale(value: unknown): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/** The locale a path starts with (`/es/home` → es), or the default. */
export function localeFromPath(pathname: string): Locale {
  return resolveLocale(pathname.split("/")[1]);
}

/**
 * The same page in another language: `/es/forms?page=2` → `/pt-BR/forms?page=2`. A path without a
 * locale (a 404 outside every route) gets one in front.
 */
export function pathInLocale(pathname: string, search: string, locale: Locale): string {
  const [, first = "", ...rest] = pathname.split("/");
  const tail = isLocale(first) ? rest.join("/") : [first, ...rest].filter(Boolean).join("/");
  return `/${locale}${tail ? `/${tail}` : ""}${search}`;
}

/**
 * Which of our locales a language tag falls into: the same tag, or else the first locale of its
 * language (es-AR → es, pt-PT → pt-BR, en-GB → en). Read from `LOCALES`, so a language added there
 * is matched without more code.
 */
function localeForTag(tag: string): Locale | null {
  const wanted = tag.toLowerCase();
  const language = wanted.split("-")[0];
  return LOCALES.find((locale) => locale.toLowerCase() === wanted) ?? LOCALES.find((locale) => locale.toLowerCase().split("-")[0] === language) ?? null;
}

/** The locale a language tag falls into (`es-MX` → es), or the default: what a tag from elsewhere is written in. */
export const closestLocale = (tag: string): Locale => localeForTag(tag) ?? DEFAULT_LOCALE;

/**
 * The best of our locales for an `Accept-Language` header, honouring q-values (RFC 9110 §12.5.4);
 * the default when nothing matches.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const ranked = acceptLanguage
    .split(",")
    .slice(0, 50)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.q > 0 && Number.isFinite(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = localeForTag(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
