import type { FieldMetadata } from "@conform-to/react/future";
import { useT } from "~/i18n/hooks.ts";
import { TextArea } from "../field.tsx";
import { control, EditorSection } from "./parts.tsx";

/**
 * What makes a result critical, and the one thing the respondent is told when theirs is
 * (docs/api-contract.md §16): the options and bands are marked where they are edited; this is the
 * message.
 */
export function CriticalMessage({ field }: { field: FieldMetadata<string, string[]> }) {
  const t = useT();
  return (
    <EditorSection title={t.forms.editor.critical} description={t.forms.editor.criticalHelp}>
      <TextArea label={t.forms.fields.criticalMessage} description={t.forms.fields.criticalMessageHint} {...control(field)} rows={4} maxLength={2000} />
    </EditorSection>
  );
}
