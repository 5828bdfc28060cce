/**
 * A form summary's numbers from its aggregate rows, whichever driver read them (SQLite answers
 * numbers, PostgreSQL numeric and bigint as strings). Kept apart from the queries so the bench's
 * baseline (scripts/bench/baseline-exports.ts) presents its rows the same way.
 */
export const round2 = (value: number) => Math.round(value * 100) / 100;
export const toNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

type SummaryQuestionInput = { id: string; text: string; type: string; options: { id: string; text: string }[] };

/** One question of the summary: how many completed results answer it, their mean score (none for text questions), and each option's count. */
export function summaryQuestion<Q extends SummaryQuestionInput>(
  question: Q,
  answered: { answered: unknown; mean: unknown } | undefined,
  chosen: (optionId: string) => number,
) {
  const meanScore = question.type === "TEXT" ? null : toNumber(answered?.mean);
  return {
    id: question.id,
    text: question.text,
    type: question.type as Q["type"],
    answered: Number(answered?.answered ?? 0),
    meanScore: meanScore === null ? null : round2(meanScore),
    options: question.options.map((option) => ({ id: option.id, text: option.text, count: chosen(option.id) })),
  };
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
