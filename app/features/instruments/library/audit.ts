import type { InstrumentDefinition } from "../instrument-definition.ts";
import { AUDIT_INSTRUCTIONS, AUDIT_ITEMS, AUDIT_LICENCE } from "./audit-items.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * AUDIT, the WHO Alcohol Use Disorders Identification Test.
 *
 * - Items, options and scores: ./audit-items.ts.
 * - Bands: the manual's risk levels, zone I 0–7, zone II 8–15, zone III 16–19, zone IV 20–40, each
 *   with the intervention the manual pairs with it (Babor et al. 2001, Table 4; read from
 *   https://studylib.net/doc/8651865/the-alcohol-use-disorders-identification-test).
 * - Missing items, reliable change and remission: none published that could be found; all unset.
 */
export const AUDIT: InstrumentDefinition = {
  key: "audit",
  name: "AUDIT",
  version: "1",
  description: "Alcohol Use Disorders Identification Test: ten items on drinking and its consequences, 0–40.",
  languages: ["en"],
  licence: AUDIT_LICENCE,
  citation:
    "Babor TF, Higgins-Biddle JC, Saunders JB, Monteiro MG. AUDIT: The Alcohol Use Disorders Identification Test. Guidelines for Use in Primary Care. 2nd ed. Geneva: World Health Organization; 2001 (WHO/MSD/MSB/01.6a).",
  scoringSource: "https://www.who.int/publications/i/item/WHO-MSD-MSB-01.6a",
  instructions: { en: AUDIT_INSTRUCTIONS },
  items: AUDIT_ITEMS,
  subscales: [],
  scoreRanges: [
    band(0, 7, "Zone I: alcohol education", COLOURS.none),
    band(8, 15, "Zone II: simple advice", COLOURS.moderate),
    band(16, 19, "Zone III: simple advice plus brief counseling and continued monitoring", COLOURS.high),
    band(20, 40, "Zone IV: referral to specialist for diagnostic evaluation and treatment", COLOURS.severe),
  ],
  scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: true,
  criticalMessage: null,
};
