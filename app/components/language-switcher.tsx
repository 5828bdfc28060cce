import { Link, useLocation } from "react-router";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { LOCALE_NAMES, LOCALES, pathInLocale } from "~/lib/i18n.ts";
import { cx } from "./cx.ts";
import { Disclosure } from "./disclosure.tsx";
import { ChevronDownIcon, GlobeIcon } from "./icons.tsx";

/**
 * Links to the same page in the other languages (plain links: no JavaScript needed). Following
 * one is the switch: the locale route remembers the language of the page being read in the
 * `locale` cookie, so `/` opens in it next time.
 *
 * `variant="list"` (default) shows the languages side by side — drop it into any page header,
 * the sign-in page's included: `<LanguageSwitcher />`. `variant="menu"` folds them into a
 * dropdown for crowded headers.
 */
export function LanguageSwitcher({ variant = "list", className }: { variant?: "list" | "menu"; className?: string }) {
  const t = useT();
  const current = useLocale();
  const { pathname, search } = useLocation();
  const links = LOCALES.map((locale) => ({ locale, href: pathInLocale(pathname, search, locale), name: LOCALE_NAMES[locale] }));

  if (variant === "menu") {
    return (
      <Disclosure
        className={cx("relative", className)}
        summaryClassName="flex min-h-10 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
        summary={
          <>
            <GlobeIcon className="size-5 text-slate-500" />
            <span className="sr-only">
              {t.language.label}: {LOCALE_NAMES[current]}
            </span>
            <span aria-hidden="true">{current.split("-")[0]!.toUpperCase()}</span>
            <ChevronDownIcon className="size-4 text-slate-500 group-open:rotate-180" />
          </>
        }
        panelClassName="absolute right-0 z-40 mt-2 w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
      >
        <nav aria-label={t.language.label}>
          <ul>
            {links.map((link) => (
              <li key={link.locale}>
                <Link
                  to={link.href}
                  lang={link.locale}
                  hrefLang={link.locale}
                  aria-current={link.locale === current ? "true" : undefined}
                  className="flex min-h-10 items-center justify-between rounded-md px-3 text-sm text-slate-800 hover:bg-slate-100 aria-[current]:font-semibold aria-[current]:text-indigo-800"
                >
                  {link.name}
                  {link.locale === current ? <span aria-hidden="true">✓</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </Disclosure>
    );
  }

  return (
    <nav aria-label={t.language.label} className={className}>
      <ul className="flex flex-wrap items-center gap-1 text-sm">
        <li aria-hidden="true" className="pr-1 text-slate-500">
          <GlobeIcon className="size-4" />
        </li>
        {links.map((link) => (
          <li key={link.locale}>
            <Link
              to={link.href}
              lang={link.locale}
              hrefLang={link.locale}
              aria-current={link.locale === current ? "true" : undefined}
              className={cx(
                "inline-flex min-h-8 items-center rounded-md px-2 font-medium",
                link.locale === current ? "bg-slate-100 text-slate-900" : "text-indigo-700 underline-offset-2 hover:bg-slate-100 hover:underline",
              )}
            >
              {link.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
