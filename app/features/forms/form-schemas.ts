import { z } from "zod";
import { QUESTION_TYPES } from "./question-types.ts";
import { booleanParam, idSchema, multiLineText, optionalText, paginationQuery, pagedResponse, searchParam, singleLineText, timestamp } from "~/lib/schemas.ts";

/** The largest score (and score range bound) a form may use, either sign. */
export const SCORE_LIMIT = 1_000_000;

/** Bounded so that no total of a form's scores can overflow (or lose its precision). */
const score = z.number().min(-SCORE_LIMIT, "scoreOutOfRange").max(SCORE_LIMIT, "scoreOutOfRange");

export const optionInput = z.strictObject({
  id: idSchema.optional().meta({ description: "Keep and update this existing option (PUT)." }),
  text: singleLineText(500),
  score,
});

export const questionInput = z
  .strictObject({
    id: idSchema.optional().meta({ description: "Keep and update this existing question (PUT)." }),
    text: multiLineText(2000),
    type: z.enum(QUESTION_TYPES),
    required: z.boolean().default(false),
    options: z.array(optionInput).max(50).default([]),
  })
  .superRefine((question, ctx) => {
    if (question.type === "TEXT" && question.options.length > 0) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "textNoOptions" });
    }
    if (question.type !== "TEXT" && question.options.length < 2) {
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
};

function refineForm(form: { scoreRanges?: { min: number; max: number }[]; questions?: { id?: string }[] }, ctx: z.RefinementCtx) {
  if (form.scoreRanges) reportOverlappingRanges(form.scoreRanges, ctx);
  if (form.questions) reportDuplicateIds(form.questions, ctx, "questions");
}

export const createFormBody = z
  .strictObject({
    ...formFields,
    isPublished: formFields.isPublished.default(false),
    isTemplate: formFields.isTemplate.default(false),
    showResultToRespondent: formFields.showResultToRespondent.default(false),
    scoreRanges: formFields.scoreRanges.default([]),
    questions: formFields.questions.default([]),
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
  })
  .superRefine(refineForm)
  .meta({ id: "FormUpdate" });

export type CreateFormInput = z.output<typeof createFormBody>;
export type UpdateFormInput = z.output<typeof updateFormBody>;

export const listFormsQuery = z.strictObject({
  ...paginationQuery,
  search: searchParam,
  published: booleanParam.optional(),
  isTemplate: booleanParam.optional().meta({ description: "true: only templates available to the caller." }),
});

export type ListFormsQuery = z.output<typeof listFormsQuery>;

// ---- responses -------------------------------------------------------------------------------

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
};

export const formListItem = z
  .object({
    ...formSummaryFields,
    _count: z.object({ questions: z.number().int(), submissions: z.number().int() }),
  })
  .meta({ id: "FormListItem" });

export const formListResponse = pagedResponse("forms", formListItem);

export const formDetail = z
  .object({
    ...formSummaryFields,
    deletedAt: timestamp.nullable(),
    createdBy: z.object({ id: idSchema, name: z.string() }),
    scoreRanges: z.array(z.object({ min: z.number(), max: z.number(), label: z.string(), color: z.string() })),
    questions: z.array(
      z.object({
        id: idSchema,
        text: z.string(),
        type: z.enum(QUESTION_TYPES),
        required: z.boolean(),
        options: z.array(z.object({ id: idSchema, text: z.string(), score: z.number() })),
      }),
    ),
  })
  .meta({ id: "Form" });
