import type { FieldMetadata } from "@conform-to/react/future";
import { CONFIRM_FIELDS, type DraftQuestion, type VersionWarning } from "~/features/forms/form-draft.ts";
import type { QuestionType } from "~/features/forms/question-types.ts";
import { SCORING_RULES } from "~/features/scoring/answer-key.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { AlertPanel, useFocusOnAnswer } from "../alert-panel.tsx";
import { Button } from "../button.tsx";
import { Field, Select, TextArea } from "../field.tsx";
import { control } from "./parts.tsx";

/**
 * A choice question's answer key in the editor (docs/api-contract.md §22, ADR 90): its points (empty:
 * scored by its options' scores) and the scoring of a multiple choice with several correct options
 * (each option's "Correct" mark is an `OptionMark`), the feedback a respondent reads in their
 * review, and the warning of a save that would make a new version of a form with results.
 */

type QuestionField = FieldMetadata<DraftQuestion, string[]>;

const isChoice = (type: QuestionType) => type === "SINGLE_CHOICE" || type === "MULTIPLE_CHOICE";

/**
 * The question's points and, on a multiple choice, how several correct options score: shown on
 * choice questions, and on another type while it still has points typed (the save names them).
 */
export function QuestionPoints({
  question,
  n,
  type,
  typedPoints,
  keyed,
}: {
  question: QuestionField;
  n: number;
  type: QuestionType;
  typedPoints: string;
  keyed: boolean;
}) {
  const t = useT();
  const fields = question.getFieldset();
  // The hint sits under both fields: the points field names it, with its error when it has one.
  const hintId = `${fields.points.name}-hint`;
  return (
    <div hidden={!isChoice(type) && typedPoints.trim() === "" && !fields.points.errors} className="mt-4">
      <div className="grid gap-3 sm:grid-cols-[9rem_1fr]">
        <Field
          label={t.forms.fields.points}
          {...control(fields.points)}
          inputMode="decimal"
          autoComplete="off"
          aria-label={t.forms.fields.pointsOf(n)}
          aria-describedby={fields.points.errors ? `${hintId} ${fields.points.name}-error` : hintId}
        />
        <div hidden={type !== "MULTIPLE_CHOICE"}>
          <Select
            label={t.forms.fields.scoringRule}
            {...control(fields.scoringRule)}
            aria-label={t.forms.fields.scoringRuleOf(n)}
            description={t.forms.fields.scoringRuleHint}
            options={SCORING_RULES.map((value) => ({ value, label: t.forms.fields.scoringRules[value] }))}
          />
        </div>
      </div>
      <p id={hintId} className="mt-1 text-sm text-slate-600" data-testid={`points-hint-${n}`}>
        {keyed ? <span className="font-medium text-indigo-900">{t.forms.editor.keyed}</span> : t.forms.fields.pointsHint}
      </p>
    </div>
  );
}

/**
 * The question's feedback and its options', folded away in a <details> to keep the editor short:
 * open when a feedback field has an error to show.
 */
export function QuestionFeedback({ question, n, type }: { question: QuestionField; n: number; type: QuestionType }) {
  const t = useT();
  const fields = question.getFieldset();
  const options = fields.options.getFieldList();
  const withOptions = type !== "TEXT" && options.length > 0;
  const invalid = !!fields.feedback.errors || (withOptions && options.some((option) => !!option.getFieldset().feedback.errors));
  return (
    <details className="mt-4 text-sm" open={invalid || undefined} data-testid={`feedback-${n}`}>
      <summary className="cursor-pointer font-medium text-indigo-700 hover:underline">
        {t.forms.editor.feedback}
        <span className="sr-only"> {t.forms.editor.feedbackOf(n)}</span>
      </summary>
      <div className="mt-2 space-y-3 rounded-md border border-slate-300 bg-white p-3">
        <p className="text-slate-600">{t.forms.editor.feedbackHelp}</p>
        <TextArea
          label={t.forms.fields.questionFeedback}
          {...control(fields.feedback)}
          aria-label={t.forms.fields.questionFeedbackOf(n)}
          rows={2}
          maxLength={2000}
        />
        <div hidden={!withOptions} className="space-y-3">
          {options.map((option, j) => {
            const feedback = option.getFieldset().feedback;
            return (
              <TextArea
                key={option.key}
                label={t.forms.fields.optionFeedback(j + 1)}
                {...control(feedback)}
                aria-label={t.forms.fields.optionFeedbackOf(n, j + 1)}
                rows={1}
                maxLength={2000}
              />
            );
          })}
        </div>
      </div>
    </details>
  );
}

/**
 * A save held back because it would make a new version of a form with results (ADR 90): at the
 * top of the editor, how many results the current version scored, and two ways on. The version
 * to make goes back in a hidden field, so that "Save as version 2" (the editor's own Save button
 * does the same) saves it, and "Save and rescore" saves it and opens the rescore page. It takes the
 * focus when it appears (without JavaScript, by `autofocus`).
 */
export function NewVersionWarning({ warning, answer }: { warning: VersionWarning; answer: unknown }) {
  const t = useT();
  const format = useFormat();
  const ref = useFocusOnAnswer(answer);
  const next = format.number(warning.nextVersion);
  return (
    <AlertPanel ref={ref} tone="warning" title={t.forms.editor.newVersionTitle} testId="new-version-warning">
      <input type="hidden" name={CONFIRM_FIELDS.version} value={warning.nextVersion} />
      {warning.oneScoreAccepted ? <input type="hidden" name={CONFIRM_FIELDS.oneScore} value="on" /> : null}
      <p>{t.forms.editor.newVersionText(warning.results, format.number(warning.results), next)}</p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="save" variant="primary" pendingText={t.common.saving}>
          {t.forms.editor.saveAsVersion(next)}
        </Button>
        <Button type="submit" name="intent" value="save-rescore" variant="secondary" pendingText={t.common.saving}>
          {t.forms.editor.saveAndRescore}
        </Button>
      </div>
    </AlertPanel>
  );
}
