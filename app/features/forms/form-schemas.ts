import { z } from "zod";
import { unreachableBands } from "../scoring/achievable.ts";
import { achievableScores } from "../scoring/items.ts";
import { DEFAULT_SCORING, KEY_PATTERN, MAX_SUBSCALES } from "../scoring/scale-limits.ts";
import { band, reliableChangeOutput, scoringSettings, subscaleDefinitions } from "../scoring/scale-schemas.ts";
import { QUESTION_TYPES } from "./question-types.ts";
import { REVIEW_POLICIES } from "./review-policies.ts";
import { SCORING_RULES } from "../scoring/answer-key.ts";
import { IMAGE_ALT_MAX } from "./form-image-schemas.ts";
import { instrumentMark } from "../instruments/instrument-schemas.ts";
import { SCALE_BOUND, SCALE_MAX_POINTS, scalePoints, storedOptions } from "./scale.ts";
import {
  booleanParam,
  changesResponse,
  idSchema,
  multiLineText,
  notDeleted,
  optionalText,
  paginationQuery,
  searchParam,
  singleLineText,
  timestamp,
  updatedSinceParam,
} from "~/lib/schemas.ts";

/** The largest score (and score range bound) a form may use, either sign. */
export const SCORE_LIMIT = 1_000_000;

/**
 * A question's or option's image (docs/api-contract.md §22): an image uploaded to the same form,
 * with its alt text, which it requires.
 */
const imageFields = {
  imageId: idSchema.nullable().optional().meta({
    description:
      "An image uploaded to this form (POST /api/forms/{id}/images); null: none. Left out: none, or on PUT an item kept by its id keeps its own (and its alt text).",
  }),
  imageAlt: optionalText(IMAGE_ALT_MAX).meta({ description: "What the image shows, for those who cannot see it: required with `imageId`." }),
};

/** An image given without its alt text: the problem is the alt text's. */
function reportMissingAlt(
  item: { imageId?: string | null | undefined; imageAlt?: string | null | undefined },
  ctx: z.RefinementCtx,
  path: (string | number)[],
) {
  if (item.imageId && !item.imageAlt) ctx.addIssue({ code: "custom", path: [...path, "imageAlt"], message: "imageAltRequired" });
}

/** The longest feedback of a question or an option. */
export const FEEDBACK_MAX = 2000;

/** Bounded so that no total of a form's scores can overflow (or lose its precision). */
const score = z.number().min(-SCORE_LIMIT, "scoreOutOfRange").max(SCORE_LIMIT, "scoreOutOfRange");

export const optionInput = z.strictObject({
  id: idSchema.optional().meta({ description: "Keep and update this existing option (PUT)." }),
  text: singleLineText(500),
  score,
  critical: z.boolean().optional().meta({
    description: "Choosing this option flags the result (docs/api-contract.md §16). Left out: false, or on PUT an option kept by its id keeps its own.",
  }),
  correct: z.boolean().optional().meta({
    description:
      "Part of the answer key of a question with `points` (docs/api-contract.md §22). Left out: false, or on PUT an option kept by its id keeps its own.",
  }),
  feedback: optionalText(FEEDBACK_MAX).meta({
    description: "What the respondent reads in their review when they chose it. Left out on PUT, an option kept by its id keeps its own.",
  }),
  ...imageFields,
});

const scaleBound = z.number().int("wholeNumber").min(-SCALE_BOUND).max(SCALE_BOUND);

export const scaleInput = z
  .strictObject({
    min: scaleBound.meta({ description: "The lowest point, a whole number." }),
    max: scaleBound.meta({ description: `The highest point: 2 to ${SCALE_MAX_POINTS} points in all.` }),
    minLabel: optionalText(100).meta({ description: 'What the lowest point means, shown under it ("Not at all").' }),
    maxLabel: optionalText(100).meta({ description: 'What the highest point means ("Very much").' }),
  })
  .refine((scale) => scale.max > scale.min && scale.max - scale.min < SCALE_MAX_POINTS, {
    path: ["max"],
    message: "scaleSize",
    params: { values: [String(SCALE_MAX_POINTS)] },
  })
  .meta({
    id: "Scale",
    description:
      "A SCALE question's range. Without `options` each point becomes an option named by its number and scored by its value; with `options`, one per point in order (a label or a score of the teacher's own).",
  });

export const questionInput = z
  .strictObject({
    id: idSchema.optional().meta({ description: "Keep and update this existing question (PUT)." }),
    text: multiLineText(2000),
    type: z.enum(QUESTION_TYPES),
    required: z.boolean().default(false),
    key: z
      .string()
      .max(100)
      .nullable()
      .optional()
      .meta({
        description: `The name subscales, exports and FHIR use for the question: ${KEY_PATTERN.source}, unique in the form; null: keyed \`q<position>\`. Left out on PUT, a question kept by its id keeps its own.`,
      }),
    reverseScored: z.boolean().optional().meta({
      description:
        "The chosen option counts `min + max − score` of the question's option scores. Left out: false, or on PUT a question kept by its id keeps its own.",
    }),
    scale: scaleInput.optional(),
    options: z.array(optionInput).max(50).default([]),
    points: z.number().positive("pointsPositive").max(SCORE_LIMIT, "scoreOutOfRange").nullable().optional().meta({
      description:
        "Grades a single or multiple choice question by its key (the options with `correct: true`): a correct answer scores these points, whatever the options score; null: scored by its options. Left out on PUT, a question kept by its id keeps its own.",
    }),
    scoringRule: z.enum(SCORING_RULES).optional().meta({
      description:
        "A keyed multiple choice: ALL_OR_NOTHING (exactly the correct options) or PARTIAL (points × (right − wrong) / correct options, never below 0). Left out: ALL_OR_NOTHING, or on PUT a question kept by its id keeps its own.",
    }),
    feedback: optionalText(FEEDBACK_MAX).meta({
      description: "What the respondent reads about the question in their review. Left out on PUT, a question kept by its id keeps its own.",
    }),
    ...imageFields,
  })
  .superRefine((question, ctx) => {
    reportMissingAlt(question, ctx, []);
    if (question.points !== null && question.points !== undefined) {
      if (question.type !== "SINGLE_CHOICE" && question.type !== "MULTIPLE_CHOICE") {
        ctx.addIssue({ code: "custom", path: ["points"], message: "pointsOnlyForChoice" });
      } else if (question.reverseScored) {
        ctx.addIssue({ code: "custom", path: ["reverseScored"], message: "keyedNotReversed" });
      }
    }
    for (const [index, option] of question.options.entries()) reportMissingAlt(option, ctx, ["options", index]);
    if (question.scale && question.type !== "SCALE") {
      ctx.addIssue({ code: "custom", path: ["scale"], message: "scaleOnlyForScale" });
    }
    if (question.type === "TEXT" && question.options.length > 0) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "textNoOptions" });
    }
    if (question.type === "SCALE" && question.scale) {
      const points = scalePoints(question.scale).length;
      if (question.options.length > 0 && question.options.length !== points) {
        ctx.addIssue({ code: "custom", path: ["options"], message: "scalePoints", params: { values: [String(points)] } });
      }
    } else if (question.type !== "TEXT" && question.options.length < 2) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "needOptions", params: { values: ["2"] } });
    }
    reportDuplicateIds(question.options, ctx, "options");
  });

export const scoreRangeSchema = z
  .strictObject({
    min: score,
    max: score,
    label: singleLineText(100),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "color")
      .meta({ examples: ["#1A7F37"] }),
    critical: z.boolean().default(false).meta({ description: "A score in this band flags the result (docs/api-contract.md §16)." }),
  })
  .refine((range) => range.min <= range.max, { path: ["max"], message: "maxBelowMin" })
  .meta({ id: "ScoreRange" });

function reportDuplicateIds(items: { id?: string | undefined }[], ctx: z.RefinementCtx, path: string) {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (!item.id) return;
    if (seen.has(item.id)) ctx.addIssue({ code: "custom", path: [path, index, "id"], message: "duplicateId" });
    seen.add(item.id);
  });
}

/** Ranges are closed intervals; two that share any score make the label ambiguous. */
function reportOverlappingRanges(ranges: { min: number; max: number }[], ctx: z.RefinementCtx) {
  ranges.forEach((range, index) => {
    const other = ranges.findIndex((b, j) => j < index && range.min <= b.max && b.min <= range.max);
    if (other !== -1) {
      ctx.addIssue({
        code: "custom",
        path: ["scoreRanges", index],
        message: "overlaps",
        params: { values: [String(other + 1)] },
      });
    }
  });
}

const scoringMethod = z.enum(["SUM", "MEAN"]);
const multiplier = z.number().positive().max(1000);

export const scoringInput = z
  .strictObject({
    method: scoringMethod.default("SUM"),
    multiplier: multiplier.default(1).meta({ description: "Scales the score after summing (DASS-21 uses 2)." }),
    maxMissing: z.number().int("wholeNumber").min(0).max(200).nullable().default(null).meta({
      description:
        "Up to this many unanswered items are prorated (and may be left unanswered on the public link); more leave the score null. null: an unanswered item scores 0.",
    }),
    display: z.enum(["RAW", "PERCENT"]).default("PERCENT"),
  })
  .meta({ id: "Scoring", description: "How the total is made (docs/api-contract.md §15)." });

/** One constant of the pair: left out while the other is given, the message says both or neither. */
const constant = () => z.number({ error: (issue) => (issue.input === undefined ? "reliableChangeBoth" : undefined) });

/** The Jacobson–Truax constants of a total or a subscale (docs/api-contract.md §18, ADR 80). */
export const reliableChangeInput = z
  .strictObject({
    sd: constant()
      .positive("standardDeviation")
      .max(SCORE_LIMIT, "scoreOutOfRange")
      .meta({ description: "The score's standard deviation in a published sample: above 0." }),
    reliability: constant()
      .min(0, "reliability")
      .lt(1, "reliability")
      .meta({ description: "The score's reliability (test–retest or internal consistency): from 0 up to, not including, 1." }),
  })
  .meta({
    id: "ReliableChange",
    description: "A result's reliable change index is (score − baseline) / (sd × √2 × √(1 − reliability)), compared with ±1.96 (docs/api-contract.md §18).",
  });

const remissionBelow = score.meta({ description: "A score below this is a remission (docs/api-contract.md §18)." });

export const subscaleInput = z
  .strictObject({
    key: z
      .string()
      .max(100)
      .meta({ description: `${KEY_PATTERN.source}, unique in the form.` }),
    name: singleLineText(200),
    items: z.array(z.string().max(100)).max(200).meta({ description: "Keys of scored questions of the form; a question may be in several subscales." }),
    method: scoringMethod.default("SUM"),
    multiplier: multiplier.nullable().optional(),
    scoreRanges: z.array(scoreRangeSchema).max(20).default([]),
    reliableChange: reliableChangeInput.nullable().optional().meta({ description: "The subscale's own reliable-change constants; left out: none." }),
    remissionBelow: remissionBelow.nullable().optional(),
  })
  .superRefine((subscale, ctx) => reportOverlappingRanges(subscale.scoreRanges, ctx))
  .meta({ id: "Subscale" });

const reviewPolicy = z.enum(REVIEW_POLICIES).meta({
  description:
    "When the respondent reads their answers, the correct ones and the feedback on their link: never, once they submit, or once the test closes (the form unpublished or the link expired).",
});

const formFields = {
  title: singleLineText(200),
  description: optionalText(5000),
  category: optionalText(100),
  type: optionalText(100),
  targetAudience: optionalText(200),
  isPublished: z.boolean(),
  isTemplate: z.boolean(),
  showResultToRespondent: z.boolean().meta({ description: "true: a signed-in student sees their own score and band for this form." }),
  scoreRanges: z.array(scoreRangeSchema).max(20),
  questions: z.array(questionInput).max(200),
  scoring: scoringInput.nullable().meta({ description: "null: a plain sum, unanswered items scoring 0." }),
  // More than MAX_SUBSCALES is refused with the other scoring problems (scoringProblems); the bound keeps a body small.
  subscales: z
    .array(subscaleInput)
    .max(5 * MAX_SUBSCALES)
    .meta({ description: `At most ${MAX_SUBSCALES}.` }),
  criticalMessage: optionalText(2000).meta({
    description: "What the respondent reads on the confirmation page when any of their answers is critical (docs/api-contract.md §16).",
  }),
  reliableChange: reliableChangeInput.nullable().meta({ description: "The total's reliable-change constants; null: none, so no result is classified." }),
  remissionBelow: remissionBelow.nullable().meta({ description: "A total below this is a remission; null: the form names none." }),
  lowerIsBetter: z.boolean().meta({ description: "Whether a fall of the total (and of each subscale) is an improvement." }),
  shuffleQuestions: z.boolean().meta({
    description: "Each link shows the questions in an order of its own, the same at every opening; results and exports keep the form's order.",
  }),
  shuffleOptions: z.boolean().meta({
    description: "Each link shows the options of each choice question in an order of its own (a SCALE keeps its points' order).",
  }),
  review: reviewPolicy,
};

/**
 * A band no total can reach names nobody: refused (a band reaching past the lowest or highest total
 * is kept, as "0 to 4" on a form whose lowest total is 2). The totals are made as the form's
 * `scoring` makes them (WHO-5: raw 0 to 25, × 4). Checked here when the body holds the bands, the
 * questions and the scoring; a PUT that changes only some of them is checked by the service
 * against what is stored.
 */
export function unreachableBandIssues(
  ranges: { min: number; max: number }[],
  questions: z.output<typeof questionInput>[],
  scoring: Partial<z.output<typeof scoringInput>> | null,
) {
  const totals = achievableScores(
    questions.map((question) => ({ ...question, options: storedOptions(question) })),
    {
      method: scoring?.method ?? DEFAULT_SCORING.method,
      multiplier: scoring?.multiplier ?? DEFAULT_SCORING.multiplier,
      maxMissing: scoring?.maxMissing ?? DEFAULT_SCORING.maxMissing,
    },
  );
  return unreachableBands(ranges, totals).map((index) => ({
    path: ["scoreRanges", index] as (string | number)[],
    message: "bandUnreachable" as const,
    params: { values: [String(totals.min), String(totals.max)] },
  }));
}

function refineForm(
  form: {
    scoreRanges?: { min: number; max: number }[];
    questions?: z.output<typeof questionInput>[];
    scoring?: z.output<typeof scoringInput> | null | undefined;
  },
  ctx: z.RefinementCtx,
) {
  if (form.scoreRanges) reportOverlappingRanges(form.scoreRanges, ctx);
  if (form.questions) reportDuplicateIds(form.questions, ctx, "questions");
  // Only a form whose scores are valid has totals to check the bands against.
  const valid = (n: number) => Math.abs(n) <= SCORE_LIMIT;
  const scoresValid = form.questions?.every((q) => q.options.every((o) => valid(o.score)) && (!q.scale || q.scale.max > q.scale.min));
  if (form.scoreRanges && form.questions && form.scoring !== undefined && scoresValid && form.scoreRanges.every((r) => valid(r.min) && valid(r.max))) {
    for (const issue of unreachableBandIssues(form.scoreRanges, form.questions, form.scoring)) ctx.addIssue({ code: "custom", ...issue });
  }
}

export const createFormBody = z
  .strictObject({
    ...formFields,
    isPublished: formFields.isPublished.default(false),
    isTemplate: formFields.isTemplate.default(false),
    showResultToRespondent: formFields.showResultToRespondent.default(false),
    scoreRanges: formFields.scoreRanges.default([]),
    questions: formFields.questions.default([]),
    scoring: formFields.scoring.default(null),
    subscales: formFields.subscales.default([]),
    reliableChange: formFields.reliableChange.default(null),
    remissionBelow: formFields.remissionBelow.default(null),
    lowerIsBetter: formFields.lowerIsBetter.default(true),
    shuffleQuestions: formFields.shuffleQuestions.default(false),
    shuffleOptions: formFields.shuffleOptions.default(false),
    review: formFields.review.default("NEVER"),
  })
  .superRefine(refineForm)
  .meta({ id: "FormCreate" });

/** PUT changes only the fields sent; `questions`, when sent, replaces the whole list. */
export const updateFormBody = z
  .strictObject({
    title: formFields.title.optional(),
    description: formFields.description,
    category: formFields.category,
    type: formFields.type,
    targetAudience: formFields.targetAudience,
    isPublished: formFields.isPublished.optional(),
    isTemplate: formFields.isTemplate.optional(),
    showResultToRespondent: formFields.showResultToRespondent.optional(),
    scoreRanges: formFields.scoreRanges.optional(),
    questions: formFields.questions.optional(),
    scoring: formFields.scoring.optional(),
    subscales: formFields.subscales.optional(),
    criticalMessage: formFields.criticalMessage,
    reliableChange: formFields.reliableChange.optional(),
    remissionBelow: formFields.remissionBelow.optional(),
    lowerIsBetter: formFields.lowerIsBetter.optional(),
    shuffleQuestions: formFields.shuffleQuestions.optional(),
    shuffleOptions: formFields.shuffleOptions.optional(),
    review: formFields.review.optional(),
  })
  .superRefine(refineForm)
  .meta({ id: "FormUpdate" });

/**
 * What the editor of a form installed from the instrument library changes: the details its lock
 * leaves open (publication has its own button). The API takes them in a PUT like any other field.
 */
export const instrumentDetailsBody = z.strictObject({
  title: formFields.title,
  description: formFields.description,
  criticalMessage: formFields.criticalMessage,
});

export type CreateFormInput = z.output<typeof createFormBody>;
export type UpdateFormInput = z.output<typeof updateFormBody>;

export const listFormsQuery = z.strictObject({
  ...paginationQuery,
  search: searchParam,
  published: booleanParam.optional(),
  isTemplate: booleanParam.optional().meta({ description: "true: only templates available to the caller." }),
  updatedSince: updatedSinceParam,
});

export type ListFormsQuery = z.output<typeof listFormsQuery>;

// ---- responses -------------------------------------------------------------------------------

/** A question's scale as read back (the form and the public test link). */
export const questionScale = z
  .object({ min: z.number().int(), max: z.number().int(), minLabel: z.string().nullable(), maxLabel: z.string().nullable() })
  .nullable()
  .meta({ description: "A SCALE question's range and end labels; null for other questions and for a scale given only by its options." });

/** A question's or option's image as read back: its id (served at /api/forms/{id}/images/{imageId}) and alt text. */
const storedImageFields = {
  imageId: idSchema.nullable().meta({ description: "The image shown with it (GET /api/forms/{id}/images/{imageId}); null: none." }),
  imageAlt: z.string().nullable(),
};

const formSummaryFields = {
  id: idSchema,
  title: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  type: z.string().nullable(),
  targetAudience: z.string().nullable(),
  isPublished: z.boolean(),
  isTemplate: z.boolean(),
  showResultToRespondent: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  instrument: instrumentMark.nullable(),
};

export const formListItem = z
  .object({
    ...formSummaryFields,
    deletedAt: notDeleted,
    _count: z.object({ questions: z.number().int(), submissions: z.number().int() }),
  })
  .meta({ id: "FormListItem" });

export const formListResponse = changesResponse("forms", formListItem);

export const formDetail = z
  .object({
    ...formSummaryFields,
    deletedAt: timestamp.nullable(),
    createdBy: z.object({ id: idSchema, name: z.string() }),
    scoreRanges: z.array(band),
    questions: z.array(
      z.object({
        id: idSchema,
        text: z.string(),
        type: z.enum(QUESTION_TYPES),
        required: z.boolean(),
        key: z.string().meta({ description: "Its own key, or `q<position>` counted from 1." }),
        reverseScored: z.boolean(),
        scale: questionScale,
        options: z.array(
          z.object({
            id: idSchema,
            text: z.string(),
            score: z.number(),
            critical: z.boolean(),
            correct: z.boolean(),
            feedback: z.string().nullable(),
            ...storedImageFields,
          }),
        ),
        ...storedImageFields,
        points: z.number().nullable().meta({ description: "Graded by its key: the points a correct answer earns; null: scored by its options." }),
        scoringRule: z.enum(SCORING_RULES),
        feedback: z.string().nullable(),
      }),
    ),
    scoring: scoringSettings,
    subscales: subscaleDefinitions,
    criticalMessage: z.string().nullable(),
    reliableChange: reliableChangeOutput
      .nullable()
      .meta({ description: "The total's reliable-change constants (docs/api-contract.md §18); an installed instrument's are the library's." }),
    remissionBelow: z.number().nullable().meta({ description: "A total below this is a remission; null: none." }),
    lowerIsBetter: z.boolean().meta({ description: "Whether a fall of the total is an improvement." }),
    shuffleQuestions: z.boolean(),
    shuffleOptions: z.boolean(),
    review: reviewPolicy,
    version: z.number().int().meta({
      description: "Raised by a change that can change a score once the form has results; each result records the version it was scored against.",
    }),
  })
  .meta({ id: "Form" });
