import type { QuestionType } from "../forms/question-types.ts";

/**
 * The order a link shows a shuffled form in (docs/api-contract.md §22, ADR 91). Nothing is stored:
 * each question (and each option) is placed by a hash of the link's id and its own id, so the
 * order is the same at every opening, after a saved draft and on every instance, and differs from
 * one link to the next. A question added to the form later falls somewhere among the others
 * without moving them relative to each other. A scale's points keep their order: it is the scale.
 */

/** FNV-1a over the string's UTF-16 units, with Murmur3's finalizer so that near ids spread apart. */
export function orderHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** `items` in the order `seed` gives them: by the hash of the seed and each one's id. */
export function shuffledBy<T extends { id: string }>(items: readonly T[], seed: string): T[] {
  return items
    .map((item, index) => ({ item, index, key: orderHash(`${seed}:${item.id}`) }))
    .sort((a, b) => a.key - b.key || a.index - b.index)
    .map(({ item }) => item);
}

export type Shuffling = { shuffleQuestions: boolean; shuffleOptions: boolean };

/** The questions (and their options) as link `linkId` shows them; the form's order when it shuffles nothing. */
export function respondentOrder<Q extends { id: string; type: QuestionType; options: readonly { id: string }[] }>(
  questions: readonly Q[],
  linkId: string,
  shuffling: Shuffling,
): Q[] {
  const ordered = shuffling.shuffleQuestions ? shuffledBy(questions, linkId) : [...questions];
  if (!shuffling.shuffleOptions) return ordered;
  return ordered.map((question) => (question.type === "SCALE" ? question : { ...question, options: shuffledBy(question.options, linkId) }));
}
