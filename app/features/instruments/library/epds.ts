import type { InstrumentDefinition, InstrumentOption } from "../instrument-definition.ts";
import { band, COLOURS, SAFETY_MESSAGE } from "./shared.ts";

/**
 * EPDS, the Edinburgh Postnatal Depression Scale.
 *
 * - Items, options and scores: the scale as Cox, Holden & Sagovsky (1987) print it, read from
 *   https://user-1mbmgix.cld.bz/Northside-Hospital-A-New-Beginning/37 (which prints each option's
 *   score) and http://pcbh.drquimby.com/epds.php. Items 1, 2 and 4 score 0–3 from the first option;
 *   items 3 and 5–10 score 3–0: each option carries its printed score, so no item needs mirroring.
 * - Bands: "A score greater than 12 indicates that depression is likely" (the 12/13 threshold of
 *   Cox et al. 1987, http://postpartumcenter.com/form.php).
 * - Critical: item 10 (thoughts of self-harm) answered anything but "Never"
 *   (https://evermentalhealth.com/surveys/edinburgh-postnatal-depression-scale).
 * - Languages: Spanish and Brazilian Portuguese versions are in use, but no copy of a published
 *   form could be read in full (a Swiss association's Spanish form only up to item 3, Brazilian ones
 *   only as re-typings in apps, which disagree with each other), so only English is given.
 * - Reliable change: Matthey (2004), J Affect Disord, doi:10.1016/S0165-0327(02)00313-0,
 *   gives the index as four points; the standard deviation and reliability behind it could not be
 *   read, so `reliableChange` is null.
 * - Missing items and remission: none published that could be found; unset.
 */
const options = (texts: string[], descending: boolean): InstrumentOption[] =>
  texts.map((en, index) => ({ text: { en }, score: descending ? 3 - index : index }));

const ITEMS: [string, string[], boolean][] = [
  [
    "I have been able to laugh and see the funny side of things",
    ["As much as I always could", "Not quite so much now", "Definitely not so much now", "Not at all"],
    false,
  ],
  [
    "I have looked forward with enjoyment to things",
    ["As much as I ever did", "Rather less than I used to", "Definitely less than I used to", "Hardly at all"],
    false,
  ],
  ["I have blamed myself unnecessarily when things went wrong", ["Yes, most of the time", "Yes, some of the time", "Not very often", "No, never"], true],
  ["I have been anxious or worried for no good reason", ["No, not at all", "Hardly ever", "Yes, sometimes", "Yes, very often"], false],
  ["I have felt scared or panicky for no very good reason", ["Yes, quite a lot", "Yes, sometimes", "No, not much", "No, not at all"], true],
  [
    "Things have been getting on top of me",
    [
      "Yes, most of the time I haven’t been able to cope at all",
      "Yes, sometimes I haven’t been coping as well as usual",
      "No, most of the time I have coped quite well",
      "No, I have been coping as well as ever",
    ],
    true,
  ],
  ["I have been so unhappy that I have had difficulty sleeping", ["Yes, most of the time", "Yes, sometimes", "Not very often", "No, not at all"], true],
  ["I have felt sad or miserable", ["Yes, most of the time", "Yes, quite often", "Not very often", "No, not at all"], true],
  ["I have been so unhappy that I have been crying", ["Yes, most of the time", "Yes, quite often", "Only occasionally", "No, never"], true],
  ["The thought of harming myself has occurred to me", ["Yes, quite often", "Sometimes", "Hardly ever", "Never"], true],
];

export const EPDS: InstrumentDefinition = {
  key: "epds",
  name: "EPDS",
  version: "1",
  description: "Edinburgh Postnatal Depression Scale: ten items on the past seven days, 0–30.",
  languages: ["en"],
  licence: "Free to reproduce without further permission, provided the authors, the title and the source of the paper are quoted in all copies.",
  citation:
    "Cox JL, Holden JM, Sagovsky R. Detection of postnatal depression: development of the 10-item Edinburgh Postnatal Depression Scale. Br J Psychiatry. 1987;150:782-786.",
  scoringSource: "https://doi.org/10.1192/bjp.150.6.782",
  instructions: {
    en: "As you are pregnant or have recently had a baby, we would like to know how you are feeling. Please check the answer that comes closest to how you have felt IN THE PAST 7 DAYS, not just how you feel today.",
  },
  items: ITEMS.map(([en, texts, descending], index) => ({
    key: `q${index + 1}`,
    text: { en },
    // Item 10 answered anything but "Never" (score 0) asks for a safety assessment.
    options: options(texts, descending).map((option) => (index === 9 && option.score > 0 ? { ...option, critical: true as const } : option)),
  })),
  subscales: [],
  scoreRanges: [band(0, 12, "Below the cut-off", COLOURS.none), band(13, 30, "Depression likely: assess further", COLOURS.severe)],
  scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: true,
  criticalMessage: SAFETY_MESSAGE,
};
