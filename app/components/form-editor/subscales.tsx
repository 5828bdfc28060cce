import type { FieldMetadata } from "@conform-to/react/future";
import { DRAFT_LIMITS, type DraftSubscale, draftSubscaleTotals, emptySubscale, type FormDraft } from "~/features/forms/form-draft.ts";
import { useT } from "~/i18n/hooks.ts";
import { Checkbox, Field, Select } from "../field.tsx";
import { BandList, ScoreCoverage } from "./bands.tsx";
import { SubscaleChange } from "./change-over-time.tsx";
import { AddButton, control, EditorSection, type EditorIntent, type FocusOn, GroupError, IntentButton } from "./parts.tsx";

/** A question a subscale may add up, as the editor shows it in the subscale's list. */
export type ItemChoice = { ref: string; key: string; text: string; scored: boolean };

/**
 * The form's subscales (docs/api-contract.md §15): each a key, a name, a method and a multiplier,
 * the questions it adds up (ticked by key; a question removed or no longer scored drops out of the
 * list once it is not ticked), its own score ranges with the scores it can give, and its own
 * constants for a result's change over time.
 */
export function SubscalesEditor({
  list,
  live,
  questions,
  intent,
  focusOn,
}: {
  list: FieldMetadata<DraftSubscale[], string[]>;
  /** The draft as typed: the subscales' items and settings, for the scores each can give. */
  live: FormDraft;
  questions: ItemChoice[];
  intent: EditorIntent;
  focusOn: FocusOn;
}) {
  const t = useT();
  const subscales = list.getFieldList();
  return (
    <EditorSection title={t.forms.editor.subscales} description={t.forms.editor.subscalesHelp}>
      {subscales.length > 0 ? (
        <ol className="space-y-5">
          {subscales.map((subscale, s) => (
            <SubscaleEditor
              key={subscale.key}
              subscale={subscale}
              index={s}
              count={subscales.length}
              typed={live.subscales[s]}
              live={live}
              questions={questions}
              intent={intent}
              listName={list.name}
              focusOn={focusOn}
            />
          ))}
        </ol>
      ) : null}
      <GroupError name={list.name} errors={list.errors} />
      <AddButton
        value={intent.insert.serialize({ name: list.name, defaultValue: emptySubscale() })}
        onClick={focusOn(`${list.name}[${subscales.length}].key`)}
        disabled={subscales.length >= DRAFT_LIMITS.subscales}
        className={subscales.length > 0 ? "mt-4" : undefined}
      >
        {t.forms.editor.addSubscale}
      </AddButton>
    </EditorSection>
  );
}

function SubscaleEditor({
  subscale,
  index: s,
  count,
  typed,
  live,
  questions,
  intent,
  listName,
  focusOn,
}: {
  subscale: FieldMetadata<DraftSubscale, string[]>;
  index: number;
  count: number;
  typed: DraftSubscale | undefined;
  live: FormDraft;
  questions: ItemChoice[];
  intent: EditorIntent;
  listName: string;
  focusOn: FocusOn;
}) {
  const t = useT();
  const f = t.forms.fields;
  const e = t.forms.editor;
  const n = s + 1;
  const fields = subscale.getFieldset();
  const ticked = new Set(typed?.items ?? fields.items.defaultOptions);
  // The questions it may add up, and any still ticked that no longer score (so that the error says so).
  const choices = questions.filter((question) => question.scored || ticked.has(question.ref));
  const itemsName = fields.items.name;
  return (
    <li className="rounded-lg border border-slate-300 bg-slate-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900">{e.subscale(n)}</h3>
        <IntentButton
          value={intent.remove.serialize({ name: listName, index: s })}
          label={e.removeSubscale(n)}
          onClick={count > 1 ? focusOn(`${listName}[${Math.min(s, count - 2)}].key`) : undefined}
        >
          {e.remove}
        </IntentButton>
      </div>
      <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-[9rem_minmax(0,1fr)_14rem_7rem]">
        <Field label={f.key} {...control(fields.key)} maxLength={40} autoComplete="off" spellCheck={false} aria-label={f.subscaleKeyOf(n)} />
        <Field label={f.subscaleName} {...control(fields.name)} maxLength={200} aria-label={f.subscaleNameOf(n)} />
        <Select
          label={f.scoringMethod}
          {...control(fields.method)}
          options={(["SUM", "MEAN"] as const).map((value) => ({ value, label: f.scoringMethods[value] }))}
          aria-label={f.subscaleMethodOf(n)}
        />
        <Field label={f.multiplier} {...control(fields.multiplier)} inputMode="decimal" placeholder="1" aria-label={f.subscaleMultiplierOf(n)} />
      </div>
      <fieldset className="mt-4" aria-describedby={fields.items.errors ? `${itemsName}-error` : undefined}>
        <legend className="text-sm font-medium text-slate-900">{e.subscaleItems(n)}</legend>
        {choices.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">{e.subscaleItemsNone}</p>
        ) : (
          <ul className="mt-2 grid gap-x-4 gap-y-2 sm:grid-cols-2">
            {choices.map((question) => (
              <li key={question.ref}>
                <Checkbox
                  name={itemsName}
                  id={`${itemsName}.${question.ref}`}
                  value={question.ref}
                  defaultChecked={ticked.has(question.ref)}
                  label={
                    <>
                      <span className="font-mono text-indigo-900">{question.key}</span>
                      <span className="font-normal text-slate-700"> · {question.text.trim() || "—"}</span>
                    </>
                  }
                />
              </li>
            ))}
          </ul>
        )}
        <GroupError name={itemsName} errors={fields.items.errors} />
      </fieldset>
      <h4 className="mt-5 text-sm font-semibold text-slate-900">{e.subscaleRanges(n)}</h4>
      <div className="mt-2">
        <BandList
          list={fields.scoreRanges}
          intent={intent}
          focusOn={focusOn}
          words={{
            range: (b) => e.subscaleRange(n, b),
            remove: (b) => e.removeSubscaleRange(n, b),
            labelOf: (b) => f.subscaleRangeLabelOf(n, b),
            minOf: (b) => f.subscaleMinOf(n, b),
            maxOf: (b) => f.subscaleMaxOf(n, b),
            colorOf: (b) => f.subscaleColorOf(n, b),
            criticalOf: (b) => f.subscaleRangeCriticalOf(n, b),
            add: e.addRange,
            addLabel: e.addSubscaleRange(n),
          }}
        />
        <ScoreCoverage
          testId={`subscale-coverage-${s}`}
          totals={draftSubscaleTotals(live, typed ?? { ...emptySubscale(), items: [...ticked] })}
          ranges={typed?.scoreRanges ?? []}
          words={{
            range: e.subscaleTotals,
            none: e.subscaleTotalsNone,
            unreachable: e.subscaleUnreachable,
            gap: e.subscaleGap,
            gapBetween: e.subscaleGapBetween,
          }}
        />
      </div>
      <SubscaleChange subscale={subscale} n={n} typed={typed} />
    </li>
  );
}
