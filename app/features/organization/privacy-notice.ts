import { DEFAULT_LOCALE, LOCALES, type Locale } from "~/lib/i18n.ts";

/**
 * An organization's privacy notice (docs/api-contract.md §21, ADR 89): one text for every language,
 * or one per language. The organization has no language of its own, so a language it left out
 * reads its default: English when given, else the first language given in the order the pages
 * list them.
 */
export const PRIVACY_NOTICE_MAX = 5_000;

export type PrivacyNotice = string | Partial<Record<Locale, string>>;

/** The notice as stored: each text trimmed, empty ones dropped; null when nothing is left. */
export function storedPrivacyNotice(input: PrivacyNotice | null): PrivacyNotice | null {
  if (input === null) return null;
  if (typeof input === "string") return input.trim() || null;
  const texts: Partial<Record<Locale, string>> = {};
  for (const locale of LOCALES) {
    const text = input[locale]?.trim();
    if (text) texts[locale] = text;
  }
  return Object.keys(texts).length > 0 ? texts : null;
}

/** The stored JSON read back, parsed: anything that is not a notice reads as none. */
export function readPrivacyNotice(json: unknown): PrivacyNotice | null {
  if (typeof json === "string") return json || null;
  if (!json || typeof json !== "object" || Array.isArray(json)) return null;
  const texts: Partial<Record<Locale, string>> = {};
  for (const locale of LOCALES) {
    const text = (json as Record<string, unknown>)[locale];
    if (typeof text === "string" && text) texts[locale] = text;
  }
  return Object.keys(texts).length > 0 ? texts : null;
}

/** What a respondent reading `locale` is shown: their language's text, else the organization's default; null for none. */
export function privacyNoticeIn(notice: PrivacyNotice | null, locale: Locale): string | null {
  if (notice === null || typeof notice === "string") return notice;
  return notice[locale] ?? notice[DEFAULT_LOCALE] ?? LOCALES.map((other) => notice[other]).find((text) => text !== undefined) ?? null;
}
