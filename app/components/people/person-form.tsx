import { Form } from "react-router";
import { useT } from "~/i18n/hooks.ts";
import type { ProfileFormResult, ProfileValues } from "~/features/people/person-form.ts";
import { fieldText } from "~/lib/messages.ts";
import { Alert } from "../alert.tsx";
import { Button, LinkButton } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { Field, Select } from "../field.tsx";
import { useStatusLabel, type PersonKind } from "./status-badge.tsx";

/**
 * The create and edit form of a student or candidate: every profile field, the errors the action
 * answered next to their fields, and what was typed kept after an error. `statuses` null hides
 * the status (a promoted candidate's never changes).
 */
export function PersonForm({
  kind,
  initial,
  result,
  statuses,
  submitLabel,
  cancelTo,
  note,
}: {
  kind: PersonKind;
  initial: ProfileValues;
  result: ProfileFormResult | undefined;
  statuses: readonly string[] | null;
  submitLabel: string;
  cancelTo: string;
  note?: string | undefined;
}) {
  const t = useT();
  const statusLabel = useStatusLabel(kind);
  const values = result?.values ?? initial;
  const errors = result?.errors ?? {};
  const message = (field: keyof typeof errors) => (errors[field] ? fieldText(t, errors[field]) : undefined);
  // A new key per answer, so the inputs show the values the server sent back (uncontrolled inputs).
  const version = result ? JSON.stringify(result) : "initial";
  // After an error, the first field to fix takes the focus (with or without JavaScript).
  const firstInvalid = (["name", "email", "phone", "age", "grade", "gender", "status"] as const).find((field) => errors[field]);
  const focus = (field: typeof firstInvalid) => (firstInvalid === field ? { autoFocus: true } : {});
  return (
    <Form method="post" noValidate className="space-y-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" key={version}>
      <CsrfInput />
      {result?.formError ? (
        <Alert tone="error" title={t.people.csrf} />
      ) : Object.keys(errors).length > 0 ? (
        <Alert tone="error" title={t.people.fixErrors} />
      ) : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label={t.people.name}
          name="name"
          required
          autoComplete="off"
          maxLength={200}
          defaultValue={values.name ?? ""}
          error={message("name")}
          {...focus("name")}
          className="sm:col-span-2"
        />
        <Field
          label={t.people.email}
          name="email"
          type="email"
          autoComplete="off"
          defaultValue={values.email ?? ""}
          error={message("email")}
          {...focus("email")}
        />
        <Field
          label={t.people.phone}
          name="phone"
          type="tel"
          autoComplete="off"
          maxLength={50}
          defaultValue={values.phone ?? ""}
          error={message("phone")}
          {...focus("phone")}
        />
        <Field
          label={t.people.age}
          name="age"
          type="number"
          inputMode="numeric"
          min={0}
          max={150}
          step={1}
          defaultValue={values.age ?? ""}
          error={message("age")}
          {...focus("age")}
        />
        <Field label={t.people.grade} name="grade" maxLength={50} defaultValue={values.grade ?? ""} error={message("grade")} {...focus("grade")} />
        <Field label={t.people.gender} name="gender" maxLength={50} defaultValue={values.gender ?? ""} error={message("gender")} {...focus("gender")} />
        {statuses ? (
          <Select
            label={t.people.status}
            name="status"
            defaultValue={values.status ?? statuses[0]}
            options={statuses.map((value) => ({ value, label: statusLabel(value) }))}
            error={message("status")}
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
