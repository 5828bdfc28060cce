import { type InstrumentDefinition, itemsWith } from "../instrument-definition.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * PHQ-15, the Patient Health Questionnaire's somatic symptom scale.
 *
 * - Items, options and scores: the PHQ-15 form (English), with its "No permission required"
 *   notice, read from https://mhscales.com/phq15 and https://info.5y1.org/dizziness-and-fainting-spells_1_b43be2.html:
 *   Not bothered at all 0, Bothered a little 1, Bothered a lot 2.
 * - Bands: 0–4, 5–9, 10–14, 15–30: "scores of 5, 10, and 15 represent cut off points for low,
 *   medium, and high somatic symptom severity" (Kroenke, Spitzer & Williams 2002).
 * - Item 4 is for women only: it is optional here, and an unanswered item counts 0, as the
 *   published scoring does for men (their range is 0–28).
 * - Languages: Pfizer's translations exist, but no copy of the Spanish or Brazilian Portuguese form
 *   was found, so only English is given.
 * - Missing items, reliable change and remission: none published that could be found; all unset.
 */
const ITEM_TEXTS = [
  "Stomach pain",
  "Back pain",
  "Pain in your arms, legs, or joints (knees, hips, etc.)",
  "Menstrual cramps or other problems with your periods (women only)",
  "Headaches",
  "Chest pain",
  "Dizziness",
  "Fainting spells",
  "Feeling your heart pound or race",
  "Shortness of breath",
  "Pain or problems during sexual intercourse",
  "Constipation, loose bowels, or diarrhea",
  "Nausea, gas, or indigestion",
  "Feeling tired or having low energy",
  "Trouble sleeping",
];

export const PHQ_15: InstrumentDefinition = {
  key: "phq-15",
  name: "PHQ-15",
  version: "1",
  description: "Patient Health Questionnaire somatic symptom severity scale: fifteen symptoms over the last four weeks, 0–30.",
  languages: ["en"],
  licence: "Free: developed with an educational grant from Pfizer Inc.; no permission required to reproduce, translate, display or distribute.",
  citation:
    "Kroenke K, Spitzer RL, Williams JBW. The PHQ-15: validity of a new measure for evaluating the severity of somatic symptoms. Psychosom Med. 2002;64(2):258-266.",
  scoringSource: "https://www.phqscreeners.com/",
  instructions: { en: "During the last 4 weeks, how much have you been bothered by any of the following problems?" },
  items: itemsWith(
    [
      { text: { en: "Not bothered at all" }, score: 0 },
      { text: { en: "Bothered a little" }, score: 1 },
      { text: { en: "Bothered a lot" }, score: 2 },
    ],
    ITEM_TEXTS.map((en) => ({ en })),
  ).map((item) => (item.key === "q4" ? { ...item, optional: true as const } : item)),
  subscales: [],
  scoreRanges: [
    band(0, 4, "Minimal", COLOURS.none),
    band(5, 9, "Low", COLOURS.mild),
    band(10, 14, "Medium", COLOURS.moderate),
    band(15, 30, "High", COLOURS.severe),
  ],
  scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: true,
  criticalMessage: null,
};
