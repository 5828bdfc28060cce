import { z } from "zod";
import type { QuestionnaireSource } from "~/features/fhir/questionnaire.ts";
import { questionInput, scoreRangeSchema, scoringInput, subscaleInput } from "~/features/forms/form-schemas.ts";
import { storedOptions } from "~/features/forms/scale.ts";
import { type InstrumentDefinition, instrumentForm, textIn } from "~/features/instruments/instrument-definition.ts";
import { scoringSettings, subscaleDefinitions } from "~/features/scoring/scale-schemas.ts";
import { questionKey, type ScaleForm } from "~/features/scoring/scales.ts";

/**
 * Forms for the FHIR tests as the body of `POST /api/forms` takes them, and what the export reads
 * of such a form (as `getForm` presents it) and what scoring reads (as a submit scores it), made
 * without a server so that the mapping's round trip can be checked on its own.
 */

const often = ["Never", "Sometimes", "Often", "Almost always"];
/** Four options scored 0–3; on a critical item, "Often" and "Almost always" flag the result. */
const oftenOptions = (critical = false) => often.map((text, score) => ({ text, score, ...(critical && score >= 2 ? { critical: true } : {}) }));
const item = (key: string, text: string, extra: Record<string, unknown> = {}) => ({ key, text, type: "SINGLE_CHOICE", options: oftenOptions(), ...extra });
const [GREEN, AMBER, RED] = ["#1A7F37", "#B54708", "#B42318"];

/**
 * A form with everything the FHIR mapping carries: question keys and one keyed by position, a
 * reverse-scored single and multiple choice, critical options, a critical band of the total and
 * of a subscale, a numbered scale with end labels, a text question, a subscale × 2 and one by its
 * MEAN, one missing item allowed.
 */
export function moodFormBody(title: string) {
  return {
    title,
    description: "How the last two weeks went.",
    category: "Screening",
    isPublished: true,
    criticalMessage: "If you are in danger now, call your local emergency number.",
    scoring: { method: "SUM", maxMissing: 1, display: "RAW" },
    scoreRanges: [
      { min: 0, max: 9, label: "Low", color: GREEN },
      { min: 10, max: 19, label: "Mid", color: AMBER },
      { min: 20, max: 30, label: "High", color: RED, critical: true },
    ],
    questions: [
      item("d1", "I felt down", { required: true }),
      item("d2", "I found nothing to look forward to", { required: true }),
      item("d3", "I felt life was not worth living", { required: true, options: oftenOptions(true) }),
      item("a1", "I felt my heart racing"),
      item("a2", "I felt close to panic"),
      item("a3", "I felt calm", { reverseScored: true }),
      {
        key: "m1",
        text: "Which helped?",
        type: "MULTIPLE_CHOICE",
        reverseScored: true,
        options: [
          { text: "Sleep", score: 0.5 },
          { text: "Friends", score: 1.5 },
          { text: "Nothing", score: 2 },
        ],
      },
      { text: "How was your sleep?", type: "SCALE", scale: { min: 1, max: 5, minLabel: "Poor", maxLabel: "Good" } },
      { text: "Anything else?", type: "TEXT" },
    ],
    subscales: [
      {
        key: "depression",
        name: "Depression",
        items: ["d1", "d2", "d3"],
        multiplier: 2,
        scoreRanges: [
          { min: 0, max: 5, label: "Normal", color: GREEN },
          { min: 6, max: 11, label: "Moderate", color: AMBER },
          { min: 12, max: 18, label: "Severe", color: RED, critical: true },
        ],
      },
      { key: "anxiety_a", name: "Anxiety", items: ["a1", "a2", "a3"], method: "MEAN", scoreRanges: [] },
    ],
  };
}

/** Answers to a form by question index: the positions of the options chosen (null: unanswered). */
export type Pattern = (number[] | null)[];

/**
 * The mood form answered so that it is flagged: d1 3, d2 3, d3 "Often" (critical), a1 1, a2 0, a3
 * "Almost always" (mirrored to 0), Sleep and Friends (mirrored to 2 + 1), sleep 4. Depression
 * (3 + 3 + 2) × 2 = 16 is Severe, a critical band; anxiety (1 + 0 + 0) / 3 = 0.33; the total 16, Mid.
 */
export const FLAGGED_MOOD: Pattern = [[3], [3], [2], [1], [0], [3], [0, 1], [3], null];

/** Its QuestionnaireResponse's items: each linkId with the codes chosen, the text question answered `text`. */
export const flaggedMoodItems = (text: string) => [
  ["d1", ["d1.3"]],
  ["d2", ["d2.3"]],
  ["d3", ["d3.2"]],
  ["a1", ["a1.1"]],
  ["a2", ["a2.0"]],
  ["a3", ["a3.3"]],
  ["m1", ["m1.0", "m1.1"]],
  ["q8", ["q8.3"]],
  ["q9", [text]],
];

/** A library instrument's content as the body of `POST /api/forms` (the instrument's scoring form, in English). */
export function instrumentFormBody(instrument: InstrumentDefinition) {
  const form = instrumentForm(instrument);
  return {
    title: instrument.name,
    description: textIn(instrument.instructions, "en"),
    isPublished: true,
    scoreRanges: form.scoreRanges,
    scoring: form.scoring,
    subscales: form.subscales,
    criticalMessage: instrument.criticalMessage ? textIn(instrument.criticalMessage, "en") : null,
    questions: form.questions.map(({ id: _id, options, ...question }) => ({ ...question, options: options.map(({ id: _optionId, ...option }) => option) })),
  };
}

/**
 * A form body read as `POST /api/forms` reads it, field by field, without the check across fields
 * that every band can be reached (which does not count a multiplier: the WHO-5's bands on its
 * score × 4 fail it, although the form scores as published).
 */
const formFields = z.object({
  title: z.string(),
  description: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  targetAudience: z.string().nullable().optional(),
  isPublished: z.boolean().default(false),
  scoreRanges: z.array(scoreRangeSchema).default([]),
  questions: z.array(questionInput).default([]),
  scoring: scoringInput.nullable().default(null),
  subscales: z.array(subscaleInput).default([]),
  criticalMessage: z.string().nullable().optional(),
});

export type FormFields = z.output<typeof formFields>;

export const readFormBody = (body: unknown): FormFields => formFields.parse(body);

/** The form as the export reads it: what `getForm` answers for it. */
export function questionnaireSourceOf(
  form: FormFields,
  id = "cmf3k9x2a0001qz8h4b7c2d1e",
  updatedAt = new Date("2026-03-14T09:30:00.000Z"),
): QuestionnaireSource {
  return {
    id,
    title: form.title,
    description: form.description ?? null,
    category: form.category ?? null,
    type: form.type ?? null,
    targetAudience: form.targetAudience ?? null,
    isPublished: form.isPublished,
    updatedAt,
    questions: form.questions.map((question, index) => ({
      text: question.text,
      type: question.type,
      required: question.required,
      key: questionKey(question, index),
      reverseScored: question.reverseScored ?? false,
      scale:
        question.type === "SCALE" && question.scale
          ? { ...question.scale, minLabel: question.scale.minLabel ?? null, maxLabel: question.scale.maxLabel ?? null }
          : null,
      options: storedOptions(question).map((option) => ({
        text: option.text,
        score: option.score,
        critical: ("critical" in option && option.critical) || false,
      })),
    })),
    scoreRanges: form.scoreRanges,
    scoring: scoringSettings.parse(form.scoring ?? {}),
    subscales: subscaleDefinitions.parse(form.subscales),
    criticalMessage: form.criticalMessage ?? null,
  };
}

/** The form as a submit scores it; question `i` has the id `q<i>`, its option `j` the id `q<i>.<j>`. */
export function scaleFormOf(form: FormFields): ScaleForm {
  return {
    questions: form.questions.map((question, index) => ({
      id: `q${index}`,
      text: question.text,
      type: question.type,
      required: question.required,
      key: question.key ?? null,
      reverseScored: question.reverseScored ?? false,
      options: storedOptions(question).map((option, position) => ({
        id: `q${index}.${position}`,
        text: option.text,
        score: option.score,
        critical: ("critical" in option && option.critical) || false,
      })),
    })),
    scoreRanges: form.scoreRanges,
    scoring: form.scoring,
    subscales: form.subscales,
  };
}
