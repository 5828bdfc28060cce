import type { QuestionType } from "../forms/question-types.ts";
import { type AchievableTotals, achievableTotals, questionMaxScore, questionScoreRange, roundTo2, type ScoredQuestion, sumScores } from "./achievable.ts";
import { isChoice } from "./answered.ts";
import { isKeyed } from "./answer-key.ts";
import type { ScoringMethod } from "./scale-limits.ts";

/**
 * Items and how a set of them is scored (docs/api-contract.md §15): a question's key, whether it
 * counts, the mirror of a reverse-scored item, and the SUM or MEAN of some items with a multiplier
 * and proration. Apart from the engine (scales.ts, which re-exports them) so that the form editor
 * shows what the engine will count: no server code.
 */

/** A question's key: its own, or `q<position>` counted from 1 (docs/api-contract.md §15). */
export const questionKey = (question: { key?: string | null | undefined }, index: number): string => question.key || `q${index + 1}`;

/** Whether a question counts as an item: a question graded by its key, or a choice question with at least one option that scores. */
export const isScoredQuestion = (question: { type: QuestionType; points?: number | null | undefined; options: readonly { score: number }[] }): boolean =>
  isKeyed(question) || (isChoice(question.type) && question.options.some((option) => option.score !== 0));

/** `min + max − score` over the question's option scores: the mirror of a reverse-scored item. */
export function mirroredScore(score: number, optionScores: readonly number[]): number {
  if (optionScores.length === 0) return score;
  return sumScores([Math.min(...optionScores), Math.max(...optionScores), -score]);
}

/** One total or subscale before its band: `score` is null (and `scorable` false) when more items are missing than allowed. */
export type AggregateScore = { score: number | null; maxScore: number; answered: number; items: number; prorated: boolean; scorable: boolean };

export type AggregateSettings = { method: ScoringMethod; multiplier: number; maxMissing: number | null };

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * The score of a set of items: `values` holds each item's score, null where it is unanswered.
 * SUM adds them and, with 1..maxMissing missing, prorates (`sum × items / answered`); MEAN divides
 * by the answered items; the multiplier applies last. Prorated and MEAN scores keep 2 decimals.
 */
export function aggregate(values: readonly (number | null)[], maxima: readonly number[], settings: AggregateSettings): AggregateScore {
  const items = values.length;
  const given = values.filter((value): value is number => value !== null);
  const answered = given.length;
  const missing = items - answered;
  const { method, multiplier, maxMissing } = settings;
  const maxSum = sumScores([...maxima]);
  const maxScore = round6((method === "MEAN" ? (items === 0 ? 0 : maxSum / items) : maxSum) * multiplier);
  const sum = sumScores(given);
  const base = { maxScore, answered, items };
  // Without a missing-item rule an unanswered item is a 0, as it always was.
  if (maxMissing === null) {
    const score = method === "MEAN" ? (items === 0 ? 0 : roundTo2((sum / items) * multiplier)) : round6(sum * multiplier);
    return { ...base, score, prorated: false, scorable: true };
  }
  if (missing > maxMissing || answered === 0) return { ...base, score: null, prorated: false, scorable: false };
  const prorated = missing > 0;
  const score =
    method === "MEAN" ? roundTo2((sum / answered) * multiplier) : prorated ? roundTo2(((sum * items) / answered) * multiplier) : round6(sum * multiplier);
  return { ...base, score, prorated, scorable: true };
}

/**
 * The scores a set of questions can give as a total or a subscale made with `settings`: the range
 * of `achievableTotals`, scored the way the engine scores (the items' SUM or MEAN, then the
 * multiplier) and, when some items may be missing, widened to what the fewest answered items
 * allowed can give once prorated (the items with the highest ends answered, the others not).
 */
export function achievableScores(questions: readonly ScoredQuestion[], settings: AggregateSettings): AchievableTotals {
  const totals = achievableTotals(questions);
  if (!totals.scored) return totals;
  const items = questions.filter(isScoredQuestion);
  const ranges = items.map(questionScoreRange);
  const maxima = items.map(questionMaxScore);
  const scoreOf = (values: (number | null)[]) => aggregate(values, maxima, settings).score ?? 0;
  let min = scoreOf(ranges.map((range) => range.min));
  let max = scoreOf(ranges.map((range) => range.max));
  const missing = Math.min(settings.maxMissing ?? 0, items.length - 1);
  if (missing > 0) {
    const answeredOnly = (end: "min" | "max") => {
      const order = ranges.map((range, index) => ({ value: range[end], index })).sort((a, b) => (end === "max" ? b.value - a.value : a.value - b.value));
      const answered = new Set(order.slice(0, items.length - missing).map((entry) => entry.index));
      return scoreOf(ranges.map((range, index) => (answered.has(index) ? range[end] : null)));
    };
    min = Math.min(min, answeredOnly("min"));
    max = Math.max(max, answeredOnly("max"));
  }
  return { min, max, whole: totals.whole && settings.method === "SUM" && Number.isInteger(settings.multiplier), scored: true };
}
