import type { FieldMetadata } from "@conform-to/react/future";
import type { DraftScoring } from "~/features/forms/form-draft.ts";
import { useT } from "~/i18n/hooks.ts";
import { Field, Select } from "../field.tsx";
import { control, EditorSection } from "./parts.tsx";

/**
 * How the total is made (docs/api-contract.md §15): the items' sum or mean, a multiplier, how many
 * unanswered scored questions are prorated, and whether results show the score or a percentage.
 */
export function ScoringSettings({ scoring }: { scoring: FieldMetadata<DraftScoring, string[]> }) {
  const t = useT();
  const f = t.forms.fields;
  const fields = scoring.getFieldset();
  return (
    <EditorSection title={t.forms.editor.scoring} description={t.forms.editor.scoringHelp}>
      <div className="grid gap-5 sm:grid-cols-2">
        <Select
          label={f.scoringMethod}
          {...control(fields.method)}
          options={(["SUM", "MEAN"] as const).map((value) => ({ value, label: f.scoringMethods[value] }))}
        />
        <Field label={f.multiplier} description={f.multiplierHint} {...control(fields.multiplier)} inputMode="decimal" placeholder="1" />
        <Field label={f.maxMissing} description={f.maxMissingHint} {...control(fields.maxMissing)} inputMode="numeric" />
        <Select label={f.display} {...control(fields.display)} options={(["PERCENT", "RAW"] as const).map((value) => ({ value, label: f.displays[value] }))} />
      </div>
    </EditorSection>
  );
}
