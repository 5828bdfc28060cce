import { z } from "zod";
import { linkImage } from "../forms/form-image-schemas.ts";
import { QUESTION_TYPES } from "../forms/question-types.ts";
import { idSchema } from "~/lib/schemas.ts";

/**
 * GET /api/test-link/:token/review (docs/api-contract.md §22): the respondent's answers beside the
 * key and the feedback the result was scored with, in the form's order.
 */
export const testLinkReviewResponse = z
  .object({
    form: z.object({
      title: z.string().meta({ description: "The form's title as it was answered." }),
      questions: z.array(
        z.object({
          id: idSchema,
          text: z.string(),
          type: z.enum(QUESTION_TYPES),
          image: linkImage,
          points: z.number().nullable().meta({ description: "What a correct answer earns, for a question graded by its key; null: not graded by a key." }),
          feedback: z.string().nullable(),
          options: z.array(
            z.object({
              id: idSchema,
              text: z.string(),
              correct: z.boolean().meta({ description: "Part of the answer key." }),
              feedback: z.string().nullable(),
              image: linkImage,
            }),
          ),
        }),
      ),
    }),
    answers: z.array(
      z.object({
        questionId: idSchema,
        optionIds: z.array(idSchema),
        text: z.string().nullable(),
        correct: z.boolean().nullable().meta({ description: "Whether the answer is the key's, for a question graded by its key; null otherwise." }),
        points: z.number().nullable().meta({ description: "The points the answer earned, for a question graded by its key; null otherwise." }),
        feedback: z.array(z.string()).meta({ description: "The feedback of the options chosen, then the question's." }),
      }),
    ),
    score: z.object({
      totalScore: z.number().nullable().meta({ description: "null when more items are missing than the form allows (`scoring.maxMissing`)." }),
      maxScore: z.number(),
      percentage: z.number().nullable().meta({ description: "null when the total is." }),
    }),
  })
  .meta({ id: "TestLinkReview" });

export type TestLinkReview = z.output<typeof testLinkReviewResponse>;
