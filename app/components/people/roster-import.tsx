import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { paths } from "~/lib/paths.ts";
import { Alert } from "../alert.tsx";
import { Button } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { Checkbox, Field } from "../field.tsx";
import { type PageResult, pageFormOptions } from "../page-form.ts";
import { PageHeader } from "../page-header.tsx";
import { BackLink } from "./person-detail.tsx";
import type { PersonKind } from "./status-badge.tsx";

type Action = "created" | "updated" | "unchanged";
type PreviewRow = {
  row: number;
  name: string;
  email: string | null;
  externalId: string | null;
  group: string | null;
  action: Action;
  changes: string[];
};
type Preview = {
  mode: "create" | "upsert";
  encoding: "utf-8" | "windows-1252";
  rows: number;
  valid: number;
  created: number;
  updated: number;
  unchanged: number;
  groupsCreated: number;
  errors: { row: number; field: string; message: string }[];
  shown: PreviewRow[];
};
export type RosterImportAnswer = { result: PageResult } | { preview: Preview; csv: string } | undefined;

const cell = "py-2 pr-4";
const head = "py-2 pr-4 font-semibold";

/**
 * Import a class list: choose the file (and whether rows update the people already here), see
 * every row as it will be stored and what it does, or what is wrong, then import it all.
 */
export function RosterImportPage({ kind, validation, answer }: { kind: PersonKind; validation: ClientValidation<"file">; answer: RosterImportAnswer }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { form, fields } = useForm(pageFormOptions(validation, answer && "result" in answer ? answer.result : undefined));
  const checked = answer && "preview" in answer ? answer : null;
  const preview = checked?.preview;
  const listPath = kind === "students" ? paths.students(locale) : paths.candidates(locale);
  const label = (column: string) => (column === "group" ? t.rosterImport.group : (t.people[column as "name"] ?? column));
  const whatHappens = (row: PreviewRow) =>
    row.action === "created"
      ? t.rosterImport.actions.created
      : row.action === "unchanged"
        ? t.rosterImport.actions.unchanged
        : t.rosterImport.actions.updated(format.list(row.changes.map((column) => label(column).toLocaleLowerCase(locale))));
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <BackLink to={listPath} />
      <PageHeader title={t.rosterImport.title(t[kind].title.toLowerCase())} description={t.rosterImport.intro} />
      <Form method="post" encType="multipart/form-data" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" {...form.props}>
        <CsrfInput />
        <Field label={t.rosterImport.file} id="file" name={fields.file.name} type="file" accept=".csv,text/csv" required error={fields.file.errors} />
        <Checkbox
          label={t.rosterImport.updateExisting}
          description={t.rosterImport.updateExistingHint}
          id="mode"
          name="mode"
          value="upsert"
          defaultChecked={preview?.mode === "upsert"}
        />
        <Button type="submit" name="intent" value="check" variant="secondary" pendingText={t.rosterImport.checking}>
          {t.rosterImport.check}
        </Button>
      </Form>
      {checked && preview ? (
        <section aria-labelledby="import-preview" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
          <h2 id="import-preview" className="font-semibold text-slate-900">
            {t.rosterImport.summary(format.number(preview.rows), format.number(preview.valid))}
          </h2>
          <p className="text-sm text-slate-700" id="import-encoding">
            {preview.encoding === "windows-1252" ? t.rosterImport.encodingWindows1252 : t.rosterImport.encodingUtf8}
          </p>
          {preview.errors.length > 0 ? (
            <>
              <Alert tone="error" title={t.rosterImport.problemsTitle} />
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm" id="import-problems">
                  <thead className="border-b border-slate-200 text-slate-700">
                    <tr>
                      <th scope="col" className={head}>
                        {t.rosterImport.row}
                      </th>
                      <th scope="col" className={head}>
                        {t.rosterImport.column}
                      </th>
                      <th scope="col" className="py-2 font-semibold">
                        {t.rosterImport.problem}
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200">
                    {preview.errors.slice(0, 200).map((error) => (
                      <tr key={`${error.row}-${error.field}`}>
                        <td className={`${cell} tabular-nums`}>{format.number(error.row)}</td>
                        <td className={`${cell} font-mono`}>{error.field}</td>
                        <td className="py-2">{error.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          ) : (
            <>
              <p className="text-sm text-slate-900" id="import-counts">
                {t.rosterImport.counts(
                  format.number(preview.created),
                  format.number(preview.updated),
                  format.number(preview.unchanged),
                  format.number(preview.groupsCreated),
                )}
              </p>
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm" id="import-rows">
                  <caption className="pb-2 text-left font-medium text-slate-900">
                    {t.rosterImport.rowsTitle}
                    {preview.valid > preview.shown.length ? (
                      <span className="block font-normal text-slate-700">
                        {t.rosterImport.shownFirst(format.number(preview.shown.length), format.number(preview.valid))}
                      </span>
                    ) : null}
                  </caption>
                  <thead className="border-b border-slate-200 text-slate-700">
                    <tr>
                      <th scope="col" className={head}>
                        {t.rosterImport.row}
                      </th>
                      <th scope="col" className={head}>
                        {t.people.name}
                      </th>
                      <th scope="col" className={head}>
                        {t.people.email}
                      </th>
                      <th scope="col" className={head}>
                        {t.people.externalId}
                      </th>
                      <th scope="col" className={head}>
                        {t.rosterImport.group}
                      </th>
                      <th scope="col" className="py-2 font-semibold">
                        {t.rosterImport.whatHappens}
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200">
                    {preview.shown.map((row) => (
                      <tr key={row.row}>
                        <td className={`${cell} tabular-nums`}>{format.number(row.row)}</td>
                        <th scope="row" className={`${cell} font-medium text-slate-900`}>
                          {row.name}
                        </th>
                        <td className={`${cell} wrap-anywhere`}>{row.email ?? t.people.notGiven}</td>
                        <td className={`${cell} wrap-anywhere`}>{row.externalId ?? t.people.notGiven}</td>
                        <td className={cell}>{row.group ?? t.people.notGiven}</td>
                        <td className="py-2">{whatHappens(row)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {preview.created + preview.updated === 0 ? (
                <Alert tone="info" title={t.rosterImport.nothingToDo} />
              ) : (
                <Form method="post" encType="multipart/form-data">
                  <CsrfInput />
                  <input type="hidden" name="csv" value={checked.csv} />
                  <input type="hidden" name="encoding" value={preview.encoding} />
                  <input type="hidden" name="mode" value={preview.mode} />
                  <Button type="submit" name="intent" value="import" variant="primary" pendingText={t.rosterImport.importing}>
                    {preview.mode === "upsert"
                      ? t.rosterImport.importUpsert(format.number(preview.created), format.number(preview.updated))
                      : t.rosterImport.importAll(format.number(preview.valid))}
                  </Button>
                </Form>
              )}
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}
