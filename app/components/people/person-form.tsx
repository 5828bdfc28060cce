import { Form } from "react-router";
import { useT } from "~/i18n/hooks.ts";
import { PROFILE_FIELDS as PERSON_FIELDS, type ProfileField as PersonField } from "~/features/people/person-form.ts";
import type { PageForm } from "../page-form.ts";
import { Button, LinkButton } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { ErrorSummary } from "../error-summary.tsx";
import { Field, Select } from "../field.tsx";
import { useStatusLabel, type PersonKind } from "./status-badge.tsx";

/**
 * The create and edit form of a student or candidate: every profile field, wired to the page's
 * Conform form (useForm with pageFormOptions: checked in the browser, and the action's errors next to their
 * fields, with what was typed kept). `statuses` null hides the status (a promoted candidate's
 * never changes).
 */
export function PersonForm({
  kind,
  form: { form, fields },
  statuses,
  submitLabel,
  cancelTo,
  note,
}: {
  kind: PersonKind;
  form: PageForm<PersonField>;
  statuses: readonly string[] | null;
  submitLabel: string;
  cancelTo: string;
  note?: string | undefined;
}) {
  const t = useT();
  const statusLabel = useStatusLabel(kind);
  const input = (field: PersonField) => ({
    id: field,
    name: fields[field].name,
    defaultValue: fields[field].defaultValue ?? "",
    error: fields[field].errors,
  });
  return (
    <Form method="post" className="space-y-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" {...form.props}>
      <CsrfInput />
      <ErrorSummary form={form} title={t.people.fixErrors} fields={PERSON_FIELDS} label={(name) => t.people[name as PersonField]} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={t.people.name} required autoComplete="off" maxLength={200} {...input("name")} className="sm:col-span-2" />
        <Field label={t.people.email} type="email" autoComplete="off" {...input("email")} />
        <Field label={t.people.externalId} description={t.people.externalIdHint} autoComplete="off" maxLength={100} {...input("externalId")} />
        <Field label={t.people.dateOfBirth} type="date" autoComplete="off" {...input("dateOfBirth")} />
        <Field label={t.people.phone} type="tel" autoComplete="off" maxLength={50} {...input("phone")} />
        <Field label={t.people.age} type="number" inputMode="numeric" min={0} max={150} step={1} {...input("age")} />
        <Field label={t.people.grade} maxLength={50} {...input("grade")} />
        <Field label={t.people.gender} maxLength={50} {...input("gender")} />
        {statuses ? (
          <Select
            label={t.people.status}
            id="status"
            name={fields.status.name}
            defaultValue={fields.status.defaultValue ?? statuses[0]}
            options={statuses.map((value) => ({ value, label: statusLabel(value) }))}
            error={fields.status.errors}
          />
        ) : (
          <p className="self-end text-sm text-slate-600">{note}</p>
        )}
      </div>
      <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-5">
        <Button type="submit" variant="primary" pendingText={t.people.saving}>
          {submitLabel}
        </Button>
        <LinkButton to={cancelTo} variant="secondary">
          {t.people.cancel}
        </LinkButton>
      </div>
    </Form>
  );
}
