import type { Locale } from "~/lib/i18n.ts";
import { enServer, type ServerDictionary } from "./en.server.ts";
import { esServer } from "./es.server.ts";
import { ptBRServer } from "./pt-BR.server.ts";

export type { ServerDictionary } from "./en.server.ts";

/**
 * The strings only the server writes (the report PDF, the e-mails) per locale, beside the page
 * dictionaries of dictionaries.ts and keyed by the same list: a language added to `LOCALES` fails
 * `tsc` here until it has them, rather than printing English (ADR 62). A `.server` module, so no
 * page can import it and make browsers download them.
 */
const serverDictionaries: Record<Locale, ServerDictionary> = { en: enServer, es: esServer, "pt-BR": ptBRServer };

/** The server strings of a locale, read as pages read theirs: `serverTranslations(locale).mail.invitation.subject(organization)`. */
export function serverTranslations(locale: Locale): ServerDictionary {
  return serverDictionaries[locale];
}
