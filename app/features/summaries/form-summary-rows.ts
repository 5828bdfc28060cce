import { isKeyed } from "../scoring/answer-key.ts";
import type { QuestionType } from "../forms/question-types.ts";

/**
 * A form summary's numbers from its aggregate rows, whichever driver read them (SQLite answers
 * numbers, PostgreSQL numeric and bigint as strings). Kept apart from the queries
 * (form-summary.server.ts): no database here.
 */
export const round2 = (value: number) => Math.round(value * 100) / 100;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
export const toNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

type SummaryQuestionInput = { id: string; text: string; type: QuestionType; points?: number | null; options: { id: string; text: string }[] };

/**
 * The share of a keyed question's points the completed results earned (ADR 94): the sum of its
 * answers' scores over points × results, an unanswered question counting 0; for an all-or-nothing
 * question, the share that answered it correctly. The points are the question's now: a result
 * scored against a version that gave more points cannot take the share past 1.
 */
function correctRate(question: SummaryQuestionInput, scoreSum: unknown, completed: number): number | null {
  if (!isKeyed(question) || !question.points || completed === 0) return null;
  const earned = toNumber(scoreSum) ?? 0;
  return Math.min(1, Math.max(0, round4(earned / (question.points * completed))));
}

/**
 * One question of the summary: how many completed results answer it, their mean score (none for
 * text questions), its correct rate (keyed questions), and each option's count.
 */
export function summaryQuestion<Q extends SummaryQuestionInput>(
  question: Q,
  answered: { answered: unknown; mean: unknown; scoreSum: unknown } | undefined,
  chosen: (optionId: string) => number,
  completed: number,
) {
  const meanScore = question.type === "TEXT" ? null : toNumber(answered?.mean);
  return {
    id: question.id,
    text: question.text,
    type: question.type as Q["type"],
    answered: Number(answered?.answered ?? 0),
    meanScore: meanScore === null ? null : round2(meanScore),
    correctRate: correctRate(question, answered?.scoreSum, completed),
    options: question.options.map((option) => ({ id: option.id, text: option.text, count: chosen(option.id) })),
  };
}

/** The keyed questions, the most missed first (lowest correct rate; the form's order between equals). */
export function missedQuestions(questions: readonly { id: string; correctRate: number | null }[]) {
  return questions
    .flatMap((question, position) => (question.correctRate === null ? [] : [{ questionId: question.id, correctRate: question.correctRate, position }]))
    .sort((a, b) => a.correctRate - b.correctRate || a.position - b.position)
    .map(({ questionId, correctRate }) => ({ questionId, correctRate }));
}

/** The links by state and the totals' spread, from the states row, the spread row (null aggregates when nothing matched) and the median. */
export function summaryCounts(
  count: number,
  states: { revoked: unknown; expired: unknown; waiting: unknown } | undefined,
  spread: { mean: unknown; min: unknown; max: unknown } | undefined,
  median: number | null,
) {
  const [revoked, expired, pending] = [toNumber(states?.revoked) ?? 0, toNumber(states?.expired) ?? 0, toNumber(states?.waiting) ?? 0];
  const mean = toNumber(spread?.mean);
  return {
    assigned: count + pending + expired + revoked,
    completed: count,
    pending,
    expired,
    revoked,
    score: { mean: mean === null ? null : round2(mean), median, min: toNumber(spread?.min), max: toNumber(spread?.max) },
  };
}

/** What the summary says about the completed results, whichever way they were counted. */
export type CompletedResults = {
  count: number;
  spread: { mean: unknown; min: unknown; max: unknown } | undefined;
  median: number | null;
  bandCounts: number[];
  /** Per question: the results answering it, their mean score and the sum of their scores. */
  questionRows: { questionId: string; answered: unknown; mean: unknown; scoreSum: unknown }[];
  optionRows: { questionId: string; optionId: string; count: unknown }[];
};

/** A row of "SummaryTotal" summed over the caller's assigners, in total order. */
export type TotalTally = { totalScore: unknown; results: unknown };
/** A row of "SummaryChoice" summed over the caller's assigners ("" as optionId: the question itself). */
export type ChoiceTally = { questionId: string; optionId: string; answers: unknown; scoreSum: unknown };

/**
 * The completed results from their tallies (ADR 32): the results per distinct total give the
 * count, mean, median, extremes and bands; the question rows the answers and their mean score.
 */
export function fromTallies(totalRows: TotalTally[], choiceRows: ChoiceTally[], bands: { min: number; max: number }[]): CompletedResults {
  const totals = totalRows.map((row) => ({ total: Number(row.totalScore), results: Number(row.results) }));
  const count = totals.reduce((sum, row) => sum + row.results, 0);
  const sum = totals.reduce((acc, row) => acc + row.total * row.results, 0);
  return {
    count,
    spread: count === 0 ? undefined : { mean: sum / count, min: totals[0]!.total, max: totals.at(-1)!.total },
    median: medianOfTallies(totals, count),
    bandCounts: bands.map((band) => totals.reduce((n, row) => (band.min <= row.total && row.total <= band.max ? n + row.results : n), 0)),
    questionRows: choiceRows
      .filter((row) => row.optionId === "")
      .map((row) => ({ questionId: row.questionId, answered: row.answers, mean: Number(row.scoreSum) / Number(row.answers), scoreSum: row.scoreSum })),
    optionRows: choiceRows.filter((row) => row.optionId !== "").map((row) => ({ questionId: row.questionId, optionId: row.optionId, count: row.answers })),
  };
}

/** The middle total from the tallies in total order (the mean of the two middle ones for an even count). */
function medianOfTallies(totals: { total: number; results: number }[], count: number): number | null {
  if (count === 0) return null;
  // The 0-based positions of the middle one or two results in total order.
  const middle = count % 2 === 0 ? [count / 2 - 1, count / 2] : [(count - 1) / 2];
  const values = middle.map((position) => {
    let seen = 0;
    for (const row of totals) {
      seen += row.results;
      if (position < seen) return row.total;
    }
    return totals.at(-1)!.total;
  });
  return round2(values.reduce((a, b) => a + b, 0) / values.length);
}
