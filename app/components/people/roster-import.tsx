import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { paths } from "~/lib/paths.ts";
import { Alert } from "../alert.tsx";
import { Button } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { Field } from "../field.tsx";
import { type PageResult, pageFormOptions } from "../page-form.ts";
import { PageHeader } from "../page-header.tsx";
import { BackLink } from "./person-detail.tsx";
import type { PersonKind } from "./status-badge.tsx";

type Preview = { rows: number; valid: number; errors: { row: number; field: string; message: string }[] };
export type RosterImportAnswer = { result: PageResult } | { preview: Preview; csv: string } | undefined;

/** Import a class list: choose the file, see what it holds and what is wrong, then import it all. */
export function RosterImportPage({ kind, validation, answer }: { kind: PersonKind; validation: ClientValidation<"file">; answer: RosterImportAnswer }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { form, fields } = useForm(pageFormOptions(validation, answer && "result" in answer ? answer.result : undefined));
  const preview = answer && "preview" in answer ? answer : null;
  const listPath = kind === "students" ? paths.students(locale) : paths.candidates(locale);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to={listPath} />
      <PageHeader title={t.rosterImport.title(t[kind].title.toLowerCase())} description={t.rosterImport.intro} />
      <Form
        method="post"
        encType="multipart/form-data"
        className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-end sm:p-6"
        {...form.props}
      >
        <CsrfInput />
        <Field
          label={t.rosterImport.file}
          id="file"
          name={fields.file.name}
          type="file"
          accept=".csv,text/csv"
          required
          error={fields.file.errors}
          className="min-w-0 flex-1"
        />
        <Button type="submit" name="intent" value="check" variant="secondary" pendingText={t.rosterImport.checking}>
          {t.rosterImport.check}
        </Button>
      </Form>
      {preview ? (
        <section aria-labelledby="import-preview" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
          <h2 id="import-preview" className="font-semibold text-slate-900">
            {t.rosterImport.summary(format.number(preview.preview.rows), format.number(preview.preview.valid))}
          </h2>
          {preview.preview.errors.length > 0 ? (
            <>
              <Alert tone="error" title={t.rosterImport.problemsTitle} />
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <thead className="border-b border-slate-200 text-slate-700">
                    <tr>
                      <th scope="col" className="py-2 pr-4 font-semibold">
                        {t.rosterImport.row}
                      </th>
                      <th scope="col" className="py-2 pr-4 font-semibold">
                        {t.rosterImport.column}
                      </th>
                      <th scope="col" className="py-2 font-semibold">
                        {t.rosterImport.problem}
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200">
                    {preview.preview.errors.slice(0, 200).map((error) => (
                      <tr key={`${error.row}-${error.field}`}>
                        <td className="py-2 pr-4 tabular-nums">{format.number(error.row)}</td>
                        <td className="py-2 pr-4 font-mono">{error.field}</td>
                        <td className="py-2">{error.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          ) : (
            <Form method="post" encType="multipart/form-data">
              <CsrfInput />
              <input type="hidden" name="csv" value={preview.csv} />
              <Button type="submit" name="intent" value="import" variant="primary" pendingText={t.rosterImport.importing}>
                {t.rosterImport.importAll(format.number(preview.preview.valid))}
              </Button>
            </Form>
          )}
        </section>
      ) : null}
    </div>
  );
}
