import { z } from "zod";
import { rawDate, rawJson } from "~/lib/raw-values.ts";
import { timestamp } from "~/lib/schemas.ts";
import { DEFAULT_SCORING } from "./scale-limits.ts";

/**
 * The shapes of scales and flags as the API answers them and as the database keeps them
 * (docs/api-contract.md §15, §16): a form's scoring settings and subscales, and a result's subscale
 * scores and flags. Stored JSON is read back through these schemas, never cast (ADR 68).
 */

const method = z.enum(["SUM", "MEAN"]);

export const band = z
  .object({ min: z.number(), max: z.number(), label: z.string(), color: z.string(), critical: z.boolean().default(false) })
  .meta({ id: "ScoreBand" });

export const scoringSettings = z
  .object({
    method: method.default(DEFAULT_SCORING.method),
    multiplier: z.number().default(DEFAULT_SCORING.multiplier),
    maxMissing: z.number().int().nullable().default(DEFAULT_SCORING.maxMissing),
    display: z.enum(["RAW", "PERCENT"]).default(DEFAULT_SCORING.display),
  })
  .meta({
    id: "ScoringSettings",
    description: "How the total is made; `maxMissing: null` for a form that never set it (unanswered items score 0).",
  });

export const subscaleDefinition = z
  .object({
    key: z.string(),
    name: z.string(),
    items: z.array(z.string()).meta({ description: "The keys of the questions it adds up." }),
    method: method.default("SUM"),
    multiplier: z.number().nullable().default(null),
    scoreRanges: z.array(band).default([]),
  })
  .meta({ id: "SubscaleDefinition" });

export const subscaleDefinitions = z.array(subscaleDefinition);

export const subscaleResult = z
  .object({
    key: z.string(),
    name: z.string(),
    score: z.number().nullable().meta({ description: "null when more items are missing than the form allows." }),
    maxScore: z.number(),
    label: z.string().nullable(),
    color: z.string().nullable(),
    answered: z.number().int(),
    items: z.number().int(),
    prorated: z.boolean(),
    scorable: z.boolean(),
  })
  .meta({ id: "SubscaleResult" });

export const subscaleResults = z.array(subscaleResult);

export const flag = z
  .object({
    kind: z.enum(["OPTION", "BAND"]),
    questionKey: z.string().optional().meta({ description: "OPTION: the question whose critical option was chosen." }),
    subscaleKey: z.string().optional().meta({ description: "BAND of a subscale: its key; absent for the total's band." }),
    text: z.string(),
  })
  .meta({ id: "Flag" });

export const flags = z.array(flag);

/** A result's subscales and flags, next to its total. */
export const scaleResultFields = {
  subscales: subscaleResults.meta({ description: "Each subscale's result as captured at completion; empty for a form without subscales." }),
  flags: flags.meta({ description: "What made the result critical (a critical option chosen, a critical band); empty when nothing did." }),
  flaggedAt: timestamp.nullable().meta({ description: "When the result was flagged (its completion), null when it has no flag." }),
};

/**
 * A result's stored subscales, flags and flag time, from the ORM or a raw query (where SQLite
 * gives JSON as text): parsed, and empty for a result completed before they were kept.
 */
export function readScaleResult(row: { subscales: unknown; flags: unknown; flaggedAt: unknown }) {
  return {
    subscales: subscaleResults.parse(rawJson(row.subscales) ?? []),
    flags: flags.parse(rawJson(row.flags) ?? []),
    flaggedAt: rawDate(row.flaggedAt),
  };
}
