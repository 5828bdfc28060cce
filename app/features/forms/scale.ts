/**
 * Scale questions defined by their range ("1 to 5", "0 to 3") and the labels of their ends. The
 * points are still stored as the question's options, one per point in order, so answering, scoring
 * and reports treat a scale like any single-choice question. No server code: the editor and the
 * test page use it too.
 */

export type Scale = { min: number; max: number; minLabel?: string | null | undefined; maxLabel?: string | null | undefined };

/** The bounds of a range, and the most points a scale may have (0–10, as a "how likely" scale). */
export const SCALE_BOUND = 100;
export const SCALE_MAX_POINTS = 11;

/** The values of a scale's points, lowest first. */
export function scalePoints(scale: Pick<Scale, "min" | "max">): number[] {
  const points: number[] = [];
  for (let value = scale.min; value <= scale.max && points.length < SCALE_MAX_POINTS; value++) points.push(value);
  return points;
}

/**
 * The options a scale question stores: the teacher's own (a label or a score for each point) when
 * given, otherwise one per point, named by its number and scored by its value.
 */
export function scaleOptions<O extends { text: string; score: number }>(scale: Scale, given: O[]): (O | { text: string; score: number })[] {
  if (given.length > 0) return given;
  return scalePoints(scale).map((value) => ({ text: String(value), score: value }));
}

/** The options a question stores: a scale's points when only its range was given. */
export function storedOptions<O extends { text: string; score: number }>(question: { type: string; scale?: Scale | null | undefined; options: O[] }) {
  return question.type === "SCALE" && question.scale ? scaleOptions(question.scale, question.options) : question.options;
}

/**
 * A point's own label, when the teacher gave one: an option whose text is just its number has none
 * (the number is already shown).
 */
export function pointLabel(option: { text: string }, value: number): string | null {
  const text = option.text.trim();
  return text === String(value) ? null : text;
}

/** A question's stored range as the API shows it: null when it is not a scale given by its range. */
export function scaleOf(question: { scaleMin: number | null; scaleMax: number | null; scaleMinLabel: string | null; scaleMaxLabel: string | null }) {
  if (question.scaleMin === null || question.scaleMax === null) return null;
  return { min: question.scaleMin, max: question.scaleMax, minLabel: question.scaleMinLabel, maxLabel: question.scaleMaxLabel };
}
