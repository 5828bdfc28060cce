import type { Dictionary } from "~/i18n/dictionaries.ts";
import { en } from "~/i18n/en.ts";

/**
 * The one channel for what a person reads about their input (ADR 18): a problem is a key of the
 * `fieldProblems` dictionary group with its parameters, never a sentence. Zod schemas name the key
 * as their message (`.regex(re, "invalidCharacters")`), services build one with `fieldMessage()`,
 * pages render it in their language with `fieldText()`, and the API answers the English text.
 */
export type FieldMessageKey = keyof Dictionary["fieldProblems"];
export type FieldMessage = { key: FieldMessageKey; params: string[] };

export const isFieldMessageKey = (value: string): value is FieldMessageKey => Object.hasOwn(en.fieldProblems, value);

/** Parameters are formatted values (`"128"`, `"2 MiB"`); word order stays with the translator. */
export const fieldMessage = (key: FieldMessageKey, ...params: string[]): FieldMessage => ({ key, params });

/** A dictionary entry: a sentence, or a function of formatted values. */
type Entry = string | ((...values: string[]) => string);

const render = (entry: Entry, params: readonly string[]) => (typeof entry === "function" ? entry(...params) : entry);

export const fieldText = (t: Dictionary, message: FieldMessage): string => render(t.fieldProblems[message.key] as Entry, message.params);

export type ProblemKey = keyof Dictionary["problems"];

/** What went wrong, by the API's error code; an unknown code reads "Something went wrong". */
export function problemText(t: Dictionary, code: string, params: readonly string[] = []): string {
  const key = (Object.hasOwn(t.problems, code) ? code : "unexpected") as ProblemKey;
  return render(t.problems[key] as Entry, params);
}
