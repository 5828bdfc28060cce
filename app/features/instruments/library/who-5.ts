import { type InstrumentDefinition, itemsWith } from "../instrument-definition.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * WHO-5, the World Health Organization Five Well-Being Index (1998 version).
 *
 * - Items, options and scores: At no time 0 … All of the time 5, read from
 *   https://smaat.eu/library/scales/who-5 and https://mycctoolkit.com/who-5-list/.
 * - Scoring: "To obtain a percentage score ranging from 0 to 100, the raw score is multiplied by
 *   4" (https://mymindmycare.com/assessment/well-being-index/), so `multiplier: 4`; higher is better.
 * - Bands, on the percentage: 28 or less suggests a depressive episode, 50 or less poor
 *   well-being (Topp et al. 2015, as https://smaat.eu/library/scales/who-5 gives them).
 * - Languages: the Psychiatric Research Unit publishes official translations, but none could be
 *   read (only re-worded versions in apps), so only English is given.
 * - Missing items, reliable change and remission: none published that could be found; all unset.
 */
export const WHO_5: InstrumentDefinition = {
  key: "who-5",
  name: "WHO-5",
  version: "1",
  description: "WHO Five Well-Being Index: five statements on the last two weeks, raw 0–25 times 4 gives 0–100; higher is better.",
  languages: ["en"],
  licence: "Free to use without permission (Psychiatric Research Unit, Mental Health Centre North Zealand, for the WHO).",
  citation:
    "World Health Organization. Wellbeing Measures in Primary Health Care: The DepCare Project. WHO Regional Office for Europe; 1998. Topp CW, Østergaard SD, Søndergaard S, Bech P. The WHO-5 Well-Being Index: a systematic review of the literature. Psychother Psychosom. 2015;84(3):167-176.",
  scoringSource: "https://www.psykiatri-regionh.dk/who-5/",
  // The index's own instructions could not be read from a source here: these words are ours.
  instructions: { en: "For each statement, choose the answer closest to how you have been feeling over the last two weeks." },
  items: itemsWith(
    [
      { text: { en: "All of the time" }, score: 5 },
      { text: { en: "Most of the time" }, score: 4 },
      { text: { en: "More than half of the time" }, score: 3 },
      { text: { en: "Less than half of the time" }, score: 2 },
      { text: { en: "Some of the time" }, score: 1 },
      { text: { en: "At no time" }, score: 0 },
    ],
    [
      { en: "I have felt cheerful and in good spirits" },
      { en: "I have felt calm and relaxed" },
      { en: "I have felt active and vigorous" },
      { en: "I woke up feeling fresh and rested" },
      { en: "My daily life has been filled with things that interest me" },
    ],
  ),
  subscales: [],
  scoreRanges: [
    band(0, 28, "Likely depression: assess further", COLOURS.severe),
    band(29, 50, "Poor well-being", COLOURS.moderate),
    band(51, 100, "Above the screening cut-off", COLOURS.none),
  ],
  scoring: { method: "SUM", multiplier: 4, maxMissing: null, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: false,
  criticalMessage: null,
};
