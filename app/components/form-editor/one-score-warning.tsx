import type { ScoredDraftQuestion } from "~/features/forms/form-draft.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { AlertPanel, useFocusOnAnswer } from "../alert-panel.tsx";
import { Button } from "../button.tsx";
import { followLink } from "../error-summary.tsx";

/**
 * A save held back because some questions give the same score whatever the answer (ADR 74): at
 * the top of the editor, where the error summary would be, the questions with a link to each and
 * "Save anyway". It takes the focus when it appears (without JavaScript, by `autofocus`); it goes
 * once no question is left to name.
 */
export function OneScoreWarning({
  questions,
  indexes,
  answer,
}: {
  questions: readonly (ScoredDraftQuestion | undefined)[];
  indexes: number[];
  /** The action's answer that held the save back: a new one (Save again) takes the focus again. */
  answer: unknown;
}) {
  const t = useT();
  const format = useFormat();
  const ref = useFocusOnAnswer(answer);
  if (indexes.length === 0) return null;
  return (
    <AlertPanel ref={ref} tone="warning" title={t.forms.editor.oneScoreTitle(indexes.length)} testId="one-score-warning">
      <ul className="list-disc space-y-1 pl-5">
        {indexes.map((index) => (
          <li key={index}>
            <a className="font-medium underline hover:text-amber-800" href={`#questions[${index}].options`} onClick={followLink}>
              {t.forms.editor.oneScoreItem(index + 1, format.number(questions[index]?.options[0]?.score ?? 0))}
            </a>
          </li>
        ))}
      </ul>
      <p>{t.forms.editor.oneScoreText}</p>
      <Button type="submit" name="intent" value="save-anyway" variant="secondary" pendingText={t.common.saving}>
        {t.forms.editor.saveAnyway}
      </Button>
    </AlertPanel>
  );
}
