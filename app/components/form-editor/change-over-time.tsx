import type { FieldMetadata } from "@conform-to/react/future";
import { useState } from "react";
import { type DraftReliableChange, type DraftSubscale, draftReliableThreshold } from "~/features/forms/form-draft.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { Checkbox, Field } from "../field.tsx";
import { control, EditorSection } from "./parts.tsx";

/**
 * The constants a result's change over time is judged by (docs/api-contract.md §18, ADR 80):
 * whether lower is better, the standard deviation and reliability of the reliable change index
 * (both or neither), and the total below which a result is a remission. Each subscale has its own
 * (SubscaleChange); the direction is the form's.
 */
type Meta<T> = FieldMetadata<T, string[]>;

export function ChangeOverTime({
  lowerIsBetter,
  reliableChange,
  remissionBelow,
  typed,
}: {
  lowerIsBetter: Meta<boolean>;
  reliableChange: Meta<DraftReliableChange>;
  remissionBelow: Meta<string>;
  /** The constants as typed (with JavaScript) or as last posted: the reliable change they make. */
  typed: DraftReliableChange | undefined;
}) {
  const t = useT();
  const f = t.forms.fields;
  const e = t.forms.editor;
  return (
    <EditorSection title={e.change} description={e.changeHelp}>
      <div className="space-y-5">
        <Checkbox
          label={f.lowerIsBetter}
          description={f.lowerIsBetterHint}
          name={lowerIsBetter.name}
          id={lowerIsBetter.name}
          defaultChecked={lowerIsBetter.defaultChecked}
        />
        <ReliableChangeFields field={reliableChange} typed={typed} help={e.reliableChangeHelp} />
        <Field
          className="sm:max-w-md"
          label={f.remissionBelow}
          description={f.remissionBelowHint}
          {...control(remissionBelow)}
          inputMode="decimal"
          autoComplete="off"
        />
      </div>
    </EditorSection>
  );
}

/**
 * A subscale's own constants, in a disclosure: most forms have none. It is open when they are
 * given or one of them is refused, and stays as the person editing leaves it while they type.
 */
export function SubscaleChange({ subscale, n, typed }: { subscale: Meta<DraftSubscale>; n: number; typed: DraftSubscale | undefined }) {
  const t = useT();
  const f = t.forms.fields;
  const e = t.forms.editor;
  const fields = subscale.getFieldset();
  const constants = fields.reliableChange.getFieldset();
  const parts = [constants.sd, constants.reliability, fields.remissionBelow];
  const refused = parts.some((part) => !!part.errors?.length);
  const [open, setOpen] = useState(() => refused || parts.some((part) => !!part.defaultValue?.trim()));
  // A refusal opens it; fixing the field does not close it under the cursor.
  if (refused && !open) setOpen(true);
  return (
    <details className="mt-5" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-sm font-semibold text-indigo-700 hover:underline">
        {e.change}
        <span className="sr-only"> {e.subscaleChangeOf(n)}</span>
      </summary>
      <div className="mt-2 space-y-4">
        <p className="text-sm text-slate-600">{e.subscaleChangeHelp}</p>
        <ReliableChangeFields
          field={fields.reliableChange}
          typed={typed?.reliableChange}
          labels={{ sd: f.subscaleStandardDeviationOf(n), reliability: f.subscaleReliabilityOf(n) }}
        />
        <Field
          className="sm:max-w-md"
          label={f.remissionBelow}
          {...control(fields.remissionBelow)}
          inputMode="decimal"
          autoComplete="off"
          aria-label={f.subscaleRemissionBelowOf(n)}
        />
      </div>
    </details>
  );
}

/** The two constants of the reliable change index, and the change in points they make reliable. */
function ReliableChangeFields({
  field,
  typed,
  help,
  labels,
}: {
  field: Meta<DraftReliableChange>;
  typed: DraftReliableChange | undefined;
  help?: string;
  /** Names that say whose constants they are (a subscale's), where the visible labels do not. */
  labels?: { sd: string; reliability: string };
}) {
  const t = useT();
  const format = useFormat();
  const f = t.forms.fields;
  const fields = field.getFieldset();
  const helpId = `${field.name}-help`;
  const points = typed ? draftReliableThreshold(typed) : null;
  return (
    <fieldset aria-describedby={help ? helpId : undefined}>
      <legend className="text-sm font-medium text-slate-900">{t.forms.editor.reliableChange}</legend>
      {help ? (
        <p id={helpId} className="mt-1 text-sm text-slate-600">
          {help}
        </p>
      ) : null}
      <div className="mt-2 grid grid-cols-2 gap-3 sm:max-w-md">
        <Field label={f.standardDeviation} {...control(fields.sd)} inputMode="decimal" autoComplete="off" aria-label={labels?.sd} />
        <Field label={f.reliability} {...control(fields.reliability)} inputMode="decimal" autoComplete="off" aria-label={labels?.reliability} />
      </div>
      <p className="mt-2 text-sm text-slate-700" aria-live="polite" data-testid={`${field.name}-threshold`}>
        {points === null ? null : t.forms.editor.reliableThreshold(format.number(points, { maximumFractionDigits: 1 }))}
      </p>
    </fieldset>
  );
}
