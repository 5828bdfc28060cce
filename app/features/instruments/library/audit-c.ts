import type { InstrumentDefinition } from "../instrument-definition.ts";
import { AUDIT_INSTRUCTIONS, AUDIT_ITEMS, AUDIT_LICENCE } from "./audit-items.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * AUDIT-C, the AUDIT's three consumption questions.
 *
 * - Items, options and scores: the AUDIT's items 1–3 (./audit-items.ts), 0–12.
 * - Bands: positive at 4 or more in men and 3 or more in women (Bush et al. 1998; Bradley et al.
 *   2003; read from https://primarycare.ementalhealth.ca/index.php?ID=58&hideFormatting=1&m=printSurveyScoring).
 *   A band cannot know the respondent's sex, so 3 has a band of its own that says both.
 * - Missing items, reliable change and remission: none published that could be found; all unset.
 */
export const AUDIT_C: InstrumentDefinition = {
  key: "audit-c",
  name: "AUDIT-C",
  version: "1",
  description: "The AUDIT's three alcohol consumption questions, 0–12.",
  languages: ["en"],
  licence: AUDIT_LICENCE,
  citation:
    "Bush K, Kivlahan DR, McDonell MB, Fihn SD, Bradley KA. The AUDIT alcohol consumption questions (AUDIT-C): an effective brief screening test for problem drinking. Arch Intern Med. 1998;158(16):1789-1795.",
  scoringSource: "https://doi.org/10.1001/archinte.158.16.1789",
  instructions: { en: AUDIT_INSTRUCTIONS },
  items: AUDIT_ITEMS.slice(0, 3),
  subscales: [],
  scoreRanges: [
    band(0, 2, "Negative", COLOURS.none),
    band(3, 3, "Positive for women, negative for men", COLOURS.moderate),
    band(4, 12, "Positive", COLOURS.severe),
  ],
  scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: true,
  criticalMessage: null,
};
