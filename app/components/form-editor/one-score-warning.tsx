import { useEffect, useId, useRef } from "react";
import type { ScoredDraftQuestion } from "~/features/forms/form-draft.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { Button } from "../button.tsx";
import { followLink } from "../error-summary.tsx";
import { moveFocus } from "../focus.ts";
import { AlertIcon } from "../icons.tsx";

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
  const headingId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (answer && ref.current) moveFocus(ref.current);
  }, [answer]);
  if (indexes.length === 0) return null;
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      aria-labelledby={headingId}
      // biome-ignore lint/a11y/noAutofocus: without JavaScript the page the action answers starts at what it asks
      autoFocus
      className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 outline-none focus:ring-2 focus:ring-amber-700"
      data-testid="one-score-warning"
    >
      <AlertIcon className="size-5 shrink-0 text-amber-700" />
      <div className="min-w-0 space-y-2">
        <h2 id={headingId} className="font-semibold">
          {t.forms.editor.oneScoreTitle(indexes.length)}
        </h2>
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
      </div>
    </div>
  );
}
