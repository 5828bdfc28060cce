import { Form } from "react-router";
import { useT } from "~/i18n/hooks.ts";
import { Button, LinkButton } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { ErrorSummary } from "../error-summary.tsx";
import { Field, TextArea } from "../field.tsx";
import type { PageForm } from "../page-form.ts";

/** A group's name and description, for creating and for editing (the page's Conform form). */
export function GroupForm({
  form: { form, fields },
  submitLabel,
  cancelTo,
}: {
  form: PageForm<"name" | "description">;
  submitLabel: string;
  cancelTo: string;
}) {
  const t = useT();
  return (
    <Form method="post" className="space-y-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" {...form.props}>
      <CsrfInput />
      <ErrorSummary form={form} fields={["name", "description"]} label={(name) => (name === "name" ? t.groups.name : t.groups.descriptionLabel)} />
      <Field
        label={t.groups.name}
        id="name"
        name={fields.name.name}
        defaultValue={fields.name.defaultValue}
        error={fields.name.errors}
        required
        maxLength={200}
        autoComplete="off"
      />
      <TextArea
        label={t.groups.descriptionLabel}
        id="description"
        name={fields.description.name}
        defaultValue={fields.description.defaultValue}
        error={fields.description.errors}
        rows={3}
      />
      <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-5">
        <Button type="submit" variant="primary" pendingText={t.common.saving}>
          {submitLabel}
        </Button>
        <LinkButton to={cancelTo} variant="secondary">
          {t.people.cancel}
        </LinkButton>
      </div>
    </Form>
  );
}
