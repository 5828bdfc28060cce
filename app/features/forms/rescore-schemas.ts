import { z } from "zod";
import { idSchema, timestamp } from "~/lib/schemas.ts";

/**
 * A form's versions and the rescore of its results against the current one (docs/api-contract.md
 * §22, ADR 94): the body of POST /api/forms/:id/rescore and of the page "Rescore results", and what
 * both answer.
 */

export const rescoreBody = z
  .strictObject({
    dryRun: z.boolean().optional().meta({ description: "true: answer which results would change, and change nothing." }),
  })
  .meta({ id: "RescoreForm" });
export type RescoreInput = z.output<typeof rescoreBody>;

const resultScore = z.object({
  totalScore: z.number().nullable().meta({ description: "null: more answers missing than the form allows." }),
  maxScore: z.number().nullable(),
  percentage: z.number().nullable(),
  scoreLabel: z.string().nullable(),
  scoreColor: z.string().nullable(),
});

export const rescoreResponse = z
  .object({
    dryRun: z.boolean(),
    version: z.number().int().meta({ description: "The form's current version: what the results are scored against now." }),
    results: z.number().int().meta({
      description: "The completed results scored against an earlier version: each is (or would be) rescored and recorded as scored against `version`.",
    }),
    changed: z
      .array(
        z.object({
          submissionId: idSchema,
          respondentName: z.string().nullable().meta({ description: "null for a result the caller does not see (a colleague's respondent)." }),
          before: resultScore,
          after: resultScore,
        }),
      )
      .meta({ description: "The results whose scores differ against the current version (total, band, subscales or an answer's score), oldest first." }),
  })
  .meta({ id: "Rescore" });
export type RescoreResponse = z.output<typeof rescoreResponse>;

export const formVersionsResponse = z
  .object({
    version: z.number().int().meta({ description: "The form's current version." }),
    versions: z.array(
      z.object({
        version: z.number().int(),
        createdAt: timestamp,
        results: z.number().int().meta({ description: "Completed results (not deleted) scored against this version." }),
      }),
    ),
  })
  .meta({ id: "FormVersions" });
