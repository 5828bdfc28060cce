import { z } from "zod";
import { LOCALES } from "~/lib/i18n.ts";
import { singleLineText } from "~/lib/schemas.ts";
import { band, reliableChangeOutput, scoringSettings, subscaleDefinitions } from "../scoring/scale-schemas.ts";
import { QUESTION_TYPES } from "../forms/question-types.ts";

/**
 * The instrument library's inputs and answers (docs/api-contract.md §17, ADR 72), and the mark an
 * installed form keeps of the instrument it came from.
 */

const language = z.enum(LOCALES);

export const listInstrumentsQuery = z.strictObject({
  language: language.optional().meta({
    description: "The language of the texts (default en). An instrument not given in it answers its English texts and says so in its `language`.",
  }),
});

export const installInstrumentBody = z
  .strictObject({
    language: language.optional().meta({
      description: "One of the instrument's `languages` (default en); another is a 400 naming it.",
    }),
    title: singleLineText(200).optional().meta({ description: "The form's title; default the instrument's name." }),
  })
  .meta({ id: "InstrumentInstall" });

export type InstallInstrumentInput = z.output<typeof installInstrumentBody>;

/** What an installed form answers of its instrument; null for a form of its own. */
export const instrumentMark = z
  .object({
    key: z.string(),
    version: z.string().meta({ description: "The version of the library's definition it was installed from." }),
    language: language.meta({ description: "The language its texts were installed in." }),
  })
  .meta({
    id: "InstrumentMark",
    description:
      "The library instrument the form was installed from (POST /api/instruments/{key}/install): its questions, options, score ranges, scoring and subscales cannot be changed (409 INSTRUMENT_LOCKED); its title, description, publication and criticalMessage can.",
  });

/**
 * The stored mark (`Form.instrument`): the public one plus the instrument's care-over-time
 * constants at installation (docs/api-contract.md §18). The form answers its own columns, which
 * installation sets from the same definition (ADR 80); the mark keeps them as they were installed.
 */
export const storedInstrument = instrumentMark.extend({
  reliableChange: z.object({ sd: z.number(), reliability: z.number() }).nullable().default(null),
  remissionBelow: z.number().nullable().default(null),
  lowerIsBetter: z.boolean().default(true),
});

export type StoredInstrument = z.output<typeof storedInstrument>;

/** The stored mark as the API answers it, or null. */
export const presentInstrumentMark = (stored: unknown) => {
  if (stored === null || stored === undefined) return null;
  const { key, version, language: installedIn } = storedInstrument.parse(stored);
  return { key, version, language: installedIn };
};

const instrumentItem = z.object({
  key: z.string().meta({ description: "The question key it gets in an installed form." }),
  text: z.string(),
  type: z.enum(QUESTION_TYPES).meta({ description: "Always SINGLE_CHOICE today." }),
  required: z.boolean().meta({ description: "false for an item the instrument lets be skipped (PHQ-15's item for women only)." }),
  reverseScored: z.boolean(),
  options: z.array(z.object({ text: z.string(), score: z.number(), critical: z.boolean() })),
});

export const instrumentSummary = z
  .object({
    key: z.string().meta({ description: "What POST /api/instruments/{key}/install takes." }),
    name: z.string(),
    version: z.string(),
    description: z.string(),
    languages: z.array(language).meta({ description: "English, and each language a published translation was read from." }),
    language: language.meta({ description: "The language of the texts of this answer: the one asked for, or en when the instrument is not given in it." }),
    licence: z.string(),
    citation: z.string(),
    instructions: z.string().meta({ description: "What the respondent reads before the items: an installed form's description." }),
    items: z.array(instrumentItem).meta({ description: "Every item with its options and their scores, in order, as an installed form's questions." }),
    scoring: scoringSettings
      .extend({
        scoreRanges: z.array(band).meta({ description: "The total's bands with their colours (band labels are English)." }),
        subscales: subscaleDefinitions,
        source: z.string().meta({ description: "Where the scoring instructions followed are published." }),
      })
      .meta({ description: "How the total is made, its bands, the subscales, and the source of the rules." }),
    criticalMessage: z.string().nullable().meta({ description: "What the respondent reads when an answer is critical; null when no option or band is." }),
    reliableChange: reliableChangeOutput.nullable().meta({
      description: "The total's Jacobson–Truax constants from a published sample (docs/api-contract.md §18); null where none was found.",
    }),
    remissionBelow: z.number().nullable().meta({ description: "A total below this is a remission; null where none is published." }),
    lowerIsBetter: z.boolean(),
  })
  .meta({ id: "Instrument" });

export const instrumentListResponse = z.object({ instruments: z.array(instrumentSummary) });
