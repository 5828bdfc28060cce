import { type FieldMetadata, type IntentDispatcher, parseSubmission, useForm, useFormData } from "@conform-to/react/future";
import { useEffect, useRef, type ReactNode } from "react";
import { Form } from "react-router";
import {
  LIST_INTENT,
  draftFromValue,
  draftTotals,
  emptyOption,
  emptyQuestion,
  emptyRange,
  previewBands,
  type DraftQuestion,
  type DraftRange,
  type FormDraft,
} from "~/features/forms/form-draft.ts";
import { QUESTION_TYPES, type QuestionType } from "~/features/forms/question-types.ts";
import { type AchievableTotals, uncoveredTotals, unreachableBands } from "~/features/scoring/achievable.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { ScoreBadge } from "./badge.tsx";
import { Button } from "./button.tsx";
import { CsrfInput } from "./csrf-input.tsx";
import { cx } from "./cx.ts";
import { ErrorSummary } from "./error-summary.tsx";
import { Checkbox, Field, Select, TextArea } from "./field.tsx";
import { PlusIcon } from "./icons.tsx";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { type PageResult, pageFormOptions } from "./page-form.ts";

type Intent = IntentDispatcher<FormDraft>;
type QuestionField = FieldMetadata<DraftQuestion, string[]>;
type RangeField = FieldMetadata<DraftRange, string[]>;

/**
 * The form editor: one Conform form over the draft. Adding, removing and moving questions, options
 * and score ranges are Conform's list intents (`insert`, `remove`, `reorder`) on submit buttons:
 * with JavaScript Conform applies them in the page at once; without it the button posts and the
 * action applies the same intent and answers the editor, values kept. "Save" is the action's to
 * validate, with the API's schema; its errors come back next to their fields.
 */
export function FormEditor({
  draft,
  result,
  validation,
  submitLabel,
}: {
  draft: FormDraft;
  result: PageResult | undefined;
  validation: ClientValidation;
  submitLabel: string;
}) {
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  // The details (title, ...) are checked in the browser; the lists, whose rules span items
  // (overlapping ranges, options per type), by the action.
  const { form, fields, intent } = useForm<FormDraft, string[]>({ ...pageFormOptions(validation, result), defaultValue: draft });
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
  const ranges = fields.scoreRanges.getFieldList();
  // With JavaScript, the options shown and the preview of the bands follow the fields as typed.
  const types = useFormData(
    formRef,
    (data) => questions.map((question, i) => (data.get(`questions[${i}].type`) ?? question.getFieldset().type.defaultValue) as QuestionType),
    { fallback: questions.map((question) => question.getFieldset().type.defaultValue as QuestionType) },
  );
  const typedRanges = useFormData(formRef, (data) => ranges.map((_, i) => rangeOf((name) => data.get(`scoreRanges[${i}].${name}`) ?? "")), {
    fallback: ranges.map((range) => rangeOf((name) => range.getFieldset()[name].defaultValue)),
  });
  // The totals the questions can give, as typed (with JavaScript) or as last posted (without).
  const posted = result ? draftFromValue(result.targetValue ?? result.submission.payload) : draft;
  const totals = useFormData(formRef, (data) => draftTotals(draftFromValue(parseSubmission(data).payload)), { fallback: draftTotals(posted) });
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
              type={types[i] ?? "SINGLE_CHOICE"}
              intent={intent}
              listName={fields.questions.name}
              focusOn={focusOn}
            />
          ))}
        </ol>
        {fields.questions.errors ? (
          <p id="questions-error" className="mt-3 text-sm font-medium text-red-700">
            {fields.questions.errors[0]}
          </p>
        ) : null}
        <Button
          type="submit"
          name={LIST_INTENT}
          value={intent.insert.serialize({ name: fields.questions.name, defaultValue: emptyQuestion() })}
          onClick={focusOn(`questions[${questions.length}].text`)}
          disabled={questions.length >= 200}
          variant="secondary"
          className="mt-4"
          icon={<PlusIcon className="size-4" />}
          formNoValidate
        >
          {t.forms.editor.addQuestion}
        </Button>
      </EditorSection>

      <EditorSection title={t.forms.editor.scoreRanges} description={t.forms.editor.scoreRangesHelp}>
        <ol className="space-y-4">
          {ranges.map((range, i) => (
            <RangeEditor key={range.key} range={range} index={i} intent={intent} listName={fields.scoreRanges.name} />
          ))}
        </ol>
        {fields.scoreRanges.errors ? (
          <p id="scoreRanges-error" className="mt-3 text-sm font-medium text-red-700">
            {fields.scoreRanges.errors[0]}
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap gap-2">
          <Button
            type="submit"
            name={LIST_INTENT}
            value={intent.insert.serialize({ name: fields.scoreRanges.name, defaultValue: emptyRange(ranges.length) })}
            onClick={focusOn(`scoreRanges[${ranges.length}].label`)}
            disabled={ranges.length >= 20}
            variant="secondary"
            icon={<PlusIcon className="size-4" />}
            formNoValidate
          >
            {t.forms.editor.addRange}
          </Button>
        </div>
        <ScoreCoverage totals={totals} ranges={typedRanges} />
        <BandPreview ranges={typedRanges} />
      </EditorSection>

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
        <Button type="submit" name="intent" value="save" variant="primary" size="lg" pendingText={t.common.saving}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}

/** A control's name, id, value and errors from its Conform field (the id is its name, so a label or a test finds it). */
function control(field: { name: string; errors: string[] | undefined; defaultValue: string | undefined }) {
  return { name: field.name, id: field.name, error: field.errors, defaultValue: field.defaultValue };
}

type Dictionary = ReturnType<typeof useT>;
const DETAILS = ["title", "description", "category", "type", "targetAudience"] as const;

/** What the editor calls a field of the draft, by its name (`questions[0].options[1].text`), for the error summary. */
function editorLabel(t: Dictionary, name: string): string | undefined {
  const f = t.forms.fields;
  const detail = DETAILS.find((field) => field === name);
  if (detail) return f[detail];
  if (name === "questions") return t.forms.editor.questions;
  if (name === "scoreRanges") return t.forms.editor.scoreRanges;
  const [, list, i, rest] = /^(questions|scoreRanges)\[(\d+)\](.*)$/.exec(name) ?? [];
  const n = Number(i) + 1;
  if (list === "scoreRanges") {
    const labels = { "": t.forms.editor.range(n), ".label": f.rangeLabelOf(n), ".min": f.minOf(n), ".max": f.maxOf(n), ".color": f.colorOf(n) };
    return labels[rest as keyof typeof labels];
  }
  if (list !== "questions") return undefined;
  const [, j, option] = /^\.options\[(\d+)\]\.(text|score)$/.exec(rest ?? "") ?? [];
  if (option) return option === "text" ? f.optionText(n, Number(j) + 1) : f.optionScore(n, Number(j) + 1);
  const labels = { "": t.forms.editor.question(n), ".text": f.questionText(n), ".type": f.questionType(n), ".options": t.forms.editor.options(n) };
  return labels[rest as keyof typeof labels];
}

/** A control's id is its name; a list's or a group's error has the id `<name>-error`. */
const editorTarget = (name: string) => (/^(questions|scoreRanges)$|\]$|\.options$/.test(name) ? `${name}-error` : name);

const rangeOf = (value: (name: keyof DraftRange) => string): DraftRange => ({
  min: value("min"),
  max: value("max"),
  label: value("label"),
  color: value("color"),
});

function EditorSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
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
function IntentButton({
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

function QuestionEditor({
  question,
  index: i,
  count,
  type,
  intent,
  listName,
  focusOn,
}: {
  question: QuestionField;
  index: number;
  count: number;
  type: QuestionType;
  intent: Intent;
  listName: string;
  focusOn: (name: string) => () => void;
}) {
  const t = useT();
  const n = i + 1;
  const fields = question.getFieldset();
  const options = fields.options.getFieldList();
  const optionsError = fields.options.errors?.[0];
  const optionsErrorId = `${fields.options.name}-error`;
  const textOf = (index: number) => `${listName}[${index}].text`;
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
      <div className="mt-3 grid gap-4 sm:grid-cols-3">
        <TextArea className="sm:col-span-2" label={t.forms.fields.questionText(n)} {...control(fields.text)} rows={2} required />
        <div className="space-y-3">
          <Select
            label={t.forms.fields.questionType(n)}
            {...control(fields.type)}
            options={QUESTION_TYPES.map((value) => ({ value, label: t.forms.questionTypes[value] }))}
          />
          <Checkbox label={t.forms.fields.required} name={fields.required.name} id={fields.required.name} defaultChecked={fields.required.defaultChecked} />
        </div>
      </div>
      <ScaleEditor question={question} n={n} />
      <div hidden={type === "TEXT"} className="mt-4">
        <fieldset aria-describedby={[optionsError ? optionsErrorId : "", type === "SCALE" ? `${fields.options.name}-help` : ""].join(" ").trim() || undefined}>
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
                  className="grid grid-cols-[1fr_6rem] items-start gap-2 rounded-md bg-white p-2 ring-1 ring-slate-200 sm:grid-cols-[1fr_7rem_10rem]"
                >
                  <input type="hidden" name={o.id.name} defaultValue={o.id.defaultValue} />
                  <Field label={t.forms.fields.optionText(n, m)} {...control(o.text)} />
                  <Field label={t.forms.fields.score} {...control(o.score)} inputMode="decimal" aria-label={t.forms.fields.optionScore(n, m)} />
                  <div className="col-span-2 flex flex-wrap justify-end gap-1 sm:col-span-1 sm:mt-6">
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
                </li>
              );
            })}
          </ol>
          {optionsError ? (
            <p id={optionsErrorId} className="mt-2 text-sm font-medium text-red-700">
              {optionsError}
            </p>
          ) : null}
          <Button
            type="submit"
            name={LIST_INTENT}
            value={intent.insert.serialize({ name: fields.options.name, defaultValue: emptyOption() })}
            onClick={focusOn(`${fields.options.name}[${options.length}].text`)}
            disabled={options.length >= 50}
            variant="secondary"
            size="sm"
            className="mt-2"
            icon={<PlusIcon className="size-4" />}
            formNoValidate
            aria-label={t.forms.editor.addOptionTo(n)}
          >
            {t.forms.editor.addOption}
          </Button>
        </fieldset>
      </div>
      {type === "TEXT" ? <p className="mt-3 text-sm text-slate-600">{t.forms.editor.textHelp}</p> : null}
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

/**
 * What totals the questions allow, and what the bands leave out: a band no total can reach is
 * refused on save; totals without a band are only pointed out (a form may leave them on purpose).
 */
function ScoreCoverage({ totals, ranges }: { totals: AchievableTotals; ranges: DraftRange[] }) {
  const t = useT();
  const format = useFormat();
  if (!totals.scored) return <p className="mt-4 text-sm text-slate-600">{t.forms.editor.totalsNone}</p>;
  // Bands as typed, by their position in the list (the numbers the editor shows).
  const typed = ranges.map((range) => ({
    min: Number(range.min.replace(",", ".")),
    max: Number(range.max.replace(",", ".")),
    complete: range.min.trim() !== "" && range.max.trim() !== "",
  }));
  const complete = typed.filter((band) => band.complete && Number.isFinite(band.min) && Number.isFinite(band.max));
  const unreachable = unreachableBands(
    typed.map((band) => (band.complete ? band : { min: Number.NaN, max: Number.NaN })),
    totals,
  ).filter((index) => typed[index]?.complete);
  const gaps = uncoveredTotals(complete, totals);
  return (
    <div className="mt-4 space-y-1 text-sm" aria-live="polite" data-testid="score-coverage">
      <p className="font-medium text-slate-900">{t.forms.editor.totals(format.number(totals.min), format.number(totals.max))}</p>
      {unreachable.map((index) => (
        <p key={`u${index}`} className="font-medium text-red-700">
          {t.forms.editor.unreachable(index + 1)}
        </p>
      ))}
      {gaps.map((gap) => (
        <p key={`g${gap.from}`} className="text-amber-800">
          {totals.whole
            ? t.forms.editor.gap(format.number(gap.from), format.number(gap.to))
            : t.forms.editor.gapBetween(format.number(gap.from), format.number(gap.to))}
        </p>
      ))}
    </div>
  );
}

function RangeEditor({ range, index: i, intent, listName }: { range: RangeField; index: number; intent: Intent; listName: string }) {
  const t = useT();
  const n = i + 1;
  const fields = range.getFieldset();
  const rangeError = range.errors?.[0];
  const rangeErrorId = `${range.name}-error`;
  return (
    <li className={cx("rounded-lg border bg-slate-50 p-4", rangeError ? "border-red-600" : "border-slate-300")}>
      <fieldset aria-describedby={rangeError ? rangeErrorId : undefined}>
        <legend className="font-semibold text-slate-900">{t.forms.editor.range(n)}</legend>
        {rangeError ? (
          <p id={rangeErrorId} className="mt-1 text-sm font-medium text-red-700">
            {rangeError}
          </p>
        ) : null}
        <div className="mt-3 grid grid-cols-2 items-start gap-3 sm:grid-cols-[2fr_1fr_1fr_auto_auto]">
          <Field
            className="col-span-2 sm:col-span-1"
            label={t.forms.fields.rangeLabel}
            {...control(fields.label)}
            aria-label={t.forms.fields.rangeLabelOf(n)}
          />
          <Field label={t.forms.fields.min} {...control(fields.min)} inputMode="decimal" aria-label={t.forms.fields.minOf(n)} />
          <Field label={t.forms.fields.max} {...control(fields.max)} inputMode="decimal" aria-label={t.forms.fields.maxOf(n)} />
          <div>
            <label htmlFor={fields.color.name} className="block text-sm font-medium text-slate-900">
              {t.forms.fields.color}
            </label>
            <input
              type="color"
              id={fields.color.name}
              name={fields.color.name}
              defaultValue={fields.color.defaultValue}
              aria-label={t.forms.fields.colorOf(n)}
              aria-invalid={fields.color.errors ? true : undefined}
              className="mt-1.5 block h-10 w-16 cursor-pointer rounded-md border border-slate-400 bg-white p-1"
            />
            {fields.color.errors ? <p className="mt-1.5 text-sm font-medium text-red-700">{fields.color.errors[0]}</p> : null}
          </div>
          <div className="flex justify-end sm:mt-6">
            <IntentButton value={intent.remove.serialize({ name: listName, index: i })} label={t.forms.editor.removeRange(n)}>
              {t.forms.editor.remove}
            </IntentButton>
          </div>
        </div>
      </fieldset>
    </li>
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
