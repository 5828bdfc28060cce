import type { Actor } from "~/lib/auth/actor.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { badRequest, fieldProblem, notFound } from "~/lib/problem.server.ts";
import { createFormBody } from "../forms/form-schemas.ts";
import { createForm, type FormDetail } from "../forms/forms.server.ts";
import { type InstrumentDefinition, instrumentForm, textIn } from "./instrument-definition.ts";
import type { InstallInstrumentInput } from "./instrument-schemas.ts";
import { INSTRUMENTS, instrumentByKey } from "./library.ts";

/**
 * The instrument library over HTTP and on the pages (docs/api-contract.md §17, ADR 72): every
 * instrument in one language, and installing one as a form of the caller's organization through
 * the one form-creation service, marked with the instrument so that its items and scoring stay
 * locked (`updateForm`).
 */

/** The language an instrument's texts are shown in: the one asked for when it is one of its own, else English. */
export const shownLanguage = (definition: InstrumentDefinition, language: Locale): Locale => (definition.languages.includes(language) ? language : "en");

/** An instrument as the API lists it and the pages show it, its texts in one language. */
export function presentInstrument(definition: InstrumentDefinition, requested: Locale = "en") {
  const language = shownLanguage(definition, requested);
  const form = instrumentForm(definition, language);
  return {
    key: definition.key,
    name: definition.name,
    version: definition.version,
    description: definition.description,
    languages: [...definition.languages],
    language,
    licence: definition.licence,
    citation: definition.citation,
    instructions: textIn(definition.instructions, language),
    items: form.questions.map((question) => ({
      key: question.key ?? question.id,
      text: question.text,
      type: question.type,
      required: question.required,
      reverseScored: question.reverseScored ?? false,
      options: question.options.map((option) => ({ text: option.text, score: option.score, critical: option.critical ?? false })),
    })),
    scoring: {
      ...definition.scoring,
      scoreRanges: form.scoreRanges.map((range) => ({ ...range, critical: range.critical ?? false })),
      subscales: (form.subscales ?? []).map((subscale, index) => ({
        ...subscale,
        multiplier: subscale.multiplier ?? null,
        scoreRanges: (subscale.scoreRanges ?? []).map((range) => ({ ...range, critical: range.critical ?? false })),
        reliableChange: definition.subscales[index]?.reliableChange ?? null,
        remissionBelow: definition.subscales[index]?.remissionBelow ?? null,
      })),
      source: definition.scoringSource,
    },
    criticalMessage: definition.criticalMessage ? textIn(definition.criticalMessage, language) : null,
    reliableChange: definition.reliableChange,
    remissionBelow: definition.remissionBelow,
    lowerIsBetter: definition.lowerIsBetter,
  };
}

export type InstrumentView = ReturnType<typeof presentInstrument>;

export const listInstruments = (language: Locale = "en") => ({ instruments: INSTRUMENTS.map((definition) => presentInstrument(definition, language)) });

/** One instrument, or 404. */
export function getInstrument(key: string): InstrumentDefinition {
  const definition = instrumentByKey(key);
  if (!definition) throw notFound("instrument");
  return definition;
}

/**
 * Installs an instrument as a new, unpublished form of the caller's organization: its items,
 * option scores, reverse items, subscales, bands, critical options, scoring and critical message in
 * `language`, its instructions as the description. Each call makes another form.
 */
export async function installInstrument(actor: Actor, key: string, input: InstallInstrumentInput): Promise<FormDetail> {
  const definition = getInstrument(key);
  const language = input.language ?? "en";
  if (!definition.languages.includes(language)) {
    throw badRequest(`The instrument ${definition.name} is not given in ${language}.`, [
      fieldProblem("language", "instrumentLanguage", language, definition.languages.join(", ")),
    ]);
  }
  const view = presentInstrument(definition, language);
  // Through the API's own schema: the library's data meets the limits of any other form.
  const body = createFormBody.parse({
    title: input.title ?? definition.name,
    description: view.instructions,
    questions: view.items.map(({ key: itemKey, text, type, required, reverseScored, options }) => ({
      key: itemKey,
      text,
      type,
      required,
      reverseScored,
      options,
    })),
    scoreRanges: view.scoring.scoreRanges,
    scoring: definition.scoring,
    subscales: view.scoring.subscales,
    criticalMessage: view.criticalMessage,
    reliableChange: definition.reliableChange,
    remissionBelow: definition.remissionBelow,
    lowerIsBetter: definition.lowerIsBetter,
  });
  return createForm(actor, body, {
    instrument: {
      key: definition.key,
      version: definition.version,
      language,
      reliableChange: definition.reliableChange,
      remissionBelow: definition.remissionBelow,
      lowerIsBetter: definition.lowerIsBetter,
    },
    source: { from: "library", of: definition.key },
  });
}
