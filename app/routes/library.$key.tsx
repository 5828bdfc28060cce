import { useForm } from "@conform-to/react/future";
import { Form, Link } from "react-router";
import type { Route } from "./+types/library.$key";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { Field, Select } from "~/components/field.tsx";
import { ScaleContentView } from "~/components/instruments/scale-content.tsx";
import { type PageResult, pageFormOptions } from "~/components/page-form.ts";
import { PageHeader, Section } from "~/components/page-header.tsx";
import { installInstrumentBody, listInstrumentsQuery } from "~/features/instruments/instrument-schemas.ts";
import { presentInstrument } from "~/features/instruments/instruments.server.ts";
import { installPost } from "~/features/instruments/library-page.server.ts";
import { instrumentByKey } from "~/features/instruments/library.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { pageQuery } from "~/lib/http.server.ts";
import { LOCALE_NAMES, resolveLocale } from "~/lib/i18n.ts";
import { pageError, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * One instrument of the library: its citation, licence and scoring, its items in one of its
 * languages (`?language=`, by default the page's when the instrument has it), and the form that
 * installs it as a new form of the caller's (docs/api-contract.md §17).
 */
export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData?.instrument.name ?? t.library.title) }];
};

function definitionOf(key: string) {
  const definition = instrumentByKey(key);
  if (!definition) throw pageError(404);
  return definition;
}

export function loader({ context, params, request }: Route.LoaderArgs) {
  staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const definition = definitionOf(params.key);
  // A language the page cannot use (a hand-edited address) is the page's own.
  const asked = listInstrumentsQuery.safeParse(pageQuery(request, ["language"]));
  const requested = (asked.success ? asked.data.language : undefined) ?? locale;
  return {
    instrument: presentInstrument(definition, requested),
    changeSource: definition.changeSource ?? null,
    requested,
    validation: clientValidation(installInstrumentBody, pageTranslations(context, locale)),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  return installPost(request, actor, resolveLocale(params.locale), definitionOf(params.key).key);
}

export default function LibraryInstrument({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { instrument, requested } = loaderData;
  const languageOptions = instrument.languages.map((language) => ({ value: language, label: LOCALE_NAMES[language] }));
  return (
    <div className="space-y-6">
      <p>
        <Link to={paths.library(locale)} className="text-sm font-medium text-indigo-700 hover:underline">
          ← {t.library.back}
        </Link>
      </p>
      <PageHeader
        title={instrument.name}
        description={
          <>
            {instrument.description} {t.library.itemCount(format.number(instrument.items.length))} · {t.library.version(instrument.version)}
          </>
        }
      />

      <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <dl className="space-y-3 px-4 py-4 text-sm sm:px-5">
          <div>
            <dt className="font-medium text-slate-900">{t.library.citation}</dt>
            <dd className="text-slate-700">{instrument.citation}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-900">{t.library.licence}</dt>
            <dd className="text-slate-700">{instrument.licence}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-900">{t.library.languages}</dt>
            <dd className="text-slate-700">{instrument.languages.map((language) => LOCALE_NAMES[language]).join(", ")}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-900">{t.library.scoringSource}</dt>
            <dd>
              <a href={instrument.scoring.source} className="break-all text-indigo-700 hover:underline" rel="noreferrer">
                {instrument.scoring.source}
              </a>
            </dd>
          </div>
        </dl>
      </div>

      {/* Keyed by the language shown: a new language (a GET with JavaScript) starts the form afresh. */}
      <InstallForm key={instrument.language} instrument={instrument} validation={loaderData.validation} result={actionData?.result} />

      <div className="space-y-3">
        {instrument.languages.length > 1 ? (
          <Form method="get" className="flex flex-wrap items-end gap-3">
            <Select
              key={instrument.language}
              label={t.library.showIn}
              id="preview-language"
              name="language"
              defaultValue={instrument.language}
              options={languageOptions}
            />
            <Button type="submit" variant="secondary">
              {t.library.show}
            </Button>
          </Form>
        ) : null}
        {instrument.language === requested ? null : <p className="text-sm text-slate-700">{t.library.notGivenIn(LOCALE_NAMES[requested])}</p>}
        <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <h2 className="font-semibold text-slate-900">{t.library.instructions}</h2>
          <p className="mt-1 text-slate-700" lang={instrument.language}>
            {instrument.instructions}
          </p>
        </div>
      </div>

      <ScaleContentView
        id="instrument"
        lang={instrument.language}
        content={{
          questions: instrument.items,
          scoreRanges: instrument.scoring.scoreRanges,
          subscales: instrument.scoring.subscales,
          scoring: instrument.scoring,
          change: {
            reliableChange: instrument.reliableChange,
            remissionBelow: instrument.remissionBelow,
            lowerIsBetter: instrument.lowerIsBetter,
            source: loaderData.changeSource,
          },
        }}
      />
    </div>
  );
}

/** "Install as a form": its language (the one shown by default) and an optional title. */
function InstallForm({
  instrument,
  validation,
  result,
}: {
  instrument: Route.ComponentProps["loaderData"]["instrument"];
  validation: Route.ComponentProps["loaderData"]["validation"];
  result: PageResult | undefined;
}) {
  const t = useT();
  const { form, fields } = useForm(pageFormOptions(validation, result, { language: instrument.language }));
  const languageOptions = instrument.languages.map((language) => ({ value: language, label: LOCALE_NAMES[language] }));
  return (
    <Section id="install" title={t.library.installTitle} description={t.library.installText}>
      <Form method="post" className="space-y-4 px-4 py-4 sm:px-5" {...form.props}>
        <CsrfInput />
        <ErrorSummary form={form} fields={["language", "title"]} label={(name) => (name === "language" ? t.library.installLanguage : t.library.formTitle)} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Select
            label={t.library.installLanguage}
            id="language"
            name={fields.language.name}
            defaultValue={fields.language.defaultValue ?? instrument.language}
            error={fields.language.errors}
            options={languageOptions}
          />
          <Field
            label={t.library.formTitle}
            description={t.library.formTitleHint(instrument.name)}
            id="title"
            name={fields.title.name}
            defaultValue={fields.title.defaultValue}
            error={fields.title.errors}
            maxLength={200}
            autoComplete="off"
          />
        </div>
        <Button type="submit" variant="primary" pendingText={t.library.installing}>
          {t.library.install}
        </Button>
      </Form>
    </Section>
  );
}
