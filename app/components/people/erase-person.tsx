import { useForm } from "@conform-to/react/future";
import { Form, Link } from "react-router";
import { ERASURE_MODES } from "~/features/people/erasure-modes.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { paths } from "~/lib/paths.ts";
import { Alert } from "../alert.tsx";
import { Button, LinkButton } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { ErrorSummary } from "../error-summary.tsx";
import { Field, Radio } from "../field.tsx";
import { type PageResult, pageFormOptions } from "../page-form.ts";
import { PageHeader, Section } from "../page-header.tsx";
import type { PersonKind } from "./status-badge.tsx";

export type ErasurePreview = {
  id: string;
  name: string;
  hasLogin: boolean;
  alsoRecorded: boolean;
  submissions: number;
  answers: number;
  drafts: number;
};

/**
 * The erasure page (docs/api-contract.md §21): what is stored and goes, the two ways to erase
 * explained, and the person's name typed to confirm. A plain form: it works without JavaScript.
 */
export function ErasePerson({
  kind,
  preview,
  validation,
  result,
}: {
  kind: PersonKind;
  preview: ErasurePreview;
  validation: ClientValidation<"mode" | "confirm">;
  result: PageResult | null | undefined;
}) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const words = t.people.dataProtection;
  const { form, fields } = useForm(pageFormOptions(validation, result));
  const back = kind === "students" ? paths.student(locale, preview.id) : paths.candidate(locale, preview.id);
  const counts: [string, number][] = [
    [words.submissions, preview.submissions],
    [words.answers, preview.answers],
    [words.drafts, preview.drafts],
  ];
  const modes = { ANONYMISE: [words.anonymise, words.anonymiseHint], DELETE: [words.delete, words.deleteHint] } as const;
  const labels: Record<string, string> = { mode: words.mode, confirm: t.people.name };
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <p>
        <Link to={back} className="text-sm font-medium text-indigo-700 hover:underline">
          ← {preview.name}
        </Link>
      </p>
      <PageHeader title={words.eraseTitle(preview.name)} />
      <Alert tone="warning" title={words.eraseWarning}>
        <a href={paths.personData(kind === "students" ? "student" : "candidate", preview.id)} download className="font-medium underline">
          {words.download}
        </a>
      </Alert>
      <Section id="stored" title={words.stored}>
        <dl className="divide-y divide-slate-200">
          {counts.map(([label, count]) => (
            <div key={label} className="grid grid-cols-3 gap-3 px-4 py-3 text-sm sm:px-5">
              <dt className="col-span-2 font-medium text-slate-700">{label}</dt>
              <dd className="text-slate-900">{format.number(count)}</dd>
            </div>
          ))}
        </dl>
        {preview.hasLogin || preview.alsoRecorded ? (
          <ul className="space-y-1 border-t border-slate-200 px-4 py-3 text-sm text-slate-700 sm:px-5">
            {preview.hasLogin ? <li>{words.hasLogin}</li> : null}
            {preview.alsoRecorded ? <li>{words.alsoRecorded}</li> : null}
          </ul>
        ) : null}
      </Section>
      <Form method="post" className="space-y-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" {...form.props}>
        <CsrfInput />
        <ErrorSummary form={form} fields={["mode", "confirm"]} label={(name) => labels[name]} target={(name) => (name === "mode" ? "mode-ANONYMISE" : name)} />
        <fieldset aria-describedby={fields.mode.errors ? "mode-error" : undefined}>
          <legend className="text-sm font-medium text-slate-900">{words.mode}</legend>
          <div className="mt-2 space-y-3">
            {ERASURE_MODES.map((mode) => (
              <Radio
                key={mode}
                id={`mode-${mode}`}
                name={fields.mode.name}
                value={mode}
                label={modes[mode][0]}
                description={modes[mode][1]}
                defaultChecked={fields.mode.defaultValue === mode}
                required
              />
            ))}
          </div>
          {fields.mode.errors ? (
            <p id="mode-error" className="mt-1.5 text-sm font-medium text-red-700">
              {fields.mode.errors[0]}
            </p>
          ) : null}
        </fieldset>
        <Field
          label={words.confirm(preview.name)}
          id="confirm"
          name={fields.confirm.name}
          defaultValue={fields.confirm.defaultValue}
          error={fields.confirm.errors}
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={200}
        />
        <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-5">
          <Button type="submit" variant="danger" pendingText={words.erasing}>
            {words.submit}
          </Button>
          <LinkButton to={back} variant="secondary">
            {t.people.cancel}
          </LinkButton>
        </div>
      </Form>
    </div>
  );
}
