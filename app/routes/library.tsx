import { Link } from "react-router";
import type { Route } from "./+types/library";
import { PageHeader } from "~/components/page-header.tsx";
import { listInstruments } from "~/features/instruments/instruments.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { LOCALE_NAMES, resolveLocale } from "~/lib/i18n.ts";
import { staffPageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/** The instrument library (docs/api-contract.md §17): every instrument, each leading to its details and its install. */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.library.title) }];
};

export function loader({ context, params }: Route.LoaderArgs) {
  staffPageActor(context);
  const { instruments } = listInstruments(resolveLocale(params.locale));
  return {
    instruments: instruments.map(({ key, name, description, version, languages, licence, items }) => ({
      key,
      name,
      description,
      version,
      languages,
      licence,
      itemCount: items.length,
    })),
  };
}

export default function Library({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  return (
    <div className="space-y-6">
      <PageHeader title={t.library.title} description={t.library.description} />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {loaderData.instruments.map((instrument) => (
          <li key={instrument.key} className="flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <h2 className="font-semibold text-slate-900">{instrument.name}</h2>
            <p className="mt-1 text-sm text-slate-700">{instrument.description}</p>
            <dl className="mt-3 space-y-1 text-sm">
              <div className="flex gap-1">
                <dt className="sr-only">{t.library.items}</dt>
                <dd className="text-slate-700">
                  {t.library.itemCount(format.number(instrument.itemCount))} · {t.library.version(instrument.version)}
                </dd>
              </div>
              <div className="flex flex-wrap gap-1">
                <dt className="font-medium text-slate-900">{t.library.languages}:</dt>
                <dd className="text-slate-700">{instrument.languages.map((language) => LOCALE_NAMES[language]).join(", ")}</dd>
              </div>
              <div>
                <dt className="font-medium text-slate-900">{t.library.licence}:</dt>
                <dd className="line-clamp-3 text-slate-700">{instrument.licence}</dd>
              </div>
            </dl>
            <p className="mt-auto pt-4">
              <Link
                to={paths.libraryInstrument(locale, instrument.key)}
                aria-label={t.library.openNamed(instrument.name)}
                className="text-sm font-medium text-indigo-700 hover:underline"
              >
                {t.library.open}
              </Link>
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
