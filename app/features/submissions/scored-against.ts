import { z } from "zod";
import { QUESTION_TYPES } from "../forms/question-types.ts";
import { band, scoringSettings, subscaleDefinitions } from "../scoring/scale-schemas.ts";
import { SCORING_RULES } from "../scoring/answer-key.ts";

/**
 * What a completed submission keeps of its form (`Submission.scoredAgainst`), so that later edits
 * never change the result. Version 2 adds what §15 and §16 score with (question keys, reverse
 * items, critical options and bands, the scoring settings, the subscales); a snapshot written
 * before it has no `version` and reads as version 1, each new field at the value that scores as
 * the plain sum it was scored with. Version 3 adds the answer key and the feedback (§22: points,
 * scoring rule and feedback of a question, correct mark and feedback of an option), which an
 * older snapshot reads as a question scored by its options, with no feedback. Read back through
 * this schema, never cast (ADR 68).
 */
export const SCORED_AGAINST_VERSION = 3;

const snapshotQuestion = z.object({
  id: z.string(),
  text: z.string(),
  type: z.enum(QUESTION_TYPES),
  required: z.boolean(),
  key: z.string().nullable().default(null),
  reverseScored: z.boolean().default(false),
  points: z.number().nullable().default(null),
  scoringRule: z.enum(SCORING_RULES).default("ALL_OR_NOTHING"),
  feedback: z.string().nullable().default(null),
  imageId: z.string().nullable().default(null),
  imageAlt: z.string().nullable().default(null),
  options: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      score: z.number(),
      critical: z.boolean().default(false),
      correct: z.boolean().default(false),
      feedback: z.string().nullable().default(null),
      imageId: z.string().nullable().default(null),
      imageAlt: z.string().nullable().default(null),
    }),
  ),
});

export const scoredAgainstSchema = z.object({
  version: z.number().int().default(1),
  form: z.object({ id: z.string(), title: z.string(), category: z.string().nullable(), type: z.string().nullable() }),
  respondent: z.object({
    kind: z.enum(["student", "candidate"]),
    id: z.string(),
    name: z.string(),
    grade: z.string().nullable(),
    age: z.number().nullable(),
  }),
  questions: z.array(snapshotQuestion),
  scoreRanges: z.array(band),
  scoring: scoringSettings.default(scoringSettings.parse({})),
  subscales: subscaleDefinitions.default([]),
});

/** The snapshot as written: every field of the current version. */
export type ScoredAgainst = z.input<typeof scoredAgainstSchema> & { version: typeof SCORED_AGAINST_VERSION };

/** A stored snapshot of any version, read as the current one. */
export function readScoredAgainst(value: unknown): z.output<typeof scoredAgainstSchema> {
  return scoredAgainstSchema.parse(value);
}
