import type { Locale } from "~/lib/i18n.ts";
import type { ScaleBand, ScaleForm, ScoringMethod, ScoringSettings } from "../scoring/scales.ts";

/**
 * A validated instrument shipped with the service (docs/api-contract.md §17), shaped so that it
 * becomes a form field for field: items are questions (`key`, text, options with `score` and
 * `critical`, `reverseScored`), `subscales` and `scoreRanges` are the form's, `scoring` is §15's,
 * `reliableChange`, `remissionBelow` and `lowerIsBetter` are §18's. One file per instrument in
 * `library/`; what each file may hold and where its content must come from is ADR 67.
 */

/** Text in the instrument's languages: English always, another language only from a published translation. */
export type LocalizedText = { en: string } & Partial<Record<Exclude<Locale, "en">, string>>;

export type InstrumentOption = { text: LocalizedText; score: number; critical?: true };

export type InstrumentItem = {
  /** The question key (docs/api-contract.md §15): what subscales, exports and FHIR call the item. */
  key: string;
  text: LocalizedText;
  options: readonly InstrumentOption[];
  /** The item's options are mirrored (`min + max − score`) when scored, as its manual says. */
  reverseScored?: true;
  /** The item may be left unanswered (PHQ-15's item for women only); every other item is required. */
  optional?: true;
};

export type InstrumentBand = Omit<ScaleBand, "label" | "critical"> & { label: LocalizedText; critical: boolean };

export type InstrumentSubscale = {
  key: string;
  name: LocalizedText;
  items: readonly string[];
  method: ScoringMethod;
  multiplier: number;
  scoreRanges: readonly InstrumentBand[];
  /** The subscale's own Jacobson–Truax constants and remission threshold (docs/api-contract.md §18), where published. */
  reliableChange?: { sd: number; reliability: number } | null;
  remissionBelow?: number | null;
};

export type InstrumentDefinition = {
  key: string;
  name: string;
  /** The version of this definition: a change to items or scoring gives a new one. */
  version: string;
  description: string;
  /** The languages every text of the instrument is given in; `en` first. */
  languages: readonly Locale[];
  licence: string;
  citation: string;
  /** Where the scoring instructions this file follows are published. */
  scoringSource: string;
  /** What the respondent reads before the items (the instrument's own stem). */
  instructions: LocalizedText;
  items: readonly InstrumentItem[];
  subscales: readonly InstrumentSubscale[];
  scoreRanges: readonly InstrumentBand[];
  scoring: ScoringSettings;
  /** Jacobson–Truax constants (docs/api-contract.md §18), null where no published value was found. */
  reliableChange: { sd: number; reliability: number } | null;
  /** A total below which a result is a remission, null where none is published. */
  remissionBelow: number | null;
  lowerIsBetter: boolean;
  /** Where `reliableChange` and `remissionBelow` come from, for the pages that show them; given when either is. */
  changeSource?: string;
  /** What the respondent reads when an answer is critical; null when no option or band is. */
  criticalMessage: LocalizedText | null;
};

/** The text in a language of the instrument, or its English where that language is not one of them. */
export const textIn = (text: LocalizedText, language: Locale): string => text[language as Exclude<Locale, "en">] ?? text.en;

/**
 * The instrument as a form's scoring input, in one of its languages: question ids are the item
 * keys, option ids `<key>.<position>`, every item a required single choice.
 */
export function instrumentForm(instrument: InstrumentDefinition, language: Locale = "en"): ScaleForm {
  const label = (band: InstrumentBand): ScaleBand => ({
    min: band.min,
    max: band.max,
    label: textIn(band.label, language),
    color: band.color,
    critical: band.critical,
  });
  return {
    questions: instrument.items.map((item) => ({
      id: item.key,
      key: item.key,
      text: textIn(item.text, language),
      type: "SINGLE_CHOICE",
      required: !item.optional,
      reverseScored: item.reverseScored ?? false,
      options: item.options.map((option, index) => ({
        id: `${item.key}.${index}`,
        text: textIn(option.text, language),
        score: option.score,
        critical: option.critical ?? false,
      })),
    })),
    scoreRanges: instrument.scoreRanges.map(label),
    scoring: instrument.scoring,
    subscales: instrument.subscales.map((subscale) => ({
      key: subscale.key,
      name: textIn(subscale.name, language),
      items: [...subscale.items],
      method: subscale.method,
      multiplier: subscale.multiplier,
      scoreRanges: subscale.scoreRanges.map(label),
    })),
  };
}

/** Items that share one set of options: the options are written once, as the instrument prints them. */
export const itemsWith = (options: readonly InstrumentOption[], texts: readonly LocalizedText[], prefix = "q"): InstrumentItem[] =>
  texts.map((text, index) => ({ key: `${prefix}${index + 1}`, text, options }));
