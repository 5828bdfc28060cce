import { describe, expect, it } from "vitest";
import { achievableTotals, uncoveredTotals, unreachableBands } from "~/features/scoring/achievable.ts";
import { achievableScores } from "~/features/scoring/items.ts";

const options = (...scores: number[]) => scores.map((score) => ({ score }));

describe("the totals a form can give", () => {
  it("counts 0 for an optional question left blank, and one option at least for a required multiple choice", () => {
    const totals = achievableTotals([
      { type: "SINGLE_CHOICE", required: true, options: options(3, -2) },
      { type: "MULTIPLE_CHOICE", required: false, options: options(2, -1, 1.5) },
      { type: "SCALE", required: true, options: options(0, 1, 2, 3) },
      { type: "TEXT", required: true, options: [] },
    ]);
    expect(totals).toEqual({ min: -3, max: 9.5, whole: false, scored: true });

    expect(achievableTotals([{ type: "MULTIPLE_CHOICE", required: true, options: options(2, 5) }])).toMatchObject({ min: 2, max: 7 });
    expect(achievableTotals([{ type: "SINGLE_CHOICE", required: false, options: options(4, 6) }])).toMatchObject({ min: 0, max: 6 });
    expect(achievableTotals([{ type: "SINGLE_CHOICE", required: false, options: options(-4, -1) }])).toMatchObject({ min: -4, max: 0 });
    expect(achievableTotals([{ type: "TEXT", required: true, options: [] }]).scored).toBe(false);
  });

  it("names the bands no total reaches, and keeps one that reaches past an end", () => {
    const totals = { min: 0, max: 10, whole: true, scored: true };
    expect(
      unreachableBands(
        [
          { min: -5, max: -1 },
          { min: -5, max: 0 },
          { min: 8, max: 100 },
          { min: 11, max: 20 },
        ],
        totals,
      ),
    ).toEqual([0, 3]);
    expect(unreachableBands([{ min: 50, max: 60 }], { ...totals, scored: false })).toEqual([]);
  });

  it("finds the whole totals no band names, at the ends and between bands", () => {
    const totals = { min: 0, max: 10, whole: true, scored: true };
    expect(
      uncoveredTotals(
        [
          { min: 2, max: 4 },
          { min: 6, max: 6 },
          { min: 7, max: 9 },
        ],
        totals,
      ),
    ).toEqual([
      { from: 0, to: 1 },
      { from: 5, to: 5 },
      { from: 10, to: 10 },
    ]);
    expect(uncoveredTotals([{ min: -100, max: 100 }], totals)).toEqual([]);
    expect(uncoveredTotals([], totals)).toEqual([]);
  });

  it("finds the stretches between bands when scores have fractions", () => {
    const totals = { min: -3, max: 9.5, whole: false, scored: true };
    expect(
      uncoveredTotals(
        [
          { min: -5, max: 0.5 },
          { min: 0.75, max: 5 },
          { min: 5.5, max: 9.5 },
        ],
        totals,
      ),
    ).toEqual([
      { from: 0.5, to: 0.75 },
      { from: 5, to: 5.5 },
    ]);
  });

  it("makes the scores as the scoring does: the multiplier, the mean, and proration widening the range to the fewest answers allowed", () => {
    const likert = { type: "SINGLE_CHOICE" as const, required: true, options: options(0, 1, 2, 3) };
    const yesNo = { type: "SINGLE_CHOICE" as const, required: true, options: options(0, 1) };
    const plain = { method: "SUM" as const, multiplier: 1, maxMissing: null };

    expect(achievableScores([likert, likert, yesNo], plain)).toEqual({ min: 0, max: 7, whole: true, scored: true });
    expect(achievableScores([likert, likert, yesNo], { ...plain, multiplier: 4 })).toEqual({ min: 0, max: 28, whole: true, scored: true });
    expect(achievableScores([likert, likert, yesNo], { ...plain, method: "MEAN" })).toMatchObject({ min: 0, max: 2.33, whole: false });
    // One item may be missing: the two Likert items answered at 3 and prorated, 6 × 3 / 2.
    expect(achievableScores([likert, likert, yesNo], { ...plain, maxMissing: 1 })).toMatchObject({ min: 0, max: 9 });
    // A question with no score is no item: it neither counts nor divides.
    expect(achievableScores([likert, { type: "SINGLE_CHOICE", required: true, options: options(0, 0) }], { ...plain, method: "MEAN" })).toMatchObject({
      max: 3,
    });
  });
});
