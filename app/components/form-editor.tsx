import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form } from "react-router";
import { previewBands, rangesFromForm, type DraftErrors, type DraftQuestion, type DraftRange, type FormDraft } from "~/features/forms/form-draft.ts";
import { QUESTION_TYPES } from "~/features/forms/question-types.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { Alert } from "./alert.tsx";
import { ScoreBadge } from "./badge.tsx";
import { Button } from "./button.tsx";
import { CsrfInput } from "./csrf-input.tsx";
import { cx } from "./cx.ts";
import { Checkbox, Field, Select, TextArea } from "./field.tsx";
import { PlusIcon } from "./icons.tsx";

/**
 * The form editor: one plain POST form. Without JavaScript every change to the structure (add,
 * remove, move a question, an option or a score range) is a submit button with an `intent` that
 * the action applies and answers with the re-rendered editor, values kept; "Save" validates with
 * the API's schema and redirects. With JavaScript the same posts happen without a page load, and
 * the preview of the bands follows the fields as you type.
 */
export function FormEditor({ draft, errors, submitLabel, focus }: { draft: FormDraft; errors: DraftErrors; submitLabel: string; focus?: string | undefined }) {
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  // The editor is mounted afresh for each answer of the action (its key): put the focus where the
  // change happened, or on the first field with an error, instead of losing it to the page.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const target = focus
      ? form.querySelector<HTMLElement>(`[name="${focus}"]`)
      : form.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[aria-describedby] input:not([type="hidden"])');
    target?.focus();
  }, [focus]);
  const [ranges, setRanges] = useState<DraftRange[]>(draft.scoreRanges);
  const [types, setTypes] = useState(() => draft.questions.map((q) => q.type));
  const errorCount = Object.keys(errors).length;
  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      className="space-y-8"
      onChange={(event) => {
        // With JavaScript the preview and the options shown follow the fields at once.
        const form = event.currentTarget;
        const values = new FormData(form);
        setRanges(rangesFromForm(form));
        setTypes(draft.questions.map((question, i) => (values.get(`questions.${i}.type`) as DraftQuestion["type"] | null) ?? question.type));
      }}
    >
      {/* The first submit button is the one Enter presses: make it Save, not "Move down". */}
      <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true">
        {submitLabel}
      </button>
      <CsrfInput />
      {errorCount > 0 ? <Alert tone="error" title={t.forms.editor.fixErrors(errorCount)} /> : null}

      <EditorSection title={t.forms.editor.details}>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            className="sm:col-span-2"
            label={t.forms.fields.title}
            name="title"
            id="title"
            required
            defaultValue={draft.title}
            error={errors.title}
            maxLength={200}
          />
          <TextArea
            className="sm:col-span-2"
            label={t.forms.fields.description}
            name="description"
            id="description"
            defaultValue={draft.description}
            error={errors.description}
            rows={3}
          />
          <Field label={t.forms.fields.category} name="category" id="category" defaultValue={draft.category} error={errors.category} />
          <Field label={t.forms.fields.type} name="type" id="type" defaultValue={draft.type} error={errors.type} />
          <Field
            className="sm:col-span-2"
            label={t.forms.fields.targetAudience}
            name="targetAudience"
            id="targetAudience"
            defaultValue={draft.targetAudience}
            error={errors.targetAudience}
          />
        </div>
      </EditorSection>

      <EditorSection title={t.forms.editor.questions} description={t.forms.editor.questionsHelp}>
        <ol className="space-y-5">
          {draft.questions.map((question, i) => (
            <QuestionEditor key={i} question={question} index={i} count={draft.questions.length} errors={errors} type={types[i] ?? question.type} />
          ))}
        </ol>
        {errors.questions ? <p className="mt-3 text-sm font-medium text-red-700">{errors.questions}</p> : null}
        <Button type="submit" name="intent" value="add-question" variant="secondary" className="mt-4" icon={<PlusIcon className="size-4" />} formNoValidate>
          {t.forms.editor.addQuestion}
        </Button>
      </EditorSection>

      <EditorSection title={t.forms.editor.scoreRanges} description={t.forms.editor.scoreRangesHelp}>
        <ol className="space-y-4">
          {draft.scoreRanges.map((range, i) => (
            <RangeEditor key={i} range={range} index={i} errors={errors} />
          ))}
        </ol>
        {errors.scoreRanges ? <p className="mt-3 text-sm font-medium text-red-700">{errors.scoreRanges}</p> : null}
        <div className="mt-4 flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="add-range" variant="secondary" icon={<PlusIcon className="size-4" />} formNoValidate>
            {t.forms.editor.addRange}
          </Button>
        </div>
        <BandPreview ranges={ranges} />
      </EditorSection>

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
        <Button type="submit" name="intent" value="save" variant="primary" size="lg" pendingText={t.common.saving}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}

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

/** A small structure-editing button: its visible text is short, its name says what it acts on. */
function IntentButton({ intent, label, children, disabled }: { intent: string; label: string; children: ReactNode; disabled?: boolean }) {
  return (
    <Button type="submit" name="intent" value={intent} size="sm" variant="ghost" formNoValidate aria-label={label} title={label} disabled={disabled}>
      {children}
    </Button>
  );
}

function QuestionEditor({
  question,
  index: i,
  count,
  errors,
  type,
}: {
  question: DraftQuestion;
  index: number;
  count: number;
  errors: DraftErrors;
  type: DraftQuestion["type"];
}) {
  const t = useT();
  const n = i + 1;
  const prefix = `questions.${i}`;
  const optionsError = errors[`${prefix}.options`];
  return (
    <li className="rounded-lg border border-slate-300 bg-slate-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${prefix}-heading`} className="font-semibold text-slate-900">
          {t.forms.editor.question(n)}
        </h3>
        <div className="flex flex-wrap gap-1">
          <IntentButton intent={`move-up:${i}`} label={t.forms.editor.moveQuestionUp(n)} disabled={i === 0}>
            ↑ {t.forms.editor.up}
          </IntentButton>
          <IntentButton intent={`move-down:${i}`} label={t.forms.editor.moveQuestionDown(n)} disabled={i === count - 1}>
            ↓ {t.forms.editor.down}
          </IntentButton>
          <IntentButton intent={`remove-question:${i}`} label={t.forms.editor.removeQuestion(n)}>
            {t.forms.editor.remove}
          </IntentButton>
        </div>
      </div>
      <input type="hidden" name={`${prefix}.id`} value={question.id} />
      <div className="mt-3 grid gap-4 sm:grid-cols-3">
        <TextArea
          className="sm:col-span-2"
          label={t.forms.fields.questionText(n)}
          name={`${prefix}.text`}
          id={`${prefix}.text`}
          defaultValue={question.text}
          error={errors[`${prefix}.text`]}
          rows={2}
          required
        />
        <div className="space-y-3">
          <Select
            label={t.forms.fields.questionType(n)}
            name={`${prefix}.type`}
            id={`${prefix}.type`}
            defaultValue={question.type}
            options={QUESTION_TYPES.map((value) => ({ value, label: t.forms.questionTypes[value] }))}
          />
          <Checkbox label={t.forms.fields.required} name={`${prefix}.required`} id={`${prefix}.required`} defaultChecked={question.required} />
        </div>
      </div>
      <div hidden={type === "TEXT"} className="mt-4">
        <fieldset aria-describedby={optionsError ? `${prefix}.options-error` : undefined}>
          <legend className="text-sm font-medium text-slate-900">{t.forms.editor.options(n)}</legend>
          <ol className="mt-2 space-y-2">
            {question.options.map((option, j) => {
              const o = `${prefix}.options.${j}`;
              const m = j + 1;
              return (
                <li key={j} className="grid grid-cols-[1fr_6rem] items-start gap-2 rounded-md bg-white p-2 ring-1 ring-slate-200 sm:grid-cols-[1fr_7rem_10rem]">
                  <input type="hidden" name={`${o}.id`} value={option.id} />
                  <Field label={t.forms.fields.optionText(n, m)} name={`${o}.text`} id={`${o}.text`} defaultValue={option.text} error={errors[`${o}.text`]} />
                  <Field
                    label={t.forms.fields.score}
                    name={`${o}.score`}
                    id={`${o}.score`}
                    defaultValue={option.score}
                    error={errors[`${o}.score`]}
                    inputMode="decimal"
                    aria-label={t.forms.fields.optionScore(n, m)}
                  />
                  <div className="col-span-2 flex flex-wrap justify-end gap-1 sm:col-span-1 sm:mt-6">
                    <IntentButton intent={`option-up:${i}:${j}`} label={t.forms.editor.moveOptionUp(n, m)} disabled={j === 0}>
                      ↑
                    </IntentButton>
                    <IntentButton intent={`option-down:${i}:${j}`} label={t.forms.editor.moveOptionDown(n, m)} disabled={j === question.options.length - 1}>
                      ↓
                    </IntentButton>
                    <IntentButton intent={`remove-option:${i}:${j}`} label={t.forms.editor.removeOption(n, m)}>
                      {t.forms.editor.remove}
                    </IntentButton>
                  </div>
                </li>
              );
            })}
          </ol>
          {optionsError ? (
            <p id={`${prefix}.options-error`} className="mt-2 text-sm font-medium text-red-700">
              {optionsError}
            </p>
          ) : null}
          <Button
            type="submit"
            name="intent"
            value={`add-option:${i}`}
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

function RangeEditor({ range, index: i, errors }: { range: DraftRange; index: number; errors: DraftErrors }) {
  const t = useT();
  const n = i + 1;
  const prefix = `scoreRanges.${i}`;
  const rangeError = errors[prefix];
  return (
    <li className={cx("rounded-lg border bg-slate-50 p-4", rangeError ? "border-red-600" : "border-slate-300")}>
      <fieldset aria-describedby={rangeError ? `${prefix}-error` : undefined}>
        <legend className="font-semibold text-slate-900">{t.forms.editor.range(n)}</legend>
        {rangeError ? (
          <p id={`${prefix}-error`} className="mt-1 text-sm font-medium text-red-700">
            {rangeError}
          </p>
        ) : null}
        <div className="mt-3 grid grid-cols-2 items-start gap-3 sm:grid-cols-[2fr_1fr_1fr_auto_auto]">
          <Field
            className="col-span-2 sm:col-span-1"
            label={t.forms.fields.rangeLabel}
            name={`${prefix}.label`}
            id={`${prefix}.label`}
            defaultValue={range.label}
            error={errors[`${prefix}.label`]}
            aria-label={t.forms.fields.rangeLabelOf(n)}
          />
          <Field
            label={t.forms.fields.min}
            name={`${prefix}.min`}
            id={`${prefix}.min`}
            defaultValue={range.min}
            error={errors[`${prefix}.min`]}
            inputMode="decimal"
            aria-label={t.forms.fields.minOf(n)}
          />
          <Field
            label={t.forms.fields.max}
            name={`${prefix}.max`}
            id={`${prefix}.max`}
            defaultValue={range.max}
            error={errors[`${prefix}.max`]}
            inputMode="decimal"
            aria-label={t.forms.fields.maxOf(n)}
          />
          <div>
            <label htmlFor={`${prefix}.color`} className="block text-sm font-medium text-slate-900">
              {t.forms.fields.color}
            </label>
            <input
              type="color"
              id={`${prefix}.color`}
              name={`${prefix}.color`}
              defaultValue={range.color}
              aria-label={t.forms.fields.colorOf(n)}
              aria-invalid={errors[`${prefix}.color`] ? true : undefined}
              className="mt-1.5 block h-10 w-16 cursor-pointer rounded-md border border-slate-400 bg-white p-1"
            />
            {errors[`${prefix}.color`] ? <p className="mt-1.5 text-sm font-medium text-red-700">{errors[`${prefix}.color`]}</p> : null}
          </div>
          <div className="flex justify-end sm:mt-6">
            <IntentButton intent={`remove-range:${i}`} label={t.forms.editor.removeRange(n)}>
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
