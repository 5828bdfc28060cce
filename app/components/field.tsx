import { useId, type ComponentProps, type ReactNode } from "react";
import { useT } from "~/i18n/hooks.ts";
import { cx } from "./cx.ts";

/**
 * Form controls with their label, description and error wired together: the control names its
 * description and error in aria-describedby and says aria-invalid when there is an error, so a
 * screen reader reads them with the field. `error` takes one message or Conform's `field.errors`.
 *
 *   <Field label={t.students.name} name="name" required error={fields.name.errors} />
 */
type Errors = string | readonly string[] | null | undefined;

type FrameProps = {
  label: ReactNode;
  description?: ReactNode;
  error?: Errors;
  required?: boolean | undefined;
  /** Keep the label for screen readers only (a search box with a visible button, say). */
  hideLabel?: boolean;
  className?: string;
};

const firstError = (error: Errors) => (typeof error === "string" ? error : error?.[0]) || null;

export const controlClasses = (invalid: boolean) =>
  cx(
    "block w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 shadow-sm sm:text-sm",
    "placeholder:text-slate-500 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600 read-only:bg-slate-50",
    invalid ? "border-red-600" : "border-slate-400",
  );

/** Ids and aria attributes for a control with an optional description and error. */
function useFieldIds(id: string | undefined, description: ReactNode, error: Errors) {
  const generated = useId();
  const controlId = id ?? generated;
  const message = firstError(error);
  const descriptionId = description ? `${controlId}-description` : undefined;
  const errorId = message ? `${controlId}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(" ") || undefined;
  return { controlId, message, descriptionId, errorId, aria: { "aria-describedby": describedBy, "aria-invalid": message ? true : undefined } };
}

function Label({
  htmlFor,
  required,
  hidden,
  children,
}: {
  htmlFor: string;
  required?: boolean | undefined;
  hidden?: boolean | undefined;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <label htmlFor={htmlFor} className={hidden ? "sr-only" : "block text-sm font-medium text-slate-900"}>
      {children}
      {required ? (
        <>
          <span aria-hidden="true" className="text-red-700">
            {" "}
            *
          </span>
          <span className="sr-only"> ({t.common.required})</span>
        </>
      ) : null}
    </label>
  );
}

function Help({ id, error, children }: { id: string | undefined; error?: boolean; children: ReactNode }) {
  if (!id) return null;
  return (
    <p id={id} className={error ? "mt-1.5 text-sm font-medium text-red-700" : "mt-1 text-sm text-slate-600"}>
      {children}
    </p>
  );
}

export function Field({ label, description, error, hideLabel, className, id, required, ...input }: FrameProps & Omit<ComponentProps<"input">, "className">) {
  const ids = useFieldIds(id, description, error);
  return (
    <div className={className}>
      <Label htmlFor={ids.controlId} required={required} hidden={hideLabel}>
        {label}
      </Label>
      <Help id={ids.descriptionId}>{description}</Help>
      <input id={ids.controlId} required={required} {...ids.aria} className={cx(controlClasses(!!ids.message), !hideLabel && "mt-1.5")} {...input} />
      <Help id={ids.errorId} error>
        {ids.message}
      </Help>
    </div>
  );
}

export function TextArea({
  label,
  description,
  error,
  hideLabel,
  className,
  id,
  required,
  rows = 4,
  ...input
}: FrameProps & Omit<ComponentProps<"textarea">, "className">) {
  const ids = useFieldIds(id, description, error);
  return (
    <div className={className}>
      <Label htmlFor={ids.controlId} required={required} hidden={hideLabel}>
        {label}
      </Label>
      <Help id={ids.descriptionId}>{description}</Help>
      <textarea
        id={ids.controlId}
        required={required}
        rows={rows}
        {...ids.aria}
        className={cx(controlClasses(!!ids.message), !hideLabel && "mt-1.5")}
        {...input}
      />
      <Help id={ids.errorId} error>
        {ids.message}
      </Help>
    </div>
  );
}

export type SelectOption = { value: string; label: string; disabled?: boolean };

export function Select({
  label,
  description,
  error,
  hideLabel,
  className,
  id,
  required,
  options,
  placeholder,
  ...select
}: FrameProps & Omit<ComponentProps<"select">, "className" | "children"> & { options: readonly SelectOption[]; placeholder?: string }) {
  const ids = useFieldIds(id, description, error);
  return (
    <div className={className}>
      <Label htmlFor={ids.controlId} required={required} hidden={hideLabel}>
        {label}
      </Label>
      <Help id={ids.descriptionId}>{description}</Help>
      <select id={ids.controlId} required={required} {...ids.aria} className={cx(controlClasses(!!ids.message), "pr-8", !hideLabel && "mt-1.5")} {...select}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
      <Help id={ids.errorId} error>
        {ids.message}
      </Help>
    </div>
  );
}

type ChoiceProps = Omit<FrameProps, "hideLabel" | "required"> & Omit<ComponentProps<"input">, "className" | "type">;

/** A checkbox with its label on the right; `value` defaults to "on" as in HTML. */
export const Checkbox = (props: ChoiceProps) => <Choice type="checkbox" {...props} />;

/** One radio button of a group (same `name`, in a fieldset with its legend), its label on the right. */
export const Radio = (props: ChoiceProps) => <Choice type="radio" {...props} />;

function Choice({ type, label, description, error, className, id, ...input }: ChoiceProps & { type: "checkbox" | "radio" }) {
  const ids = useFieldIds(id, description, error);
  return (
    <div className={cx("flex gap-3", className)}>
      <div className="flex h-6 items-center">
        <input id={ids.controlId} type={type} {...ids.aria} className="size-4 rounded border-slate-400 accent-indigo-700" {...input} />
      </div>
      <div className="text-sm">
        <label htmlFor={ids.controlId} className="font-medium text-slate-900">
          {label}
        </label>
        <Help id={ids.descriptionId}>{description}</Help>
        <Help id={ids.errorId} error>
          {ids.message}
        </Help>
      </div>
    </div>
  );
}
