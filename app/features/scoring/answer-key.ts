import type { QuestionType } from "../forms/question-types.ts";

/**
 * A choice question graded by its answer key (docs/api-contract.md §22, ADR 90): it scores its
 * `points` when answered correctly, whatever its options' own scores. Single choice: any correct
 * option earns them. Multiple choice, ALL_OR_NOTHING: exactly the correct options; PARTIAL:
 * points × (right picks − wrong picks) / correct options, never below 0, to 2 decimals. No server
 * code: the editor shows what the engine will count.
 */

export const SCORING_RULES = ["ALL_OR_NOTHING", "PARTIAL"] as const;
export type ScoringRule = (typeof SCORING_RULES)[number];

export type KeyedQuestion = {
  type: QuestionType;
  points?: number | null | undefined;
  scoringRule?: ScoringRule | undefined;
  options: readonly { id?: string | undefined; correct?: boolean | undefined }[];
};

/** Whether the question is graded by its key: a single or multiple choice with points. */
export function isKeyed(question: Pick<KeyedQuestion, "type" | "points">): boolean {
  return question.points !== null && question.points !== undefined && (question.type === "SINGLE_CHOICE" || question.type === "MULTIPLE_CHOICE");
}

const to2 = (value: number) => Math.round(value * 100) / 100;

/** The points the chosen options earn on a keyed question (0 when nothing is chosen). */
export function keyedScore(question: KeyedQuestion, chosenIds: readonly string[]): number {
  const points = question.points ?? 0;
  const correct = new Set(question.options.flatMap((option) => (option.correct && option.id ? [option.id] : [])));
  const chosen = new Set(chosenIds);
  if (correct.size === 0 || chosen.size === 0) return 0;
  const right = [...chosen].filter((id) => correct.has(id)).length;
  const wrong = chosen.size - right;
  if (question.type === "SINGLE_CHOICE") return right > 0 ? points : 0;
  if (question.scoringRule === "PARTIAL") return Math.max(0, to2((points * (right - wrong)) / correct.size));
  return right === correct.size && wrong === 0 ? points : 0;
}

/** Whether the chosen options are the key's answer: null for a question not graded by a key. */
export function answeredCorrectly(question: KeyedQuestion, chosenIds: readonly string[]): boolean | null {
  if (!isKeyed(question)) return null;
  return keyedScore(question, chosenIds) === question.points;
}
