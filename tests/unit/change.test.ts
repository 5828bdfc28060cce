import { describe, expect, it } from "vitest";
import { instrumentByKey } from "~/features/instruments/library.ts";
import {
  type Change,
  type ChangeConstants,
  changeOf,
  changeSeries,
  formChangeConstants,
  NO_CHANGE_YET,
  reliableChangeThreshold,
  seriesChanges,
} from "~/features/scoring/change.ts";

/**
 * Change over time (docs/api-contract.md §18, ADR 80), worked out by hand with the Jacobson–Truax
 * formula: index = (score − baseline) / (sd × √2 × √(1 − reliability)), reliable beyond ±1.96.
 */

const phq9 = instrumentByKey("phq-9")!;
const gad7 = instrumentByKey("gad-7")!;

/** The PHQ-9's constants as the library gives them: sd 4.8, reliability 0.84, remission below 5, lower is better. */
const PHQ9: ChangeConstants = { reliableChange: phq9.reliableChange, remissionBelow: phq9.remissionBelow, lowerIsBetter: phq9.lowerIsBetter };

/** A subscale's own constants: sd 2.5, reliability 0.8, remission below 2. */
const SUBSCALE = { key: "cognitive", reliableChange: { sd: 2.5, reliability: 0.8 }, remissionBelow: 2 };

const figures = (
  fromPrevious: number | null,
  fromBaseline: number | null,
  reliable: Change["reliable"],
  response: boolean | null,
  remission: boolean | null,
) => ({
  fromPrevious,
  fromBaseline,
  reliable,
  response,
  remission,
});

describe("the PHQ-9's constants", () => {
  it("given the library's values, should be the published ones, whose index needs the 6 points NHS Talking Therapies counts", () => {
    expect(PHQ9).toEqual({ reliableChange: { sd: 4.8, reliability: 0.84 }, remissionBelow: 5, lowerIsBetter: true });
    // 1.96 × 4.8 × √2 × √0.16 = 1.96 × 4.8 × 1.41421 × 0.4 = 5.322
    expect(reliableChangeThreshold(PHQ9.reliableChange!)).toBeCloseTo(5.322, 3);
    const from10 = (score: number) => changeOf({ score, previous: 10, baseline: 10, isBaseline: false }, PHQ9).reliable;
    expect([from10(5), from10(4), from10(15), from10(16)]).toEqual(["NO_CHANGE", "IMPROVED", "NO_CHANGE", "DETERIORATED"]);
  });

  it("given the GAD-7's values, should need the 4 points NHS Talking Therapies counts", () => {
    expect(gad7.reliableChange).toEqual({ sd: 5.1, reliability: 0.92 });
    // 1.96 × 5.1 × √2 × √0.08 = 1.96 × 5.1 × 0.4 = 3.998
    expect(reliableChangeThreshold(gad7.reliableChange!)).toBeCloseTo(3.998, 3);
    const constants = { reliableChange: gad7.reliableChange, remissionBelow: null, lowerIsBetter: true };
    expect(changeOf({ score: 7, previous: 10, baseline: 10, isBaseline: false }, constants).reliable).toBe("NO_CHANGE");
    expect(changeOf({ score: 6, previous: 10, baseline: 10, isBaseline: false }, constants).reliable).toBe("IMPROVED");
  });
});

describe("a series of five results", () => {
  // Totals 18, 24, 15, 8, 4 on the PHQ-9; the standard error of the difference is
  // 4.8 × √2 × √(1 − 0.84) = 2.71529; half of the baseline is 9.
  const totals = [18, 24, 15, 8, 4];
  // The subscale scores 6, 7, 3, 2, 1 with sd 2.5 and reliability 0.8: the standard error is
  // 2.5 × √2 × √0.2 = 1.58114 (reliable beyond 3.099 points); half of the baseline is 3.
  const subscale = [6, 7, 3, 2, 1];

  it("given the totals, should compare each with the one before and with the first, by hand", () => {
    expect(changeSeries(totals, PHQ9)).toEqual([
      // The baseline: nothing to compare with.
      NO_CHANGE_YET,
      // +6: 6 / 2.71529 = 2.210 > 1.96, worse; no fall; 24 is not below 5.
      figures(6, 6, "DETERIORATED", false, false),
      // −3 from the first: −1.105, within ±1.96; a fall of 3 is less than 9.
      figures(-9, -3, "NO_CHANGE", false, false),
      // −10: −3.683, better; a fall of 10 ≥ 9 is a response; 8 is not below 5.
      figures(-7, -10, "IMPROVED", true, false),
      // −14: −5.156; 4 is below 5, a remission.
      figures(-4, -14, "IMPROVED", true, true),
    ]);
  });

  it("given a subscale with constants of its own, should compare its scores as the total's, with its own constants", () => {
    const constants = formChangeConstants({ reliableChangeSd: 4.8, reliableChangeReliability: 0.84, remissionBelow: 5, lowerIsBetter: true }, [
      SUBSCALE,
      { key: "somatic" },
    ]);
    const results = totals.map((score, index) => ({
      score,
      subscales: [
        { key: "cognitive", score: subscale[index]! },
        { key: "somatic", score: score - subscale[index]! },
      ],
    }));
    const changes = seriesChanges(results, constants);
    expect(changes.map((result) => result.change)).toEqual(changeSeries(totals, PHQ9));
    expect(changes.map((result) => result.subscales[0])).toEqual([
      { key: "cognitive", change: NO_CHANGE_YET },
      // +1: 1 / 1.58114 = 0.632.
      { key: "cognitive", change: figures(1, 1, "NO_CHANGE", false, false) },
      // −3: −1.897, just within ±1.96; a fall of 3 is exactly half of 6: a response.
      { key: "cognitive", change: figures(-4, -3, "NO_CHANGE", true, false) },
      // −4: −2.530; 2 is not below 2.
      { key: "cognitive", change: figures(-1, -4, "IMPROVED", true, false) },
      // −5: −3.162; 1 is below 2.
      { key: "cognitive", change: figures(-1, -5, "IMPROVED", true, true) },
    ]);
    // A subscale without constants of its own gets the differences only.
    expect(changes[4]!.subscales[1]).toEqual({ key: "somatic", change: figures(-3, -9, null, null, null) });
  });
});

describe("what cannot be compared", () => {
  it("given a form without constants, should give the differences alone (a school test's halved score is no response)", () => {
    expect(changeSeries([20, 10], { reliableChange: null, remissionBelow: null, lowerIsBetter: true })[1]).toEqual(figures(-10, -10, null, null, null));
  });

  it("given a form where higher is better, should call a rise an improvement and a response", () => {
    const constants = { reliableChange: { sd: 4, reliability: 0.84 }, remissionBelow: null, lowerIsBetter: false };
    // 4 × √2 × 0.4 = 2.263: +6 is 2.652, better; 10 + 6 ≥ 1.5 × 10.
    expect(changeSeries([10, 16], constants)[1]).toEqual(figures(6, 6, "IMPROVED", true, null));
    expect(changeSeries([10, 4], constants)[1]).toEqual(figures(-6, -6, "DETERIORATED", false, null));
  });

  it("given a baseline of 0, should give no response (there is no half of nothing), and a missing score no difference", () => {
    expect(changeSeries([0, 0], PHQ9)[1]).toEqual(figures(0, 0, "NO_CHANGE", null, true));
    expect(changeSeries([18, null, 9], PHQ9)).toEqual([NO_CHANGE_YET, figures(null, null, null, null, null), figures(null, -9, "IMPROVED", true, false)]);
  });

  it("given a subscale the first result did not have, should compare it with the previous result only", () => {
    const constants = formChangeConstants({ reliableChangeSd: null, reliableChangeReliability: null, remissionBelow: null, lowerIsBetter: 1 }, [SUBSCALE]);
    const changes = seriesChanges(
      [
        { score: 10, subscales: [] },
        { score: 9, subscales: [{ key: "cognitive", score: 6 }] },
        { score: 8, subscales: [{ key: "cognitive", score: 2 }] },
      ],
      constants,
    );
    expect(changes[2]!.subscales).toEqual([{ key: "cognitive", change: figures(-4, null, null, null, false) }]);
  });
});
