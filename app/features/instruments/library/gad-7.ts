import { type InstrumentDefinition, itemsWith } from "../instrument-definition.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * GAD-7, the Generalized Anxiety Disorder scale.
 *
 * - Items, options and scores: the GAD-7 form as Pfizer publishes it (English), read from
 *   https://scales.arabpsychology.com/index.php/s/gad-7-anxiety-severity/ and
 *   https://docest.com/doc/420232/the-7-item-gad-asked-patients-how-often-during-the-past-2-weeks-they-had-felt-bothered-by.
 *   The unscored difficulty question is left out.
 * - Bands: 0–4, 5–9, 10–14, 15–21: "Scores of 5, 10, and 15 represent cut points for mild,
 *   moderate, and severe anxiety" (Spitzer et al. 2006).
 * - Languages: the official Spanish and Portuguese translations exist, but their full text could
 *   not be read from a copy of the official form (what could be read were re-worded versions on
 *   self-test sites, no two alike), so only English is given.
 * - Missing items: no published rule was found, so none is set (every item is required).
 * - Reliable change (Jacobson & Truax 1991): the standard deviation 5.1 of the GAD-7 at baseline in
 *   both arms of the COBRA trial (Richards et al. 2016, Lancet 388(10047):871-880,
 *   doi:10.1016/S0140-6736(16)31140-0, Table 2, https://pmc.ncbi.nlm.nih.gov/articles/PMC5007415/)
 *   and the internal consistency α = 0.92 (Spitzer et al. 2006). The index then needs a change of
 *   more than 1.96 × 5.1 × √2 × √(1 − 0.92) = 3.998 points, so 4 points on a whole-number total: the
 *   "4 or more" that NHS Talking Therapies counts as reliable improvement (as cited in
 *   https://pmc.ncbi.nlm.nih.gov/articles/PMC8411661/, Table 1). The same paper's test–retest
 *   intraclass correlation, 0.83, would give 5.8 points; Bischoff et al. (2020), "Establishment of a
 *   reliable change index for the GAD-7", Psychol Community Health 8(1):176-187,
 *   doi:10.5964/pch.v8i1.309, give 5.59 points for their clinical sample (test–retest r .87), whose
 *   standard deviation could not be read.
 * - Remission: no published threshold was found (Toussaint et al. 2020, doi:10.1016/j.jad.2020.01.032,
 *   give a minimal clinically important difference of 4 points, which is not one); null.
 */
export const GAD_7: InstrumentDefinition = {
  key: "gad-7",
  name: "GAD-7",
  // 2: the reliable-change constants.
  version: "2",
  description: "Generalized Anxiety Disorder scale: seven items on the last two weeks, 0–21.",
  languages: ["en"],
  licence: "Free: developed with an educational grant from Pfizer Inc.; no permission required to reproduce, translate, display or distribute.",
  citation:
    "Spitzer RL, Kroenke K, Williams JBW, Löwe B. A brief measure for assessing generalized anxiety disorder: the GAD-7. Arch Intern Med. 2006;166(10):1092-1097.",
  scoringSource: "https://www.phqscreeners.com/",
  instructions: { en: "Over the last 2 weeks, how often have you been bothered by the following problems?" },
  items: itemsWith(
    [
      { text: { en: "Not at all" }, score: 0 },
      { text: { en: "Several days" }, score: 1 },
      { text: { en: "More than half the days" }, score: 2 },
      { text: { en: "Nearly every day" }, score: 3 },
    ],
    [
      { en: "Feeling nervous, anxious, or on edge" },
      { en: "Not being able to stop or control worrying" },
      { en: "Worrying too much about different things" },
      { en: "Trouble relaxing" },
      { en: "Being so restless that it is hard to sit still" },
      { en: "Becoming easily annoyed or irritable" },
      { en: "Feeling afraid, as if something awful might happen" },
    ],
  ),
  subscales: [],
  scoreRanges: [
    band(0, 4, "Minimal", COLOURS.none),
    band(5, 9, "Mild", COLOURS.mild),
    band(10, 14, "Moderate", COLOURS.moderate),
    band(15, 21, "Severe", COLOURS.severe),
  ],
  scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
  reliableChange: { sd: 5.1, reliability: 0.92 },
  remissionBelow: null,
  lowerIsBetter: true,
  changeSource:
    "Standard deviation: the GAD-7 at baseline in the COBRA trial (Richards et al. Lancet. 2016;388(10047):871-880, Table 2). Reliability: internal consistency, α = 0.92 (Spitzer et al. 2006).",
  criticalMessage: null,
};
