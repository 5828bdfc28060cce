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
 * - Licence: "Use of the K6 and K10 is free and does not require any formal permission or approval.
 *   We do ask that you please cite the below article and include the copyright when using these
 *   scales" (Harvard Medical School, National Comorbidity Survey,
 *   https://www.hcp.med.harvard.edu/ncs/k6_scales.php); the article is Kessler et al. (2003), added
 *   to the citation. Which copyright line to show is not settled: two copies of the NSW Transcultural
 *   Mental Health Centre's page (https://www.dhi.health.nsw.gov.au/transcultural-mental-health-centre-tmhc/resources/multilingual-resources-by-title/kessler-10)
 *   give "© World Health Organization 2003" and "Copyright © Ronald C. Kessler, PhD. All rights reserved".
 * - Languages: no Spanish or Brazilian Portuguese form could be read (a Portuguese version exists
 *   for Portugal, Pereira et al., Ciênc Saúde Colet 2019;24(3):729-736, not one for Brazil), so
 *   only English is given.
 * - Reliable change: a treatment-seeking sample's 1–2-week test–retest ICC of .89 is published
 *   (Australian Psychologist 2021;56(1):38-45, doi:10.1080/00050067.2021.1893603), but no standard
 *   deviation to pair it with could be read, so `reliableChange` is null.
 * - Missing items and remission: none published that could be found; unset.
 */
export const K10: InstrumentDefinition = {
  key: "k10",
  name: "K10",
  version: "1",
  description: "Kessler Psychological Distress Scale: ten items on the last four weeks, 10–50.",
  languages: ["en"],
  licence:
    "Free: use of the K6 and K10 does not require any formal permission or approval; the authors ask that users cite Kessler et al. (2003) and include the copyright (Harvard Medical School, National Comorbidity Survey, https://www.hcp.med.harvard.edu/ncs/k6_scales.php).",
  citation:
    "Kessler RC, Andrews G, Colpe LJ, et al. Short screening scales to monitor population prevalences and trends in non-specific psychological distress. Psychol Med. 2002;32(6):959-976. Kessler RC, Barker PR, Colpe LJ, et al. Screening for serious mental illness in the general population. Arch Gen Psychiatry. 2003;60(2):184-189.",
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
