import type { IntentDispatcher } from "@conform-to/react/future";
import type { ReactNode } from "react";
import { type EDITOR_INTENTS, type FormDraft, LIST_INTENT } from "~/features/forms/form-draft.ts";
import { Button } from "../button.tsx";
import { PlusIcon } from "../icons.tsx";

/** The pieces every part of the form editor is built of. */

/** Conform's list intents (insert, remove, reorder, update) and the editor's own (copyOptions). */
export type EditorIntent = IntentDispatcher<FormDraft, typeof EDITOR_INTENTS>;

/** Asks the editor to move the focus to the field of this name once it is drawn (after a list edit). */
export type FocusOn = (name: string) => () => void;

/** A control's name, id, value and errors from its Conform field (the id is its name, so a label or a test finds it). */
export function control(field: { name: string; errors: string[] | undefined; defaultValue: string | undefined }) {
  return { name: field.name, id: field.name, error: field.errors, defaultValue: field.defaultValue };
}

export function EditorSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 rounded-xl border border-slate-200 bg-white px-4 py-5 shadow-sm sm:px-6">
      <legend className="float-left w-full text-base font-semibold text-slate-900">{title}</legend>
      <div className="clear-both pt-1">
        {description ? <p className="mb-4 text-sm text-slate-600">{description}</p> : <div className="h-3" />}
        {children}
      </div>
    </fieldset>
  );
}

/** A small list-editing button: its visible text is short, its name says what it acts on. */
export function IntentButton({
  value,
  label,
  children,
  disabled,
  onClick,
}: {
  value: string;
  label: string;
  children: ReactNode;
  disabled?: boolean;
  onClick?: () => void;
}) {
  return (
    <Button
      type="submit"
      name={LIST_INTENT}
      value={value}
      size="sm"
      variant="ghost"
      formNoValidate
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** A list's or a group's error, under it: its id is `<name>-error`, which the error summary links to. */
export function GroupError({ name, errors }: { name: string; errors: string[] | undefined }) {
  if (!errors?.[0]) return null;
  return (
    <p id={`${name}-error`} className="mt-2 text-sm font-medium text-red-700">
      {errors[0]}
    </p>
  );
}

/** A button that adds an item to a list (Conform's `insert` intent): its text says what, `label` which list when the text does not. */
export function AddButton({
  value,
  onClick,
  disabled,
  label,
  size,
  className,
  children,
}: {
  value: string;
  onClick: () => void;
  disabled: boolean;
  label?: string | undefined;
  size?: "sm";
  className?: string | undefined;
  children: ReactNode;
}) {
  return (
    <Button
      type="submit"
      name={LIST_INTENT}
      value={value}
      onClick={onClick}
      disabled={disabled}
      variant="secondary"
      size={size}
      className={className}
      icon={<PlusIcon className="size-4" />}
      formNoValidate
      aria-label={label}
    >
      {children}
    </Button>
  );
}
