import type { Locale } from "~/lib/i18n.ts";
import { en, type Dictionary } from "./en.ts";
import { es } from "./es.ts";
import { ptBR } from "./pt-BR.ts";

export type { Dictionary } from "./en.ts";

/**
 * Every page string, per locale. All three ship with the client bundle (a few kilobytes), so a
 * component can translate without a loader and switching language needs no extra request.
 */
export const dictionaries: Record<Locale, Dictionary> = { en, es, "pt-BR": ptBR };

/** The dictionary of a locale, for loaders, actions and meta functions (components use useT()). */
export const translations = (locale: Locale): Dictionary => dictionaries[locale];

/** "Title · Assessment Service", the document title of every page. */
export const documentTitle = (locale: Locale, title: string) => `${title} · ${dictionaries[locale].app.name}`;
