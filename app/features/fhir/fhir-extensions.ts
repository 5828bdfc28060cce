/**
 * The URLs of the FHIR R4 elements the service reads and writes beyond FHIR's own (docs/fhir.md,
 * ADR 73). Ours are one URN per extension, the same on every installation, so that a
 * Questionnaire exported by one imports into another and scores the same; HL7's are the standard
 * extensions and code systems the mapping uses.
 */

/** Every extension of ours starts with this. */
export const OUR_EXTENSION_PREFIX = "urn:assessment-service:fhir:extension:";

const ours = (name: string) => `${OUR_EXTENSION_PREFIX}${name}`;

/** Where each of our extensions may stand, and what it carries. */
export const EXTENSION = {
  /** Questionnaire: how the total is made; sub-extensions method, multiplier, maxMissing, display. */
  scoring: ours("scoring"),
  /** Questionnaire, repeated: a band of the total; sub-extensions min, max, label, color, critical. */
  scoreBand: ours("score-band"),
  /** Questionnaire, repeated: a subscale; sub-extensions key, name, item (repeated), method, multiplier, band (repeated). */
  subscale: ours("subscale"),
  /** Questionnaire: what the respondent reads when an answer is critical. */
  criticalMessage: ours("critical-message"),
  /** Questionnaire: the form's category, type and audience, kept for the round trip. */
  category: ours("category"),
  formType: ours("form-type"),
  targetAudience: ours("target-audience"),
  /** Item: its answer options' ordinal values are already mirrored (`min + max − score`). */
  reverseScored: ours("reverse-scored"),
  /** Item: the question is a scale of `points` points (its options, in order), numbered `min` to `max` when it has a range. */
  scale: ours("scale"),
  /** Answer option: choosing it flags the result. */
  critical: ours("critical"),
} as const;

/** An answer option's score (SDC); R5's `itemWeight` and STU3's `iso21090-CO-value` are read too. */
export const ORDINAL_VALUE = "http://hl7.org/fhir/StructureDefinition/ordinalValue";
export const SCORE_EXTENSIONS: readonly string[] = [
  ORDINAL_VALUE,
  "http://hl7.org/fhir/StructureDefinition/itemWeight",
  "http://hl7.org/fhir/StructureDefinition/iso21090-CO-value",
];

export const OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category";
export const OBSERVATION_INTERPRETATION = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation";
export const DATA_ABSENT_REASON = "http://terminology.hl7.org/CodeSystem/data-absent-reason";
export const UCUM = "http://unitsofmeasure.org";

/** The media type of every FHIR answer, and one a Questionnaire may be posted in. */
export const FHIR_JSON = "application/fhir+json";
