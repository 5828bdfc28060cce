import { useForm } from "@conform-to/react/future";
import { Form, Link } from "react-router";
import type { InstalledFormEditor } from "~/features/instruments/installed-form-page.server.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { LOCALE_NAMES } from "~/lib/i18n.ts";
import { paths } from "~/lib/paths.ts";
import { Button } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { ErrorSummary } from "../error-summary.tsx";
import { Field, TextArea } from "../field.tsx";
import { type PageResult, pageFormOptions } from "../page-form.ts";
import { Section } from "../page-header.tsx";
import { ScaleContentView } from "./scale-content.tsx";

/**
 * The editor of a form installed from the instrument library, in place of the form editor: which
 * instrument it is and under what licence, its title, description and critical message to change,
 * and its items and scoring to read (docs/api-contract.md §17).
 */
export function InstalledForm({ editor, result }: { editor: InstalledFormEditor; result: PageResult | undefined }) {
  const t = useT();
  const locale = useLocale();
  const { notice } = editor;
  const { form, fields } = useForm(pageFormOptions(editor.validation, result, editor.defaults));
  const labels: Record<string, string> = {
    title: t.forms.fields.title,
    description: t.forms.fields.description,
    criticalMessage: t.library.criticalMessage,
  };
  return (
    <div className="space-y-6">
      <div role="note" aria-labelledby="instrument-notice" className="rounded-md border border-indigo-200 bg-indigo-50 p-4 text-indigo-950">
        <p id="instrument-notice" className="font-semibold">
          {t.library.locked.title}
        </p>
        <p className="mt-1 text-sm">{t.library.locked.text(notice.name, notice.version, LOCALE_NAMES[notice.language])}</p>
        {notice.licence ? <p className="mt-1 text-sm">{t.library.locked.licence(notice.licence)}</p> : null}
        {notice.inLibrary ? (
          <p className="mt-2 text-sm">
            <Link to={`${paths.libraryInstrument(locale, notice.key)}?language=${notice.language}`} className="font-medium text-indigo-800 underline">
              {t.library.locked.inLibrary(notice.name)}
            </Link>
          </p>
        ) : null}
      </div>

      <Section id="instrument-details" title={t.library.locked.details}>
        <Form method="post" className="space-y-5 px-4 py-4 sm:px-5" {...form.props}>
          <CsrfInput />
          <ErrorSummary form={form} fields={["title", "description", "criticalMessage"]} label={(name) => labels[name]} />
          <Field
            label={labels.title}
            id="title"
            name={fields.title.name}
            defaultValue={fields.title.defaultValue}
            error={fields.title.errors}
            required
            maxLength={200}
          />
          <TextArea
            label={labels.description}
            id="description"
            name={fields.description.name}
            defaultValue={fields.description.defaultValue}
            error={fields.description.errors}
            rows={3}
          />
          <TextArea
            label={labels.criticalMessage}
            description={t.library.locked.criticalMessageHint}
            id="criticalMessage"
            name={fields.criticalMessage.name}
            defaultValue={fields.criticalMessage.defaultValue}
            error={fields.criticalMessage.errors}
            rows={4}
          />
          <Button type="submit" name="intent" value="details" variant="primary" pendingText={t.common.saving}>
            {t.common.save}
          </Button>
        </Form>
      </Section>

      <h2 className="text-lg font-semibold text-slate-900">{t.library.locked.content}</h2>
      <ScaleContentView id="installed" content={editor.content} lang={notice.language} />
    </div>
  );
}
