import { LOCALES, type Locale } from "~/lib/i18n.ts";
import type { Dictionary } from "./en.ts";

export type { Dictionary } from "./en.ts";

/**
 * Every page string, per locale, each dictionary a module of its own. A browser loads the page's
 * language only (about 17 KB compressed each): before the page hydrates (app/entry.client.tsx) and
 * before a navigation to a page in another language renders (the root's client middleware). The
 * server has all three from the start, so loaders, actions and meta functions read them at once.
 */
const importers: Record<Locale, () => Promise<Dictionary>> = {
  en: () => import("./en.ts").then((module) => module.en),
  es: () => import("./es.ts").then((module) => module.es),
  "pt-BR": () => import("./pt-BR.ts").then((module) => module.ptBR),
};

const loaded: Partial<Record<Locale, Dictionary>> = {};
const loading = new Map<Locale, Promise<Dictionary>>();

/** The dictionary of a locale, fetched once. */
export function loadDictionary(locale: Locale): Promise<Dictionary> {
  let pending = loading.get(locale);
  if (!pending) {
    pending = importers[locale]().then((dictionary) => (loaded[locale] = dictionary));
    loading.set(locale, pending);
  }
  return pending;
}

if (typeof window === "undefined") await Promise.all(LOCALES.map(loadDictionary));

/** The dictionary of a locale, for loaders, actions and meta functions (components use useT()). */
export function translations(locale: Locale): Dictionary {
  const dictionary = loaded[locale];
  if (!dictionary) throw new Error(`The page strings of ${locale} are not loaded.`);
  return dictionary;
}

/** "Title · Assessment Service", the document title of every page. */
export const documentTitle = (locale: Locale, title: string) => `${title} · ${translations(locale).app.name}`;
