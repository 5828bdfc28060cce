import type { OrganizationKind } from "~/features/organization/organization-kinds.ts";
import type { Locale } from "~/lib/i18n.ts";
import { enServer, enServerClinic, type ServerDictionary } from "./en.server.ts";
import { esServer, esServerClinic } from "./es.server.ts";
import { withOverrides } from "./overrides.ts";
import { ptBRServer, ptBRServerClinic } from "./pt-BR.server.ts";

export type { ServerDictionary } from "./en.server.ts";

/**
 * The strings only the server writes (the report PDF, the e-mails) per locale and organization
 * kind, beside the page dictionaries of dictionaries.ts and keyed by the same list: a language
 * added to `LOCALES` fails `tsc` here until it has them, rather than printing English (ADR 62). A
 * clinic's are the school's with its few words in place (ADR 81). A `.server` module, so no page
 * can import it and make browsers download them.
 */
const serverDictionaries: Record<Locale, Record<OrganizationKind, ServerDictionary>> = {
  en: { SCHOOL: enServer, CLINIC: withOverrides(enServer, enServerClinic) },
  es: { SCHOOL: esServer, CLINIC: withOverrides(esServer, esServerClinic) },
  "pt-BR": { SCHOOL: ptBRServer, CLINIC: withOverrides(ptBRServer, ptBRServerClinic) },
};

/** The server strings of a locale, read as pages read theirs: `serverTranslations(locale, kind).mail.invitation.subject(organization)`. */
export function serverTranslations(locale: Locale, kind: OrganizationKind): ServerDictionary {
  return serverDictionaries[locale][kind];
}
