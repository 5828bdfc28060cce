import { createContext, useContext, useMemo } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import type { rootLoader } from "~/lib/root-loader.server.ts";
import { localeFromPath, type Locale } from "~/lib/i18n.ts";
import { DEFAULT_ORGANIZATION_KIND, type OrganizationKind } from "~/features/organization/organization-kinds.ts";
import { type Dictionary, translations } from "./dictionaries.ts";
import { createFormat, type Format } from "./format.ts";
import { type TotalFields, type TotalText, totalText } from "~/features/scoring/score-display.ts";

/**
 * The page's language comes from its URL (`/es/...`), so every component can ask for it, error
 * boundaries included, without a loader.
 */
export function useLocale(): Locale {
  return localeFromPath(useLocation().pathname);
}

/**
 * The organization a page speaks for when it is not the signed-in one's: the test link's, whose
 * respondent has no session (app/routes/test.tsx).
 */
export const OrganizationKindContext = createContext<OrganizationKind | null>(null);

/** School or clinic words (ADR 81): the page's own organization, else the signed-in one's, else the default. */
export function useOrganizationKind(): OrganizationKind {
  const own = useContext(OrganizationKindContext);
  const signedIn = useRouteLoaderData<typeof rootLoader>("root")?.organizationKind;
  return own ?? signedIn ?? DEFAULT_ORGANIZATION_KIND;
}

/** The dictionary of the page's language and organization: `const t = useT(); t.nav.home; t.home.welcome(name)`. */
export function useT(): Dictionary {
  return translations(useLocale(), useOrganizationKind());
}

/** Date and number formatting for the page's language and the signed-in organization's time zone. */
export function useFormat(): Format {
  const locale = useLocale();
  const timeZone = useRouteLoaderData<typeof rootLoader>("root")?.timeZone ?? "UTC";
  return useMemo(() => createFormat(locale, timeZone), [locale, timeZone]);
}

/** How a result's total reads on this page (RAW "9 / 27" or PERCENT "33.3%"; ADR 79). */
export function useTotalText(): (result: TotalFields) => TotalText {
  const t = useT();
  const format = useFormat();
  return (result) => totalText(result, { number: (value) => format.number(value), percent: format.percent, of: t.score.of, outOf: t.score.outOf });
}
