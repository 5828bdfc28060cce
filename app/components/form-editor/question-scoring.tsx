import type { FieldMetadata } from "@conform-to/react/future";
import { useEffect, useRef } from "react";
import { type DraftOption, type DraftQuestion, LIST_INTENT, type ScoredDraftQuestion } from "~/features/forms/form-draft.ts";
import { mirroredScore } from "~/features/scoring/items.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { Button } from "../button.tsx";
import { Checkbox } from "../field.tsx";
import type { EditorIntent } from "./parts.tsx";

/**
 * A question's part in scoring beyond one total (docs/api-contract.md §15, §16, §22): whether it is
 * reverse scored (with what each option then counts), which options are critical and which correct,
 * a warning when every option scores the same, and "Apply these options to all questions" of its type.
 */

export function ReverseScored({ question, n }: { question: FieldMetadata<DraftQuestion, string[]>; n: number }) {
  const t = useT();
  const field = question.getFieldset().reverseScored;
  return (
    <Checkbox
      label={t.forms.fields.reverseScored}
      description={t.forms.fields.reverseScoredHint}
      name={field.name}
      id={field.name}
      defaultChecked={field.defaultChecked}
      aria-label={t.forms.fields.reverseScoredOf(n)}
      error={field.errors}
    />
  );
}

/** An option's mark: critical (it flags the result), or correct (part of the question's answer key). */
export function OptionMark({ option, n, m, mark }: { option: FieldMetadata<DraftOption, string[]>; n: number; m: number; mark: "critical" | "correct" }) {
  const t = useT();
  const field = option.getFieldset()[mark];
  return (
    <Checkbox
      label={t.forms.fields[mark]}
      name={field.name}
      id={field.name}
      defaultChecked={field.defaultChecked}
      aria-label={mark === "critical" ? t.forms.fields.optionCriticalOf(n, m) : t.forms.fields.optionCorrectOf(n, m)}
    />
  );
}

/** What each option counts once mirrored, beside its own score ("3 → 0"): shown while the question is reverse scored. */
export function MirroredScores({ question }: { question: ScoredDraftQuestion | undefined }) {
  const t = useT();
  const format = useFormat();
  if (!question?.reverseScored || question.type === "TEXT" || question.options.length === 0) return null;
  const scores = question.options.map((option) => option.score);
  const pairs = question.options.map((option, j) =>
    t.forms.editor.mirroredPair(option.text.trim() || String(j + 1), format.number(option.score), format.number(mirroredScore(option.score, scores))),
  );
  return (
    <p className="mt-3 rounded-md bg-indigo-50 px-3 py-2 text-sm text-slate-800" data-testid="mirrored-scores">
      <span className="font-medium">{t.forms.editor.mirrored}</span> <span className="tabular-nums">{format.list(pairs)}</span>
    </p>
  );
}

/** A question whose options all give one score: it adds the same to every total (ADR 74). */
export function OneScoreNote({ question }: { question: ScoredDraftQuestion }) {
  const t = useT();
  const format = useFormat();
  return (
    <p className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="one-score-note">
      {t.forms.editor.oneScore(format.number(question.options[0]?.score ?? 0))}
    </p>
  );
}

/**
 * "Apply these options to all questions": asked first in a <details> that names the questions it
 * changes, so it works without JavaScript; its button is the editor's `copyOptions` list intent
 * (applied in the page with JavaScript, by the action without). `copied`: the questions it has just
 * changed, said once it is done.
 */
export function ApplyOptions({
  index: i,
  type,
  optionCount,
  targets,
  copied,
  intent,
  onCopy,
}: {
  index: number;
  type: DraftQuestion["type"];
  optionCount: number;
  targets: number[];
  copied: number[] | null;
  intent: EditorIntent;
  onCopy: () => void;
}) {
  const t = useT();
  const format = useFormat();
  const n = i + 1;
  const status = useRef<HTMLParagraphElement>(null);
  // The questions were drawn anew: the focus goes to what was done.
  useEffect(() => {
    if (copied) status.current?.focus();
  }, [copied]);
  const numbers = (list: number[]) => format.list(list.map((index) => String(index + 1)));
  return (
    <div className="mt-3">
      {copied ? (
        <p
          ref={status}
          role="status"
          tabIndex={-1}
          // Without JavaScript the page the action answers opens here.
          // biome-ignore lint/a11y/noAutofocus: the copy just made is where the teacher was
          autoFocus
          className="mb-2 rounded-md bg-green-50 px-3 py-2 text-sm font-medium text-green-900 outline-none focus:ring-2 focus:ring-green-700"
        >
          {t.forms.editor.applyOptionsDone(copied.length, numbers(copied))}
        </p>
      ) : null}
      {targets.length > 0 ? (
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-indigo-700 hover:underline">
            {t.forms.editor.applyOptions}
            <span className="sr-only"> {t.forms.editor.applyOptionsOf(n)}</span>
          </summary>
          <div className="mt-2 rounded-md border border-slate-300 bg-white p-3">
            <p className="text-slate-700">
              {type === "SCALE"
                ? t.forms.editor.applyPointsText(targets.length, numbers(targets))
                : t.forms.editor.applyOptionsText(targets.length, numbers(targets), optionCount)}
            </p>
            <Button
              type="submit"
              name={LIST_INTENT}
              value={intent.copyOptions.serialize({ from: i })}
              onClick={onCopy}
              variant="secondary"
              size="sm"
              className="mt-2"
              formNoValidate
            >
              {t.forms.editor.applyOptionsConfirm}
              <span className="sr-only"> {t.forms.editor.applyOptionsOf(n)}</span>
            </Button>
          </div>
        </details>
      ) : null}
    </div>
  );
}
