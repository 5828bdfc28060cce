/**
 * Change over time (docs/api-contract.md §18, ADR 80): what one result of a person's series on a
 * form says against the result before it and against the first one, the baseline. The one place
 * these figures are made, for the API, the pages, the PDF and the exports alike; pure, so the
 * export's worker thread and the tests use it as it is.
 */

export const RELIABLE_CHANGES = ["IMPROVED", "DETERIORATED", "NO_CHANGE"] as const;
export type ReliableChange = (typeof RELIABLE_CHANGES)[number];

/** A form's (or a subscale's) constants: what its scores are compared with. */
export type ChangeConstants = {
  /** Jacobson–Truax: the standard deviation and the reliability of the score; null where none is known. */
  reliableChange: { sd: number; reliability: number } | null;
  /** A score below this is a remission; null where the form names none. */
  remissionBelow: number | null;
  /** Whether a fall of the score is an improvement. */
  lowerIsBetter: boolean;
};

export type Change = {
  /** This score minus the one before it; null on the first result, or when either has no score. */
  fromPrevious: number | null;
  /** This score minus the baseline's; null on the baseline itself, or when either has no score. */
  fromBaseline: number | null;
  /** The reliable change index against the baseline in words; null without the constants. */
  reliable: ReliableChange | null;
  /** A fall (a rise where higher is better) of at least half of the baseline. */
  response: boolean | null;
  /** The score below `remissionBelow`. */
  remission: boolean | null;
};

/** The index's threshold: a change this many standard errors of the difference away is not chance (p < .05). */
export const RELIABLE_CHANGE_Z = 1.96;

/** Jacobson and Truax's "half of the baseline" that a response falls by. */
export const RESPONSE_FRACTION = 0.5;

/** The figures of a baseline, and of a result whose series has no score to compare with. */
export const NO_CHANGE_YET: Change = Object.freeze({ fromPrevious: null, fromBaseline: null, reliable: null, response: null, remission: null });

/** A difference of two scores kept to what the scores hold (2 decimals at most), without the float's noise. */
const difference = (score: number, from: number) => Math.round((score - from) * 1e6) / 1e6;

/**
 * The standard error of the difference between two scores, `sd × √2 × √(1 − reliability)`: what
 * `score − baseline` is divided by to give the reliable change index.
 */
export function changeStandardError(constants: { sd: number; reliability: number }): number {
  return constants.sd * Math.SQRT2 * Math.sqrt(1 - constants.reliability);
}

/**
 * The smallest change of a score that is reliable (|index| > 1.96), in points: what a reader can
 * check the constants against (the PHQ-9's 6 points of NHS Talking Therapies).
 */
export const reliableChangeThreshold = (constants: { sd: number; reliability: number }) => RELIABLE_CHANGE_Z * changeStandardError(constants);

/**
 * The figures of one result: `score`, the score of the result before it (`previous`) and of the
 * first result (`baseline`), each null when that result could not be scored; `isBaseline` for the
 * first result, whose figures are all null (nothing came before it).
 *
 * - `reliable`: (score − baseline) / (sd × √2 × √(1 − reliability)), beyond ±1.96, is IMPROVED in
 *   the form's better direction and DETERIORATED in the other, NO_CHANGE within; null without
 *   `reliableChange`.
 * - `response`: the score fell by at least half of the baseline (rose by half, where higher is
 *   better). Only for a form that says it measures a condition over time, one with
 *   `reliableChange` or `remissionBelow` (a school test's halved score is no response); and null
 *   for a baseline of 0 or less, which has no half to fall by.
 * - `remission`: the score below `remissionBelow`; null without it.
 */
export function changeOf(
  result: { score: number | null; previous: number | null; baseline: number | null; isBaseline: boolean },
  constants: ChangeConstants,
): Change {
  if (result.isBaseline) return { ...NO_CHANGE_YET };
  const { score, previous, baseline } = result;
  const fromPrevious = score === null || previous === null ? null : difference(score, previous);
  const fromBaseline = score === null || baseline === null ? null : difference(score, baseline);
  const better = constants.lowerIsBetter ? -1 : 1;
  let reliable: ReliableChange | null = null;
  if (fromBaseline !== null && constants.reliableChange) {
    const index = fromBaseline / changeStandardError(constants.reliableChange);
    reliable = Math.abs(index) > RELIABLE_CHANGE_Z ? (Math.sign(index) === better ? "IMPROVED" : "DETERIORATED") : "NO_CHANGE";
  }
  const tracked = constants.reliableChange !== null || constants.remissionBelow !== null;
  const response = !tracked || fromBaseline === null || baseline === null || baseline <= 0 ? null : better * fromBaseline >= RESPONSE_FRACTION * baseline;
  const remission = score === null || constants.remissionBelow === null ? null : score < constants.remissionBelow;
  return { fromPrevious, fromBaseline, reliable, response, remission };
}

/**
 * The figures of every result of a series, oldest first: the first is the baseline, each compared
 * with the one just before it. `scores` may begin with results that are only there to be compared
 * with (the first result and the one before the shown ones, when only the newest are shown): their
 * own figures are then simply not used.
 */
export function changeSeries(scores: readonly (number | null)[], constants: ChangeConstants): Change[] {
  const baseline = scores[0] ?? null;
  return scores.map((score, index) =>
    changeOf({ score, previous: index === 0 ? null : (scores[index - 1] ?? null), baseline, isBaseline: index === 0 }, constants),
  );
}

/** A form's constants, for its total and for each of its subscales by key. */
export type FormChangeConstants = { total: ChangeConstants; subscales: ReadonlyMap<string, ChangeConstants> };

/** One result of a series: its total, and each subscale's score as it captured them. */
export type SeriesResult = { score: number | null; subscales: readonly { key: string; score: number | null }[] };

/** A result's figures: its total's, and each of its subscales' in the order it has them. */
export type ResultChange = { change: Change; subscales: { key: string; change: Change }[] };

/**
 * The figures of a series of results of one person on one form, oldest first, for the total and
 * for every subscale as for the total. The first result is the baseline of both: a subscale that
 * result did not have (added to the form later) has no baseline score, so its `fromBaseline` and
 * what follows from it stay null, while `fromPrevious` still compares neighbours. A subscale takes
 * its own constants (`subscaleConstants`); one the form no longer has takes none.
 */
export function seriesChanges(results: readonly SeriesResult[], constants: FormChangeConstants): ResultChange[] {
  const scoreOf = (result: SeriesResult | undefined, key: string) => result?.subscales.find((subscale) => subscale.key === key)?.score ?? null;
  const totals = changeSeries(
    results.map((result) => result.score),
    constants.total,
  );
  const first = results[0];
  return results.map((result, index) => ({
    change: totals[index]!,
    subscales: result.subscales.map((subscale) => ({
      key: subscale.key,
      change: changeOf(
        { score: subscale.score, previous: scoreOf(results[index - 1], subscale.key), baseline: scoreOf(first, subscale.key), isBaseline: index === 0 },
        constants.subscales.get(subscale.key) ?? subscaleConstants(constants.total, undefined),
      ),
    })),
  }));
}

/** A form's constants from its columns and its subscale definitions (both as the API reads them). */
export function formChangeConstants(
  columns: Parameters<typeof formConstants>[0],
  subscales: readonly { key: string; reliableChange?: ChangeConstants["reliableChange"] | undefined; remissionBelow?: number | null | undefined }[],
): FormChangeConstants {
  const total = formConstants(columns);
  return { total, subscales: new Map(subscales.map((subscale) => [subscale.key, subscaleConstants(total, subscale)])) };
}

/** A subscale's constants: its own reliable change and remission, the form's direction. */
export function subscaleConstants(
  form: Pick<ChangeConstants, "lowerIsBetter">,
  subscale: { reliableChange?: ChangeConstants["reliableChange"] | undefined; remissionBelow?: number | null | undefined } | undefined,
): ChangeConstants {
  return { reliableChange: subscale?.reliableChange ?? null, remissionBelow: subscale?.remissionBelow ?? null, lowerIsBetter: form.lowerIsBetter };
}

/** A form's stored columns (`Form.reliableChangeSd`, …) as its constants: the index needs both of its numbers. */
export function formConstants(columns: {
  reliableChangeSd: number | null;
  reliableChangeReliability: number | null;
  remissionBelow: number | null;
  lowerIsBetter: boolean | number;
}): ChangeConstants {
  const { reliableChangeSd: sd, reliableChangeReliability: reliability } = columns;
  return {
    reliableChange: sd !== null && reliability !== null ? { sd, reliability } : null,
    remissionBelow: columns.remissionBelow,
    // SQLite answers a raw query's boolean as 0 or 1.
    lowerIsBetter: Boolean(columns.lowerIsBetter),
  };
}
