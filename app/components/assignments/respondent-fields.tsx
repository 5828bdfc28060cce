import { Form, useSearchParams } from "react-router";
import { Button } from "~/components/button.tsx";
import { cx } from "~/components/cx.ts";
import { controlClasses, Field } from "~/components/field.tsx";
import { SearchIcon } from "~/components/icons.tsx";
import { useT } from "~/i18n/hooks.ts";

/**
 * The controls of a page that gives a form to someone (assigning a test, a schedule): a search that
 * narrows the people listed, the form's select and the respondent's select (a whole group, a
 * student or a candidate: `group:<id>`, `student:<id>`, `candidate:<id>`). They work without
 * JavaScript: the search is a GET form that keeps the page's other parameters.
 */
type Choice = { id: string; name: string };
type FieldProps = { name: string; defaultValue?: string | undefined; errors?: readonly string[] | undefined };

/** The GET form that narrows the respondents; `keep`: the address's parameters it carries along. */
export function RespondentSearch({ q, keep }: { q: string; keep: readonly string[] }) {
  const t = useT();
  const [params] = useSearchParams();
  return (
    <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
      {keep.map((key) => (params.get(key) ? <input key={key} type="hidden" name={key} value={params.get(key)!} /> : null))}
      <div className="min-w-0 flex-1">
        <label htmlFor="respondent-search" className="block text-sm font-medium text-slate-900">
          {t.assignments.findRespondent}
        </label>
        <p id="respondent-search-hint" className="mt-1 text-sm text-slate-600">
          {t.assignments.findRespondentHint}
        </p>
        <div className="relative mt-1.5">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
          <input
            id="respondent-search"
            type="search"
            name="q"
            defaultValue={q}
            key={q}
            aria-describedby="respondent-search-hint"
            className={`${controlClasses(false)} pl-9`}
          />
        </div>
      </div>
      <Button type="submit" variant="secondary">
        {t.common.search}
      </Button>
    </Form>
  );
}

function RequiredLabel({ htmlFor, children }: { htmlFor: string; children: string }) {
  const t = useT();
  return (
    <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-900">
      {children}
      <span aria-hidden="true" className="text-red-700">
        {" "}
        *
      </span>
      <span className="sr-only"> ({t.common.required})</span>
    </label>
  );
}

function FieldError({ id, errors }: { id: string; errors?: readonly string[] | undefined }) {
  return errors ? (
    <p id={id} className="mt-1.5 text-sm font-medium text-red-700">
      {errors[0]}
    </p>
  ) : null;
}

/** The form to give: the published forms the caller sees. */
export function FormChoice({ field, forms }: { field: FieldProps; forms: readonly { id: string; title: string }[] }) {
  const t = useT();
  return (
    <div>
      <RequiredLabel htmlFor="formId">{t.assignments.form}</RequiredLabel>
      <select
        id="formId"
        name={field.name}
        required
        defaultValue={field.defaultValue}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={field.errors ? "formId-error" : undefined}
        className={cx(controlClasses(!!field.errors), "mt-1.5 pr-8")}
      >
        <option value="">{t.assignments.chooseForm}</option>
        {forms.map((form) => (
          <option key={form.id} value={form.id}>
            {form.title}
          </option>
        ))}
      </select>
      <FieldError id="formId-error" errors={field.errors} />
    </div>
  );
}

/** Who answers: a whole group, a student or a candidate (`choices`: what `respondentChoices` answers). */
export function RespondentChoice({
  field,
  choices,
}: {
  field: FieldProps;
  choices: { groups: readonly Choice[]; students: readonly Choice[]; candidates: readonly Choice[]; truncated: boolean; q: string };
}) {
  const t = useT();
  const { groups, students, candidates, truncated, q } = choices;
  const hasPeople = students.length + candidates.length + groups.length > 0;
  const people = (label: string, kind: "student" | "candidate", list: readonly Choice[]) =>
    list.length > 0 ? (
      <optgroup label={label}>
        {list.map((person) => (
          <option key={person.id} value={`${kind}:${person.id}`}>
            {person.name}
          </option>
        ))}
      </optgroup>
    ) : null;
  return (
    <div>
      <RequiredLabel htmlFor="respondent">{t.assignments.respondent}</RequiredLabel>
      {truncated ? (
        <p id="respondent-hint" className="mt-1 text-sm text-slate-600">
          {t.assignments.truncated}
        </p>
      ) : null}
      <select
        id="respondent"
        name={field.name}
        required
        defaultValue={field.defaultValue}
        key={`respondent-${q}`}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={[truncated ? "respondent-hint" : "", field.errors ? "respondent-error" : ""].filter(Boolean).join(" ") || undefined}
        className={cx(controlClasses(!!field.errors), "mt-1.5 pr-8")}
      >
        <option value="">{hasPeople ? t.assignments.chooseRespondent : t.assignments.noRespondents}</option>
        {groups.length > 0 ? (
          <optgroup label={t.assignments.wholeGroups}>
            {groups.map((group) => (
              <option key={group.id} value={`group:${group.id}`}>
                {t.assignments.wholeGroup(group.name)}
              </option>
            ))}
          </optgroup>
        ) : null}
        {people(t.assignments.students, "student", students)}
        {people(t.assignments.candidates, "candidate", candidates)}
      </select>
      <FieldError id="respondent-error" errors={field.errors} />
    </div>
  );
}

/** The reminder a link gets after so many days: the same field wherever links are made. */
export function RemindAfterDays({ field }: { field: FieldProps }) {
  const t = useT();
  return (
    <Field
      id="remindAfterDays"
      name={field.name}
      type="number"
      inputMode="numeric"
      min={1}
      max={60}
      label={t.assignments.remindAfterDays}
      description={t.assignments.remindAfterDaysHint}
      defaultValue={field.defaultValue}
      error={field.errors}
      className="max-w-xs"
    />
  );
}
