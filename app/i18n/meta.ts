import { DEFAULT_ORGANIZATION_KIND, type OrganizationKind } from "~/features/organization/organization-kinds.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { type Dictionary, translations } from "./dictionaries.ts";

type MetaArgs = { params: { locale?: string }; matches: readonly ({ id: string; loaderData: unknown } | undefined)[] };

/**
 * The dictionary a meta function writes the document title with: the page's language, and the
 * signed-in organization's kind as the root's loader gave it (ADR 81), on the server and in the
 * browser alike.
 */
export function metaTranslations({ params, matches }: MetaArgs): Dictionary {
  const root = matches.find((match) => match?.id === "root")?.loaderData as { organizationKind?: OrganizationKind } | undefined;
  return translations(resolveLocale(params.locale), root?.organizationKind ?? DEFAULT_ORGANIZATION_KIND);
}
