import type { OrganizationKind } from "~/features/organization/organization-kinds.ts";
import { LOCALES, type Locale } from "~/lib/i18n.ts";
import type { Dictionary } from "./en.ts";
import { withOverrides } from "./overrides.ts";

export type { Dictionary } from "./en.ts";

/** A language's page strings for each kind of organization: a clinic's are the school's with its few words in place (ADR 81). */
type Words = Record<OrganizationKind, Dictionary>;

/**
 * Every page string, per locale, each dictionary a module of its own with the clinic's words
 * beside it. A browser loads the page's language only (about 17 KB compressed each): before the
 * page hydrates (app/entry.client.tsx) and before a navigation to a page in another language
 * renders (the root's client middleware). The server has all three from the start, so loaders,
 * actions and meta functions read them at once.
 */
const importers: Record<Locale, () => Promise<Words>> = {
  en: () => import("./en.ts").then((module) => ({ SCHOOL: module.en, CLINIC: withOverrides(module.en, module.enClinic) })),
  es: () => import("./es.ts").then((module) => ({ SCHOOL: module.es, CLINIC: withOverrides(module.es, module.esClinic) })),
  "pt-BR": () => import("./pt-BR.ts").then((module) => ({ SCHOOL: module.ptBR, CLINIC: withOverrides(module.ptBR, module.ptBRClinic) })),
};

const loaded: Partial<Record<Locale, Words>> = {};
const loading = new Map<Locale, Promise<Words>>();

/** The dictionaries of a locale, fetched once. */
export function loadDictionary(locale: Locale): Promise<Words> {
  let pending = loading.get(locale);
  if (!pending) {
    pending = importers[locale]().then((words) => (loaded[locale] = words));
    loading.set(locale, pending);
  }
  return pending;
}

if (typeof window === "undefined") await Promise.all(LOCALES.map(loadDictionary));

/**
 * The page strings of a locale as an organization of `kind` says them, for loaders, actions and
 * meta functions (components use useT(), which knows the kind).
 */
export function translations(locale: Locale, kind: OrganizationKind): Dictionary {
  const words = loaded[locale];
  if (!words) throw new Error(`The page strings of ${locale} are not loaded.`);
  return words[kind];
}

/** "Title · Assessment Service", the document title of every page. */
export const documentTitle = (t: Dictionary, title: string) => `${title} · ${t.app.name}`;
