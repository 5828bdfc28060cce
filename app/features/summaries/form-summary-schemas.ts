import { z } from "zod";
import { QUESTION_TYPES } from "../forms/question-types.ts";
import { dateParam, idSchema } from "~/lib/schemas.ts";

export const formSummaryQuery = z.strictObject({
  from: dateParam.meta({ description: "Results completed, and links assigned, at or after (ISO 8601 date or date-time)." }),
  to: dateParam.meta({ description: "… at or before; a date covers that whole day in the organization's time zone." }),
  groupId: idSchema.optional().meta({ description: "Only this group's members (as the group is now)." }),
  version: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .meta({ description: "Only the results scored against this version of the form (docs/api-contract.md §22); the links waiting are counted all the same." }),
});
export type FormSummaryQuery = z.output<typeof formSummaryQuery>;

const nullableNumber = z.number().nullable();

export const formSummary = z
  .object({
    assigned: z.number().int().meta({ description: "completed + pending + expired + revoked." }),
    completed: z.number().int().meta({ description: "Completed in the date range." }),
    pending: z.number().int().meta({ description: "Assigned in the date range and still waiting (pending, opened or in progress)." }),
    expired: z.number().int(),
    revoked: z.number().int(),
    score: z
      .object({ mean: nullableNumber, median: nullableNumber, min: nullableNumber, max: nullableNumber })
      .meta({ description: "Over the completed results' total scores (null when there are none); mean and median to 2 decimals." }),
    bands: z
      .array(z.object({ min: z.number(), max: z.number(), label: z.string(), color: z.string(), critical: z.boolean(), count: z.number().int() }))
      .meta({ description: "The form's score ranges now, with how many completed totals fall in each." }),
    subscales: z
      .array(
        z.object({
          key: z.string(),
          name: z.string(),
          scored: z.number().int().meta({ description: "Completed results with a score for it (not unscorable, scored with it)." }),
          mean: nullableNumber,
          min: nullableNumber,
          max: nullableNumber,
        }),
      )
      .meta({ description: "The form's subscales now, each over the scores the results captured for its key; mean to 2 decimals." }),
    questions: z.array(
      z.object({
        id: idSchema,
        text: z.string(),
        type: z.enum(QUESTION_TYPES),
        answered: z.number().int().meta({ description: "Completed results that answer the question." }),
        meanScore: nullableNumber.meta({ description: "The mean score of those answers (2 decimals); null for text questions or when none." }),
        correctRate: nullableNumber.meta({
          description:
            "A question graded by its key (with points): the share of its points the completed results earned, unanswered counting 0, from 0 to 1 (4 decimals); " +
            "for an all-or-nothing question, the share answering it correctly. null for other questions, or when there are no completed results.",
        }),
        options: z.array(z.object({ id: idSchema, text: z.string(), count: z.number().int() })),
      }),
    ),
    missed: z
      .array(z.object({ questionId: idSchema, correctRate: z.number() }))
      .meta({ description: "The questions graded by their key, the most missed first (lowest correctRate; the form's order between equals)." }),
    versions: z
      .array(z.object({ version: z.number().int(), results: z.number().int() }))
      .meta({ description: "Every version of the form, with how many of the selected completed results (whatever `version`) are scored against it." }),
  })
  .meta({ id: "FormSummary" });
export type FormSummary = z.output<typeof formSummary>;
