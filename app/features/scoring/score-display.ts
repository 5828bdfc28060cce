/**
 * How a total is shown (docs/api-contract.md §15 `scoring.display`, ADR 79), as captured with the
 * result: a clinical scale (RAW) reads "9 / 27" and shows no percentage; any other form (PERCENT)
 * reads its percentage first and "9 of 27" beside it. The one place that decides it, for the pages
 * and the PDF alike, in the number formatting of the reader's language.
 */
export const SCORE_DISPLAYS = ["RAW", "PERCENT"] as const;
export type ScoreDisplay = (typeof SCORE_DISPLAYS)[number];

/** A stored or extracted `scoring.display`: PERCENT unless it says RAW (the contract's default). */
export function readScoreDisplay(value: unknown): ScoreDisplay {
  return value === "RAW" ? "RAW" : "PERCENT";
}

export type TotalFields = { display: ScoreDisplay; totalScore: number | null; maxScore: number | null; percentage: number | null };

export type TotalWords = {
  number: (value: number | null) => string;
  percent: (value: number | null) => string;
  /** "9 of 27": the score beside a percentage. */
  of: (total: string, max: string) => string;
  /** "9 / 27": the score of a RAW total, its headline. */
  outOf: (total: string, max: string) => string;
};

export type TotalText = {
  /** What a person reads first: "9 / 27" (RAW) or "33.3%" (PERCENT). */
  headline: string;
  /** What goes beside it: the score of a PERCENT total, nothing for RAW. */
  secondary: string | null;
  /** The score, for a column of scores: "9 / 27" (RAW) or "9 of 27" (PERCENT). */
  score: string;
  /** The percentage, for a column of percentages; null for RAW, which shows none. */
  percent: string | null;
};

export function totalText(result: TotalFields, words: TotalWords): TotalText {
  const total = words.number(result.totalScore);
  const max = words.number(result.maxScore);
  if (result.display === "RAW") {
    const score = words.outOf(total, max);
    return { headline: score, secondary: null, score, percent: null };
  }
  const score = words.of(total, max);
  const percent = words.percent(result.percentage);
  return { headline: percent, secondary: score, score, percent };
}
