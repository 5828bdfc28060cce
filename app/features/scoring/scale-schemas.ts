import { z } from "zod";
import { rawDate, rawJson } from "~/lib/raw-values.ts";
import { timestamp } from "~/lib/schemas.ts";
import { DEFAULT_SCORING } from "./scale-limits.ts";
import { RELIABLE_CHANGES } from "./change.ts";

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

/** The Jacobson–Truax constants as stored and answered (docs/api-contract.md §18). */
export const reliableChangeOutput = z.object({ sd: z.number(), reliability: z.number() }).meta({ id: "ReliableChangeConstants" });

export const subscaleDefinition = z
  .object({
    key: z.string(),
    name: z.string(),
    items: z.array(z.string()).meta({ description: "The keys of the questions it adds up." }),
    method: method.default("SUM"),
    multiplier: z.number().nullable().default(null),
    scoreRanges: z.array(band).default([]),
    reliableChange: reliableChangeOutput
      .nullable()
      .default(null)
      .meta({ description: "The subscale's own reliable-change constants (docs/api-contract.md §18); null: none." }),
    remissionBelow: z.number().nullable().default(null).meta({ description: "A subscale score below this is a remission; null: none." }),
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

/** A result's change over time (docs/api-contract.md §18, ADR 80), made by `changeOf` in change.ts. */
export const change = z
  .object({
    fromPrevious: z
      .number()
      .nullable()
      .meta({ description: "The score minus the person's previous result's on the form; null on the first, or when either has no score." }),
    fromBaseline: z
      .number()
      .nullable()
      .meta({ description: "The score minus the baseline's (the person's first result on the form); null on the baseline itself." }),
    reliable: z.enum(RELIABLE_CHANGES).nullable().meta({
      description:
        "(score − baseline) / (sd × √2 × √(1 − reliability)) beyond ±1.96: IMPROVED or DETERIORATED in the form's direction (lowerIsBetter), else NO_CHANGE; null without the form's reliableChange, and on the baseline.",
    }),
    response: z.boolean().nullable().meta({
      description:
        "A fall of at least 50 % from the baseline (a rise, when higher is better); null on the baseline, for a baseline of 0 or less, and for a form with neither reliableChange nor remissionBelow.",
    }),
    remission: z.boolean().nullable().meta({ description: "The score below the form's remissionBelow; null without it, and on the baseline." }),
  })
  .meta({
    id: "Change",
    description: "How a completed result compares with the person's earlier results on the same form that the caller may see (docs/api-contract.md §18).",
  });
