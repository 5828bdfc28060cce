import type { Dictionary } from "../../app/i18n/dictionaries.ts";
import { en } from "../../app/i18n/en.ts";
import { es } from "../../app/i18n/es.ts";
import { ptBR } from "../../app/i18n/pt-BR.ts";
import type { Locale } from "../../app/lib/i18n.ts";

/** Every language's page strings at once, as tests compare them (the app loads them one by one). */
export const dictionaries: Record<Locale, Dictionary> = { en, es, "pt-BR": ptBR };
