import type { FieldMetadata } from "@conform-to/react/future";
import { DRAFT_LIMITS, type DraftRange, emptyRange } from "~/features/forms/form-draft.ts";
import { type AchievableTotals, uncoveredTotals, unreachableBands } from "~/features/scoring/achievable.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { cx } from "../cx.ts";
import { Checkbox, Field } from "../field.tsx";
import { AddButton, control, type EditorIntent, type FocusOn, GroupError, IntentButton } from "./parts.tsx";

/**
 * Score ranges (bands) and what they cover: the total's, and each subscale's. Each range has a
 * label, bounds, a colour and a critical mark (docs/api-contract.md §16); under the list, the scores
 * the questions can give and the ranges no score reaches or scores no range names.
 */

/** What a list of bands calls its parts: the total's ("Score range 2") or a subscale's ("… of subscale 1"). */
export type BandWords = {
  range: (n: number) => string;
  remove: (n: number) => string;
  labelOf: (n: number) => string;
  minOf: (n: number) => string;
  maxOf: (n: number) => string;
  colorOf: (n: number) => string;
  criticalOf: (n: number) => string;
  add: string;
  /** The add button's name, when its text does not say which list it adds to. */
  addLabel?: string;
};

export function BandList({
  list,
  intent,
  words,
  focusOn,
}: {
  list: FieldMetadata<DraftRange[], string[]>;
  intent: EditorIntent;
  words: BandWords;
  focusOn: FocusOn;
}) {
  const ranges = list.getFieldList();
  return (
    <>
      {ranges.length > 0 ? (
        <ol className="space-y-4">
          {ranges.map((range, i) => (
            <RangeEditor key={range.key} range={range} index={i} intent={intent} listName={list.name} words={words} />
          ))}
        </ol>
      ) : null}
      <GroupError name={list.name} errors={list.errors} />
      <AddButton
        value={intent.insert.serialize({ name: list.name, defaultValue: emptyRange(ranges.length) })}
        onClick={focusOn(`${list.name}[${ranges.length}].label`)}
        disabled={ranges.length >= DRAFT_LIMITS.scoreRanges}
        label={words.addLabel}
        className="mt-4"
      >
        {words.add}
      </AddButton>
    </>
  );
}

function RangeEditor({
  range,
  index: i,
  intent,
  listName,
  words,
}: {
  range: FieldMetadata<DraftRange, string[]>;
  index: number;
  intent: EditorIntent;
  listName: string;
  words: BandWords;
}) {
  const t = useT();
  const n = i + 1;
  const fields = range.getFieldset();
  const rangeError = range.errors?.[0];
  const rangeErrorId = `${range.name}-error`;
  return (
    <li className={cx("rounded-lg border bg-slate-50 p-4", rangeError ? "border-red-600" : "border-slate-300")}>
      <fieldset aria-describedby={rangeError ? rangeErrorId : undefined}>
        <legend className="font-semibold text-slate-900">{words.range(n)}</legend>
        {rangeError ? (
          <p id={rangeErrorId} className="mt-1 text-sm font-medium text-red-700">
            {rangeError}
          </p>
        ) : null}
        <div className="mt-3 grid grid-cols-2 items-start gap-3 sm:grid-cols-[2fr_1fr_1fr_auto_auto_auto]">
          <Field className="col-span-2 sm:col-span-1" label={t.forms.fields.rangeLabel} {...control(fields.label)} aria-label={words.labelOf(n)} />
          <Field label={t.forms.fields.min} {...control(fields.min)} inputMode="decimal" aria-label={words.minOf(n)} />
          <Field label={t.forms.fields.max} {...control(fields.max)} inputMode="decimal" aria-label={words.maxOf(n)} />
          <div>
            <label htmlFor={fields.color.name} className="block text-sm font-medium text-slate-900">
              {t.forms.fields.color}
            </label>
            <input
              type="color"
              id={fields.color.name}
              name={fields.color.name}
              defaultValue={fields.color.defaultValue}
              aria-label={words.colorOf(n)}
              aria-invalid={fields.color.errors ? true : undefined}
              className="mt-1.5 block h-10 w-16 cursor-pointer rounded-md border border-slate-400 bg-white p-1"
            />
            {fields.color.errors ? <p className="mt-1.5 text-sm font-medium text-red-700">{fields.color.errors[0]}</p> : null}
          </div>
          <Checkbox
            className="self-end sm:mb-2"
            label={t.forms.fields.rangeCritical}
            name={fields.critical.name}
            id={fields.critical.name}
            defaultChecked={fields.critical.defaultChecked}
            aria-label={words.criticalOf(n)}
          />
          <div className="col-span-2 flex justify-end sm:col-span-1 sm:mt-6">
            <IntentButton value={intent.remove.serialize({ name: listName, index: i })} label={words.remove(n)}>
              {t.forms.editor.remove}
            </IntentButton>
          </div>
        </div>
      </fieldset>
    </li>
  );
}

/** What a coverage line says: about the form's totals or a subscale's scores. */
export type CoverageWords = {
  range: (min: string, max: string) => string;
  none: string;
  unreachable: (n: number) => string;
  gap: (from: string, to: string) => string;
  gapBetween: (from: string, to: string) => string;
};

/**
 * What scores the questions allow, and what the bands leave out: a band of the total no total can
 * reach is refused on save; scores without a band are only pointed out (a form may leave them on
 * purpose).
 */
export function ScoreCoverage({ totals, ranges, words, testId }: { totals: AchievableTotals; ranges: DraftRange[]; words: CoverageWords; testId: string }) {
  const format = useFormat();
  if (!totals.scored) return <p className="mt-4 text-sm text-slate-600">{words.none}</p>;
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
    <div className="mt-4 space-y-1 text-sm" aria-live="polite" data-testid={testId}>
      <p className="font-medium text-slate-900">{words.range(format.number(totals.min), format.number(totals.max))}</p>
      {unreachable.map((index) => (
        <p key={`u${index}`} className="font-medium text-red-700">
          {words.unreachable(index + 1)}
        </p>
      ))}
      {gaps.map((gap) => (
        <p key={`g${gap.from}`} className="text-amber-800">
          {totals.whole ? words.gap(format.number(gap.from), format.number(gap.to)) : words.gapBetween(format.number(gap.from), format.number(gap.to))}
        </p>
      ))}
    </div>
  );
}
