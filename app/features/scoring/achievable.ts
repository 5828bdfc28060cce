import type { QuestionType } from "../forms/question-types.ts";
import { isChoice } from "./answered.ts";
import { isKeyed, type ScoringRule } from "./answer-key.ts";

/**
 * What totals a form can give, and how its score bands cover them: the editor shows both as the
 * teacher types, and saving refuses a band no total can reach (docs/api-contract.md §3 keeps `maxScore` as the
 * percentage's divisor; this is about every total a respondent can actually get). No server code.
 */

export type ScoredQuestion = {
  type: QuestionType;
  required: boolean;
  /** Set on a question graded by its key (answer-key.ts): its best score, whatever the options score. */
  points?: number | null | undefined;
  scoringRule?: ScoringRule | undefined;
  options: readonly { score: number; correct?: boolean | undefined }[];
};
type Band = { min: number; max: number };

/** Sums without binary fractions creeping in (0.1 + 0.2); option scores are kept to 6 decimals. */
export const sumScores = (values: number[]) => Math.round(values.reduce((total, value) => total + value, 0) * 1e6) / 1e6;

/**
 * To 2 decimals, halves away from zero as a person rounding by hand would: 81 / 8 = 10.125 is
 * 10.13, although `10.125 * 100` is 1012.4999… in binary; 15 significant digits drop that error.
 */
export function roundTo2(value: number): number {
  return (Math.sign(value) * Math.round(Number(Math.abs(value * 100).toPrecision(15)))) / 100 || 0;
}

/** The best score a question can give: its top option, or every positive option of a multiple choice (docs/api-contract.md §3). */
export function questionMaxScore(question: Pick<ScoredQuestion, "type" | "options" | "points">): number {
  if (isKeyed(question)) return question.points!;
  if (!isChoice(question.type) || question.options.length === 0) return 0;
  if (question.type === "MULTIPLE_CHOICE") return sumScores(question.options.map((o) => Math.max(0, o.score)));
  return Math.max(...question.options.map((o) => o.score));
}

/** The lowest and highest score a question can give, counting 0 for an optional question left blank. */
export function questionScoreRange(question: ScoredQuestion): { min: number; max: number } {
  if (isKeyed(question)) return { min: 0, max: question.points! };
  const scores = question.options.map((o) => o.score);
  if (!isChoice(question.type) || scores.length === 0) return { min: 0, max: 0 };
  let min: number;
  let max: number;
  if (question.type === "MULTIPLE_CHOICE") {
    const negatives = scores.filter((s) => s < 0);
    const positives = scores.filter((s) => s > 0);
    // A required multiple choice needs one option at least: with no negative one, the smallest.
    min = negatives.length > 0 ? sumScores(negatives) : question.required ? Math.min(...scores) : 0;
    max = positives.length > 0 ? sumScores(positives) : question.required ? Math.max(...scores) : 0;
  } else {
    min = Math.min(...scores);
    max = Math.max(...scores);
  }
  if (!question.required) {
    min = Math.min(min, 0);
    max = Math.max(max, 0);
  }
  return { min, max };
}

export type AchievableTotals = {
  min: number;
  max: number;
  /** Whether every total is a whole number (every option scores a whole number). */
  whole: boolean;
  /** Whether any question carries a score: without one there is nothing to check bands against. */
  scored: boolean;
};

export function achievableTotals(questions: readonly ScoredQuestion[]): AchievableTotals {
  const ranges = questions.map(questionScoreRange);
  const scores = questions.flatMap((q) => (isKeyed(q) ? [q.points!] : isChoice(q.type) ? q.options.map((o) => o.score) : []));
  return {
    min: sumScores(ranges.map((r) => r.min)),
    max: sumScores(ranges.map((r) => r.max)),
    whole: scores.every(Number.isInteger),
    scored: scores.some((score) => score !== 0),
  };
}

/** Bands that no total can fall in (by their index): a save refuses them. */
export function unreachableBands(bands: readonly Band[], totals: AchievableTotals): number[] {
  if (!totals.scored) return [];
  return bands.flatMap((band, index) => (band.max < totals.min || band.min > totals.max ? [index] : []));
}

/**
 * The totals a respondent can get that no band names: shown as a warning, since a form may leave
 * some totals without a label on purpose. With whole-number scores a gap is a run of whole totals;
 * otherwise any stretch between two bands.
 */
export function uncoveredTotals(bands: readonly Band[], totals: AchievableTotals): { from: number; to: number }[] {
  if (!totals.scored || bands.length === 0) return [];
  const sorted = [...bands].filter((band) => band.min <= band.max).sort((a, b) => a.min - b.min);
  const gaps: { from: number; to: number }[] = [];
  const addGap = (from: number, to: number) => {
    const start = Math.max(from, totals.min);
    const end = Math.min(to, totals.max);
    if (start < end || (totals.whole && start === end)) gaps.push({ from: start, to: end });
  };
  // The lowest total not yet known to be in a band (whole scores), or the top of the bands so far.
  let reached = totals.min;
  for (const band of sorted) {
    if (totals.whole) {
      if (Math.ceil(band.min) > reached) addGap(reached, Math.ceil(band.min) - 1);
      reached = Math.max(reached, Math.floor(band.max) + 1);
    } else {
      if (band.min > reached) addGap(reached, band.min);
      reached = Math.max(reached, band.max);
    }
  }
  if (totals.whole) addGap(reached, totals.max);
  else if (reached < totals.max) addGap(reached, totals.max);
  return gaps;
}
