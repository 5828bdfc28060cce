import { type FieldMetadata, parseSubmission, useForm, useFormData } from "@conform-to/react/future";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import {
  copyTargets,
  DRAFT_LIMITS,
  draftFromValue,
  draftKeys,
  draftTotals,
  EDITOR_INTENTS,
  emptyOption,
  emptyQuestion,
  newQuestionRef,
  oneScoreQuestions,
  previewBands,
  scoredDraftQuestion,
  type DraftQuestion,
  type DraftRange,
  type EditorWarnings,
  type FormDraft,
  type ScoredDraftQuestion,
} from "~/features/forms/form-draft.ts";
import { QUESTION_TYPES, type QuestionType } from "~/features/forms/question-types.ts";
import { REVIEW_POLICIES } from "~/features/forms/review-policies.ts";
import { isKeyed } from "~/features/scoring/answer-key.ts";
import { isScoredQuestion } from "~/features/scoring/items.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { ScoreBadge } from "./badge.tsx";
import { cx } from "./cx.ts";
import { type EditorImages, QuestionImage } from "./form-editor/question-image.tsx";
import { Button } from "./button.tsx";
import { CsrfInput } from "./csrf-input.tsx";
import { ErrorSummary } from "./error-summary.tsx";
import { Checkbox, Field, Select, TextArea } from "./field.tsx";
import { BandList, ScoreCoverage } from "./form-editor/bands.tsx";
import { ChangeOverTime } from "./form-editor/change-over-time.tsx";
import { CriticalMessage } from "./form-editor/critical-message.tsx";
import { OneScoreWarning } from "./form-editor/one-score-warning.tsx";
import { NewVersionWarning, QuestionFeedback, QuestionPoints } from "./form-editor/answer-key-fields.tsx";
import { AddButton, control, EditorSection, type EditorIntent, type FocusOn, IntentButton } from "./form-editor/parts.tsx";
import { ApplyOptions, MirroredScores, OneScoreNote, OptionMark, ReverseScored } from "./form-editor/question-scoring.tsx";
import { ScoringSettings } from "./form-editor/scoring-settings.tsx";
import { SubscalesEditor } from "./form-editor/subscales.tsx";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { useHydrated } from "./use-hydrated.ts";
import { type PageResult, pageFormOptions } from "./page-form.ts";

type QuestionField = FieldMetadata<DraftQuestion, string[]>;

/** The editor action's answer: a Conform result, with the warnings of a save held back (ADR 74). */
export type EditorPageResult = PageResult & { warnings?: EditorWarnings };

/**
 * The form editor: one Conform form over the draft. Adding, removing and moving questions, options,
 * score ranges and subscales are Conform's list intents (`insert`, `remove`, `reorder`) on submit
 * buttons, and "Apply these options to all questions" is the editor's own (`copyOptions`): with
 * JavaScript Conform applies them in the page at once; without it the button posts and the action
 * applies the same intent and answers the editor, values kept. "Save" is the action's to validate,
 * with the API's schema; its errors come back next to their fields, and a form with questions that
 * give one score whatever the answer comes back asking "Save anyway" (ADR 74).
 */
export function FormEditor({
  draft,
  result,
  validation,
  submitLabel,
  images,
}: {
  draft: FormDraft;
  result: EditorPageResult | undefined;
  validation: ClientValidation;
  submitLabel: string;
  /** A saved form's images of questions and options, each with a small form of its own (docs/api-contract.md §22). */
  images?: EditorImages;
}) {
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  // The details (title, ...) are checked in the browser; the lists, whose rules span items
  // (overlapping ranges, options per type, keys, subscales), by the action.
  const { form, fields, intent } = useForm<FormDraft, string[], undefined, typeof EDITOR_INTENTS>({
    ...pageFormOptions(validation, result),
    defaultValue: draft,
    intents: EDITOR_INTENTS,
  });
  // Where the focus goes once an editing intent has redrawn the editor (with JavaScript; without
  // it the page loads afresh): the field the change made or moved, not the top of the page.
  const focusNext = useRef<string | null>(null);
  const focusOn = (name: string) => () => {
    focusNext.current = name;
  };
  useEffect(() => {
    if (!focusNext.current) return;
    const target = formRef.current?.querySelector<HTMLElement>(`[name="${focusNext.current}"]`);
    // A render before the list's redraw (a pending button, a validation) finds no field yet: keep
    // the request for the render that draws it.
    if (!target) return;
    target.focus();
    focusNext.current = null;
  });

  const questions = fields.questions.getFieldList();
  // The draft as typed (with JavaScript) or as last posted (without): the options shown, the totals,
  // the reverse scores, the questions a subscale may add up and the warnings follow it.
  const posted = result ? draftFromValue(result.targetValue ?? result.submission.payload) : draft;
  const live = useFormData(formRef, (data) => draftFromValue(parseSubmission(data).payload), { fallback: posted });
  const scored = live.questions.map(scoredDraftQuestion);
  const keys = draftKeys(live.questions);
  const totals = draftTotals(live);
  const oneScore = oneScoreQuestions(scored);
  // "Apply these options": the question copied from (with JavaScript; without, the post says) and the questions it changed.
  // Said until the action's next answer (a save), which has news of its own.
  const [copy, setCopy] = useState<{ from: number; result: EditorPageResult | undefined } | null>(null);
  const copiedFrom = copy && copy.result === result ? copy.from : null;
  const postedCopy = questions.findIndex((_, i) => result?.submission.intent === intent.copyOptions.serialize({ from: i }));
  const copied = copiedFrom ?? (postedCopy === -1 ? null : postedCopy);
  const errorCount = Object.keys(form.fieldErrors).length;
  return (
    <Form ref={formRef} method="post" className="space-y-8" {...form.props}>
      {/* The first submit button is the one Enter presses: make it Save, not "Move down". */}
      <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true">
        {submitLabel}
      </button>
      <CsrfInput />
      {/* After a refused save the focus goes here; its links go to the fields to fix. */}
      <ErrorSummary form={form} title={t.forms.editor.fixErrors(errorCount)} label={(name) => editorLabel(t, name)} target={editorTarget} />
      {result?.warnings?.version ? <NewVersionWarning warning={result.warnings.version} answer={result} /> : null}
      {result?.warnings && !result.warnings.version ? <OneScoreWarning questions={scored} indexes={oneScore} answer={result} /> : null}

      <EditorSection title={t.forms.editor.details}>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field className="sm:col-span-2" label={t.forms.fields.title} {...control(fields.title)} required maxLength={200} />
          <TextArea className="sm:col-span-2" label={t.forms.fields.description} {...control(fields.description)} rows={3} />
          <Field label={t.forms.fields.category} {...control(fields.category)} />
          <Field label={t.forms.fields.type} {...control(fields.type)} />
          <Field className="sm:col-span-2" label={t.forms.fields.targetAudience} {...control(fields.targetAudience)} />
          <Checkbox
            className="sm:col-span-2"
            label={t.forms.fields.showResultToRespondent}
            description={t.forms.fields.showResultToRespondentHint}
            name={fields.showResultToRespondent.name}
            id={fields.showResultToRespondent.name}
            defaultChecked={fields.showResultToRespondent.defaultChecked}
          />
          {(["shuffleQuestions", "shuffleOptions"] as const).map((name) => (
            <Checkbox
              key={name}
              className="sm:col-span-2"
              label={t.forms.fields[name]}
              description={t.forms.fields[`${name}Hint`]}
              name={fields[name].name}
              id={fields[name].name}
              defaultChecked={fields[name].defaultChecked}
            />
          ))}
          <Select
            className="sm:col-span-2"
            label={t.forms.fields.review}
            description={t.forms.fields.reviewHint}
            {...control(fields.review)}
            options={REVIEW_POLICIES.map((value) => ({ value, label: t.forms.fields.reviews[value] }))}
          />
        </div>
      </EditorSection>

      <EditorSection title={t.forms.editor.questions} description={t.forms.editor.questionsHelp}>
        <ol className="space-y-5">
          {questions.map((question, i) => (
            <QuestionEditor
              key={question.key}
              question={question}
              index={i}
              count={questions.length}
              type={live.questions[i]?.type ?? "SINGLE_CHOICE"}
              typed={live.questions[i]}
              scored={scored[i]}
              positionKey={`q${i + 1}`}
              oneScore={oneScore.includes(i)}
              copyTargets={copyTargets(live.questions, i)}
              copied={copied === i ? copyTargets(live.questions, i) : null}
              onCopy={() => setCopy({ from: i, result })}
              intent={intent}
              listName={fields.questions.name}
              focusOn={focusOn}
              imageSlot={
                images ? (
                  <QuestionImage
                    questionId={live.questions[i]?.id || undefined}
                    n={i + 1}
                    optionIds={live.questions[i]?.type === "TEXT" ? [] : (live.questions[i]?.options.map((option) => option.id) ?? [])}
                    images={images}
                  />
                ) : null
              }
            />
          ))}
        </ol>
        {fields.questions.errors ? (
          <p id="questions-error" className="mt-3 text-sm font-medium text-red-700">
            {fields.questions.errors[0]}
          </p>
        ) : null}
        <AddButton
          value={intent.insert.serialize({ name: fields.questions.name, defaultValue: emptyQuestion(newQuestionRef(live.questions)) })}
          onClick={focusOn(`questions[${questions.length}].text`)}
          disabled={questions.length >= DRAFT_LIMITS.questions}
          className="mt-4"
        >
          {t.forms.editor.addQuestion}
        </AddButton>
      </EditorSection>

      <ScoringSettings scoring={fields.scoring} />

      <EditorSection title={t.forms.editor.scoreRanges} description={t.forms.editor.scoreRangesHelp}>
        <BandList
          list={fields.scoreRanges}
          intent={intent}
          focusOn={focusOn}
          words={{
            range: t.forms.editor.range,
            remove: t.forms.editor.removeRange,
            labelOf: t.forms.fields.rangeLabelOf,
            minOf: t.forms.fields.minOf,
            maxOf: t.forms.fields.maxOf,
            colorOf: t.forms.fields.colorOf,
            criticalOf: t.forms.fields.rangeCriticalOf,
            add: t.forms.editor.addRange,
          }}
        />
        <ScoreCoverage
          testId="score-coverage"
          totals={totals}
          ranges={live.scoreRanges}
          words={{
            range: t.forms.editor.totals,
            none: t.forms.editor.totalsNone,
            unreachable: t.forms.editor.unreachable,
            gap: t.forms.editor.gap,
            gapBetween: t.forms.editor.gapBetween,
          }}
        />
        <BandPreview ranges={live.scoreRanges} />
      </EditorSection>

      <ChangeOverTime
        lowerIsBetter={fields.lowerIsBetter}
        reliableChange={fields.reliableChange}
        remissionBelow={fields.remissionBelow}
        typed={live.reliableChange}
      />

      <SubscalesEditor
        list={fields.subscales}
        live={live}
        questions={live.questions.map((question, i) => ({
          ref: question.ref,
          key: keys[i]!,
          text: question.text,
          scored: !!scored[i] && isScoredQuestion(scored[i]),
        }))}
        intent={intent}
        focusOn={focusOn}
      />

      <CriticalMessage field={fields.criticalMessage} />

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
        <Button type="submit" name="intent" value="save" variant="primary" size="lg" pendingText={t.common.saving}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}

type Dictionary = ReturnType<typeof useT>;
const DETAILS = ["title", "description", "category", "type", "targetAudience"] as const;

/** What the editor calls a field of the draft, by its name (`questions[0].options[1].text`), for the error summary. */
function editorLabel(t: Dictionary, name: string): string | undefined {
  const f = t.forms.fields;
  const e = t.forms.editor;
  const detail = DETAILS.find((field) => field === name);
  if (detail) return f[detail];
  const whole: Record<string, string> = {
    questions: e.questions,
    scoreRanges: e.scoreRanges,
    subscales: e.subscales,
    criticalMessage: f.criticalMessage,
    "scoring.method": f.scoringMethod,
    "scoring.multiplier": f.multiplier,
    "scoring.maxMissing": f.maxMissing,
    "scoring.display": f.display,
    review: f.review,
    lowerIsBetter: f.lowerIsBetter,
    reliableChange: e.reliableChange,
    "reliableChange.sd": f.standardDeviation,
    "reliableChange.reliability": f.reliability,
    remissionBelow: f.remissionBelow,
  };
  if (whole[name]) return whole[name];
  const [, list, i, rest = ""] = /^(questions|scoreRanges|subscales)\[(\d+)\](.*)$/.exec(name) ?? [];
  const n = Number(i) + 1;
  if (list === "scoreRanges") {
    const labels = { "": e.range(n), ".label": f.rangeLabelOf(n), ".min": f.minOf(n), ".max": f.maxOf(n), ".color": f.colorOf(n) };
    return labels[rest as keyof typeof labels];
  }
  if (list === "subscales") {
    const [, b, field = ""] = /^\.scoreRanges\[(\d+)\](.*)$/.exec(rest) ?? [];
    if (b !== undefined) {
      const m = Number(b) + 1;
      const labels = {
        "": e.subscaleRange(n, m),
        ".label": f.subscaleRangeLabelOf(n, m),
        ".min": f.subscaleMinOf(n, m),
        ".max": f.subscaleMaxOf(n, m),
        ".color": f.subscaleColorOf(n, m),
      };
      return labels[field as keyof typeof labels];
    }
    const labels = {
      "": e.subscale(n),
      ".key": f.subscaleKeyOf(n),
      ".name": f.subscaleNameOf(n),
      ".method": f.subscaleMethodOf(n),
      ".multiplier": f.subscaleMultiplierOf(n),
      ".items": e.subscaleItems(n),
      ".scoreRanges": e.subscaleRanges(n),
      ".reliableChange.sd": f.subscaleStandardDeviationOf(n),
      ".reliableChange.reliability": f.subscaleReliabilityOf(n),
      ".remissionBelow": f.subscaleRemissionBelowOf(n),
    };
    return labels[rest as keyof typeof labels];
  }
  if (list !== "questions") return undefined;
  const [, j, option] = /^\.options\[(\d+)\]\.(text|score|feedback)$/.exec(rest) ?? [];
  if (option) {
    const m = Number(j) + 1;
    return option === "text" ? f.optionText(n, m) : option === "score" ? f.optionScore(n, m) : f.optionFeedbackOf(n, m);
  }
  const labels = {
    "": e.question(n),
    ".text": f.questionText(n),
    ".type": f.questionType(n),
    ".key": f.questionKeyOf(n),
    ".options": e.options(n),
    ".scale.min": f.scaleMinOf(n),
    ".scale.max": f.scaleMaxOf(n),
    ".reverseScored": f.reverseScoredOf(n),
    ".points": f.pointsOf(n),
    ".scoringRule": f.scoringRuleOf(n),
    ".feedback": f.questionFeedbackOf(n),
  };
  return labels[rest as keyof typeof labels];
}

/** A control's id is its name; a list's or a group's error has the id `<name>-error`. */
const editorTarget = (name: string) => (/^(questions|scoreRanges|subscales)$|\]$|\.(options|items|scoreRanges)$/.test(name) ? `${name}-error` : name);

function QuestionEditor({
  question,
  index: i,
  count,
  type,
  typed,
  scored,
  positionKey,
  oneScore,
  copyTargets: targets,
  copied,
  onCopy,
  intent,
  listName,
  focusOn,
  imageSlot,
}: {
  question: QuestionField;
  index: number;
  count: number;
  type: QuestionType;
  /** The question as typed (with JavaScript) or as last posted. */
  typed: DraftQuestion | undefined;
  /** The question as it will be stored, as typed. */
  scored: ScoredDraftQuestion | undefined;
  /** The key it has when none is given: `q<position>`. */
  positionKey: string;
  oneScore: boolean;
  copyTargets: number[];
  copied: number[] | null;
  onCopy: () => void;
  intent: EditorIntent;
  listName: string;
  focusOn: FocusOn;
  imageSlot?: ReactNode;
}) {
  const t = useT();
  const n = i + 1;
  const fields = question.getFieldset();
  const options = fields.options.getFieldList();
  const optionsError = fields.options.errors?.[0];
  const optionsErrorId = `${fields.options.name}-error`;
  const textOf = (index: number) => `${listName}[${index}].text`;
  // An empty score is 0, or on a scale with its range the point's value: shown as the field's placeholder.
  const scaleMin = type === "SCALE" ? Number(typed?.scale.min.trim() || Number.NaN) : Number.NaN;
  const emptyScore = (j: number) => (Number.isInteger(scaleMin) ? String(scaleMin + j) : "0");
  const choice = type === "SINGLE_CHOICE" || type === "MULTIPLE_CHOICE";
  // Graded by its key, the options' scores are not used: with JavaScript they are put away (still
  // posted, so they come back should the points go); without it the hint says so.
  const keyed = isKeyed({ type, points: scored?.points });
  const hydrated = useHydrated();
  const hideScores = keyed && hydrated;
  return (
    <li className="question-editor rounded-lg border border-slate-300 bg-slate-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900">{t.forms.editor.question(n)}</h3>
        <div className="flex flex-wrap gap-1">
          <IntentButton
            value={intent.reorder.serialize({ name: listName, from: i, to: i - 1 })}
            label={t.forms.editor.moveQuestionUp(n)}
            disabled={i === 0}
            onClick={focusOn(textOf(i - 1))}
          >
            ↑ {t.forms.editor.up}
          </IntentButton>
          <IntentButton
            value={intent.reorder.serialize({ name: listName, from: i, to: i + 1 })}
            label={t.forms.editor.moveQuestionDown(n)}
            disabled={i === count - 1}
            onClick={focusOn(textOf(i + 1))}
          >
            ↓ {t.forms.editor.down}
          </IntentButton>
          <IntentButton
            value={intent.remove.serialize({ name: listName, index: i })}
            label={t.forms.editor.removeQuestion(n)}
            onClick={focusOn(textOf(Math.min(i, count - 2)))}
          >
            {t.forms.editor.remove}
          </IntentButton>
        </div>
      </div>
      <input type="hidden" name={fields.id.name} defaultValue={fields.id.defaultValue} />
      <input type="hidden" name={fields.ref.name} defaultValue={fields.ref.defaultValue} />
      <div className="mt-3 grid gap-4 sm:grid-cols-3">
        <TextArea className="sm:col-span-2" label={t.forms.fields.questionText(n)} {...control(fields.text)} rows={2} required />
        <div className="space-y-3">
          <Select
            label={t.forms.fields.questionType(n)}
            {...control(fields.type)}
            options={QUESTION_TYPES.map((value) => ({ value, label: t.forms.questionTypes[value] }))}
          />
          <Field
            label={t.forms.fields.key}
            {...control(fields.key)}
            placeholder={positionKey}
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            aria-label={t.forms.fields.questionKeyOf(n)}
          />
          <Checkbox label={t.forms.fields.required} name={fields.required.name} id={fields.required.name} defaultChecked={fields.required.defaultChecked} />
          <div hidden={type === "TEXT"}>
            <ReverseScored question={question} n={n} />
          </div>
        </div>
      </div>
      <ScaleEditor question={question} n={n} />
      <QuestionPoints question={question} n={n} type={type} typedPoints={typed?.points ?? ""} keyed={keyed} />
      <div hidden={type === "TEXT"} className="mt-4">
        <fieldset
          id={fields.options.name}
          aria-describedby={[optionsError ? optionsErrorId : "", type === "SCALE" ? `${fields.options.name}-help` : ""].join(" ").trim() || undefined}
        >
          <legend className="text-sm font-medium text-slate-900">{type === "SCALE" ? t.forms.editor.points(n) : t.forms.editor.options(n)}</legend>
          {type === "SCALE" ? (
            <p id={`${fields.options.name}-help`} className="mt-1 text-sm text-slate-600">
              {t.forms.editor.pointsHelp}
            </p>
          ) : null}
          <ol className="mt-2 space-y-2">
            {options.map((option, j) => {
              const m = j + 1;
              const o = option.getFieldset();
              const optionText = (index: number) => `${fields.options.name}[${index}].text`;
              return (
                <li
                  key={option.key}
                  className={cx(
                    "grid items-start gap-2 rounded-md bg-white p-2 ring-1 ring-slate-200",
                    hideScores ? "grid-cols-1 sm:grid-cols-[1fr_auto]" : "grid-cols-[1fr_6rem] sm:grid-cols-[1fr_7rem_auto]",
                  )}
                >
                  <input type="hidden" name={o.id.name} defaultValue={o.id.defaultValue} />
                  <Field label={t.forms.fields.optionText(n, m)} {...control(o.text)} />
                  <Field
                    className={hideScores ? "hidden" : undefined}
                    label={t.forms.fields.score}
                    {...control(o.score)}
                    inputMode="decimal"
                    placeholder={emptyScore(j)}
                    aria-label={t.forms.fields.optionScore(n, m)}
                  />
                  <div className={cx("flex flex-wrap items-center justify-between gap-x-4 gap-y-1 sm:col-span-1 sm:mt-6", !hideScores && "col-span-2")}>
                    <div className="flex flex-wrap gap-x-4 gap-y-1">
                      <div hidden={!choice}>
                        <OptionMark option={option} n={n} m={m} mark="correct" />
                      </div>
                      <OptionMark option={option} n={n} m={m} mark="critical" />
                    </div>
                    <div className="flex flex-wrap justify-end gap-1">
                      <IntentButton
                        value={intent.reorder.serialize({ name: fields.options.name, from: j, to: j - 1 })}
                        label={t.forms.editor.moveOptionUp(n, m)}
                        disabled={j === 0}
                        onClick={focusOn(optionText(j - 1))}
                      >
                        ↑
                      </IntentButton>
                      <IntentButton
                        value={intent.reorder.serialize({ name: fields.options.name, from: j, to: j + 1 })}
                        label={t.forms.editor.moveOptionDown(n, m)}
                        disabled={j === options.length - 1}
                        onClick={focusOn(optionText(j + 1))}
                      >
                        ↓
                      </IntentButton>
                      <IntentButton
                        value={intent.remove.serialize({ name: fields.options.name, index: j })}
                        label={t.forms.editor.removeOption(n, m)}
                        onClick={focusOn(optionText(Math.min(j, options.length - 2)))}
                      >
                        {t.forms.editor.remove}
                      </IntentButton>
                    </div>
                  </div>
                </li>
              );
            })}
          </ol>
          {optionsError ? (
            <p id={optionsErrorId} className="mt-2 text-sm font-medium text-red-700">
              {optionsError}
            </p>
          ) : null}
          <AddButton
            value={intent.insert.serialize({ name: fields.options.name, defaultValue: emptyOption() })}
            onClick={focusOn(`${fields.options.name}[${options.length}].text`)}
            disabled={options.length >= DRAFT_LIMITS.options}
            size="sm"
            className="mt-2"
            label={t.forms.editor.addOptionTo(n)}
          >
            {t.forms.editor.addOption}
          </AddButton>
        </fieldset>
        <MirroredScores question={scored} />
        {oneScore && scored ? <OneScoreNote question={scored} /> : null}
        <ApplyOptions index={i} type={type} optionCount={options.length} targets={targets} copied={copied} intent={intent} onCopy={onCopy} />
      </div>
      {type === "TEXT" ? <p className="mt-3 text-sm text-slate-600">{t.forms.editor.textHelp}</p> : null}
      <QuestionFeedback question={question} n={n} type={type} />
      {imageSlot}
    </li>
  );
}

/** A scale's range and the meaning of its ends; its points follow unless the teacher names them. */
function ScaleEditor({ question, n }: { question: QuestionField; n: number }) {
  const t = useT();
  const scale = question.getFieldset().scale.getFieldset();
  return (
    <fieldset className="scale-fields mt-4">
      <legend className="text-sm font-medium text-slate-900">{t.forms.editor.scale(n)}</legend>
      <p className="mt-1 text-sm text-slate-600">{t.forms.editor.scaleHelp}</p>
      <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-[7rem_7rem_1fr_1fr]">
        <Field label={t.forms.fields.scaleMin} {...control(scale.min)} inputMode="numeric" aria-label={t.forms.fields.scaleMinOf(n)} />
        <Field label={t.forms.fields.scaleMax} {...control(scale.max)} inputMode="numeric" aria-label={t.forms.fields.scaleMaxOf(n)} />
        <Field label={t.forms.fields.scaleMinLabel} {...control(scale.minLabel)} maxLength={100} aria-label={t.forms.fields.scaleMinLabelOf(n)} />
        <Field label={t.forms.fields.scaleMaxLabel} {...control(scale.maxLabel)} maxLength={100} aria-label={t.forms.fields.scaleMaxLabelOf(n)} />
      </div>
      {question.getFieldset().scale.errors ? <p className="mt-2 text-sm font-medium text-red-700">{question.getFieldset().scale.errors?.[0]}</p> : null}
    </fieldset>
  );
}

/** The bands as respondents' results will show them, lowest first. */
function BandPreview({ ranges }: { ranges: DraftRange[] }) {
  const t = useT();
  const format = useFormat();
  const bands = previewBands(ranges);
  return (
    <div className="mt-6 rounded-lg border border-dashed border-slate-300 p-4" aria-live="polite">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">{t.forms.editor.preview}</h3>
        <Button type="submit" name="intent" value="preview" variant="ghost" size="sm" formNoValidate>
          {t.forms.editor.updatePreview}
        </Button>
      </div>
      {bands.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t.forms.editor.previewEmpty}</p>
      ) : (
        <ul className="mt-3 flex flex-wrap gap-3" data-testid="band-preview">
          {bands.map((band, i) => (
            <li key={i} className="flex items-center gap-2 text-sm text-slate-700">
              <ScoreBadge label={band.label} color={/^#[0-9a-f]{6}$/i.test(band.color) ? band.color : null} />
              <span className="tabular-nums">{t.forms.editor.between(format.number(band.minValue), format.number(band.maxValue))}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
