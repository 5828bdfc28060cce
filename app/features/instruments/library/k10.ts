import { type InstrumentDefinition, itemsWith } from "../instrument-definition.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * K10, the Kessler Psychological Distress Scale.
 *
 * - Items, options and scores: None of the time 1 … All of the time 5, read from a copy of the
 *   K10 form (https://scribd.com/document/742177174/k10-assessment-form) and
 *   https://baynaturopath.co.nz/find-out-more-about/mental-emotional-health/kessler-10-mental-and-emotional-test;
 *   the follow-up questions about days out of role are not scored and are left out.
 * - Bands: under 20 likely to be well, 20–24 mild, 25–29 moderate, 30 and over severe, as the
 *   Australian scoring key gives them (https://eapassist.com.au/eap/k-10-screening-tool-of-psychological-distress/,
 *   https://dqref.com/contents/k-10.html). Another published key (10–15, 16–21, 22–29, 30–50)
 *   exists; an organization wanting it builds its own form.
 * - Missing items, reliable change and remission: none published that could be found; all unset.
 */
export const K10: InstrumentDefinition = {
  key: "k10",
  name: "K10",
  version: "1",
  description: "Kessler Psychological Distress Scale: ten items on the last four weeks, 10–50.",
  languages: ["en"],
  licence:
    "Free to use without fee, as Harvard Medical School's National Comorbidity Survey distributes it; its page of terms could not be read here, so check it before publishing.",
  citation:
    "Kessler RC, Andrews G, Colpe LJ, et al. Short screening scales to monitor population prevalences and trends in non-specific psychological distress. Psychol Med. 2002;32(6):959-976.",
  scoringSource: "https://www.hcp.med.harvard.edu/ncs/k6_scales.php",
  instructions: { en: "These questions concern how you have been feeling over the past 30 days." },
  items: itemsWith(
    [
      { text: { en: "None of the time" }, score: 1 },
      { text: { en: "A little of the time" }, score: 2 },
      { text: { en: "Some of the time" }, score: 3 },
      { text: { en: "Most of the time" }, score: 4 },
      { text: { en: "All of the time" }, score: 5 },
    ],
    [
      "tired out for no good reason?",
      "nervous?",
      "so nervous that nothing could calm you down?",
      "hopeless?",
      "restless or fidgety?",
      "so restless you could not sit still?",
      "depressed?",
      "that everything was an effort?",
      "so sad that nothing could cheer you up?",
      "worthless?",
    ].map((feeling) => ({ en: `In the past 4 weeks, about how often did you feel ${feeling}` })),
  ),
  subscales: [],
  scoreRanges: [
    band(10, 19, "Likely to be well", COLOURS.none),
    band(20, 24, "Mild", COLOURS.mild),
    band(25, 29, "Moderate", COLOURS.moderate),
    band(30, 50, "Severe", COLOURS.severe),
  ],
  scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: true,
  criticalMessage: null,
};
