import { z } from "zod";
import { idSchema, timestamp } from "~/lib/schemas.ts";
import { MAX_RETENTION_MONTHS, RETENTION_ACTIONS } from "./retention-limits.ts";

/**
 * The retention policy (docs/api-contract.md §21, ADR 89): how long an organization keeps results
 * and the people who stopped taking tests, and what happens to them after that.
 */
export { MAX_RETENTION_MONTHS, RETENTION_ACTIONS, type RetentionAction } from "./retention-limits.ts";

const months = (description: string, example: number) =>
  z
    .number({ error: "wholeNumber" })
    .int("wholeNumber")
    .min(1, "tooSmall")
    .max(MAX_RETENTION_MONTHS, "tooBig")
    .nullable()
    .optional()
    .meta({ description, examples: [example] });

/** The policy as PUT /api/organization takes it: the whole of it, replacing the one before. */
export const retentionPolicyInput = z
  .strictObject({
    resultsMonths: months(
      "Results completed more than this many months ago (1 to 600) are anonymised or deleted, and links never completed that were made that long ago are deleted. Null or left out: results are kept.",
      24,
    ),
    inactivePeopleMonths: months(
      "Students and candidates with no change, no link, no result and no sign-in for this many months (1 to 600) are anonymised or deleted with their results. Null or left out: people are kept.",
      36,
    ),
    action: z.enum(RETENTION_ACTIONS, { error: "choice" }).meta({
      description:
        "ANONYMISE keeps the scores for statistics and removes who they were about (names, contact details, record numbers, dates of birth, free-text answers); DELETE removes the records, their answers and drafts. Both keep the form summaries equal to a recount.",
    }),
  })
  .refine((policy) => policy.resultsMonths != null || policy.inactivePeopleMonths != null, { message: "retentionPeriod", path: ["resultsMonths"] })
  .meta({ id: "RetentionPolicyInput" });
export type RetentionPolicyInput = z.output<typeof retentionPolicyInput>;

/** The policy as the organization answers it. */
export const retentionPolicy = z
  .object({
    resultsMonths: z
      .number()
      .int()
      .nullable()
      .meta({ examples: [24] }),
    inactivePeopleMonths: z
      .number()
      .int()
      .nullable()
      .meta({ examples: [36] }),
    action: z.enum(RETENTION_ACTIONS),
  })
  .meta({ id: "RetentionPolicy" });
export type RetentionPolicy = z.output<typeof retentionPolicy>;

/** How many items of each list the preview names; its counts are always whole. */
export const PREVIEW_LIMIT = 100;

export const retentionPreviewResponse = z
  .object({
    retention: retentionPolicy.nullable().meta({ description: "The policy; null: everything is kept and nothing would be touched." }),
    nextRunAt: timestamp
      .nullable()
      .meta({ description: "When the daily run is due next (the start of a day in the organization's time zone); null without a policy." }),
    limit: z
      .number()
      .int()
      .meta({ description: `How many items each list names at most (${PREVIEW_LIMIT}); the counts are whole.`, examples: [PREVIEW_LIMIT] }),
    results: z
      .object({
        before: timestamp.meta({ description: "Results completed, and links never completed made, before this instant are touched." }),
        count: z.number().int(),
        submissions: z.array(
          z.object({
            id: idSchema,
            completedAt: timestamp.nullable().meta({ description: "Null for a link never completed, which is deleted whatever the action." }),
            createdAt: timestamp,
          }),
        ),
      })
      .nullable()
      .meta({
        description:
          "What the results rule would touch, the oldest first (completed results, then links never completed); null when the policy has no resultsMonths.",
      }),
    people: z
      .object({
        before: timestamp.meta({ description: "People whose last activity came before this instant are touched." }),
        count: z.number().int(),
        people: z.array(
          z.object({
            kind: z.enum(["student", "candidate"]),
            id: idSchema,
            lastActivity: timestamp.meta({ description: "The latest of the record's last change, its newest link or result, and its login's last sign-in." }),
          }),
        ),
      })
      .nullable()
      .meta({ description: "Who the people rule would touch, the least recently changed first; null when the policy has no inactivePeopleMonths." }),
  })
  .meta({ id: "RetentionPreview" });
