import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { QuestionType } from "~/features/forms/question-types.ts";
import {
  aggregate,
  bandForScore,
  mirroredScore,
  questionKey,
  requiredOnTheLink,
  type ScaleForm,
  type ScaleQuestion,
  scoreForm,
  scoringProblems,
  type Subscale,
  submitProblems,
} from "~/features/scoring/scales.ts";
import { type GivenAnswer, percentageOf, scoreAnswers } from "~/features/scoring/scoring.ts";

/**
 * The scoring engine of docs/api-contract.md §15 and §16 (ADR 67), each expectation computed by
 * hand in its comment; the properties check what must hold for any form.
 */

/** A single-choice question `id` with options scoring `scores`, option ids `<id>.<score>`. */
const question = (id: string, scores: number[], extra: Partial<ScaleQuestion> = {}): ScaleQuestion => ({
  id,
  text: `Question ${id}`,
  type: "SINGLE_CHOICE",
  required: true,
  options: scores.map((score) => ({ id: `${id}.${score}`, text: `${score} points`, score })),
  ...extra,
});
const pick = (id: string, score: number): GivenAnswer => ({ questionId: id, optionIds: [`${id}.${score}`] });
const band = (min: number, max: number, label: string, critical = false) => ({ min, max, label, color: "#1A7F37", critical });

describe("question keys", () => {
  it("given a question without a key, should key it q<position> counted from 1", () => {
    expect(questionKey({}, 0)).toBe("q1");
    expect(questionKey({ key: null }, 4)).toBe("q5");
    expect(questionKey({ key: "mood.1" }, 4)).toBe("mood.1");
    const result = scoreForm({ questions: [question("a", [0, 1]), question("b", [0, 1], { key: "second" })], scoreRanges: [] }, []);
    expect(result.answers.map((answer) => answer.key)).toEqual(["q1", "second"]);
  });
});

describe("reverse scoring", () => {
  it("given a reverse-scored question, should count min + max − score of the chosen option and keep the printed score beside it", () => {
    const form: ScaleForm = { questions: [question("a", [1, 2, 3, 4, 5], { reverseScored: true }), question("b", [0, 3])], scoreRanges: [] };
    // 1 + 5 − 2 = 4, plus 3.
    const result = scoreForm(form, [pick("a", 2), pick("b", 3)]);
    expect(result.answers[0]).toMatchObject({ score: 4, rawScore: 2, maxScore: 5 });
    expect(result.total).toMatchObject({ score: 7, maxScore: 8, percentage: 87.5 });
  });

  it("given any option scores, should mirror back to the same score when mirrored twice, inside the same range", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 8 }), fc.nat(), (scores, index) => {
        const score = scores[index % scores.length]!;
        const once = mirroredScore(score, scores);
        expect(mirroredScore(once, scores)).toBe(score);
        expect(once).toBeGreaterThanOrEqual(Math.min(...scores));
        expect(once).toBeLessThanOrEqual(Math.max(...scores));
      }),
    );
  });
});

describe("missing items", () => {
  const form = (maxMissing: number | null): ScaleForm => ({
    questions: ["a", "b", "c", "d"].map((id) => question(id, [0, 1, 2, 3])),
    scoreRanges: [band(0, 5, "Low"), band(6, 12, "High")],
    scoring: { maxMissing },
  });

  it("given 1..maxMissing unanswered items, should prorate the sum (sum × items / answered, 2 decimals)", () => {
    // 2 + 2 + 1 = 5 over 3 of 4 items: 5 × 4 / 3 = 6.666… → 6.67, in "High".
    const result = scoreForm(form(1), [pick("a", 2), pick("b", 2), pick("c", 1)]);
    expect(result.total).toMatchObject({ score: 6.67, maxScore: 12, answered: 3, items: 4, prorated: true, scorable: true, label: "High" });
  });

  it("given more unanswered items than maxMissing, should give no score, no label and say it is not scorable", () => {
    const result = scoreForm(form(1), [pick("a", 3), pick("b", 3)]);
    expect(result.total).toMatchObject({ score: null, label: null, color: null, percentage: null, answered: 2, items: 4, prorated: false, scorable: false });
  });

  it("given maxMissing 0, should refuse to score a total with one item unanswered", () => {
    expect(scoreForm(form(0), [pick("a", 3), pick("b", 3), pick("c", 3)]).total.scorable).toBe(false);
    expect(scoreForm(form(0), [pick("a", 3), pick("b", 3), pick("c", 3), pick("d", 0)]).total).toMatchObject({ score: 9, prorated: false });
  });

  it("given a form that never set maxMissing, should count an unanswered item as 0 as it always has", () => {
    expect(scoreForm(form(null), [pick("a", 3)]).total).toMatchObject({ score: 3, prorated: false, scorable: true, label: "Low" });
  });

  it("given a prorated sum that ends in a half at the third decimal, should round it up as by hand (81 / 8 = 10.125 → 10.13)", () => {
    const result = aggregate([null, 1, 4, 0, 2, 0, 0, 2, 0], Array(9).fill(4), { method: "SUM", multiplier: 1, maxMissing: 1 });
    expect(result).toMatchObject({ score: 10.13, prorated: true, answered: 8, items: 9 });
    expect(aggregate([null, -1, -4, 0, -2, 0, 0, -2, 0], Array(9).fill(0), { method: "SUM", multiplier: 1, maxMissing: 1 }).score).toBe(-10.13);
    // The percentage rounds the same way: -3 of 32 is -9.375 %.
    expect(percentageOf(-3, 32)).toBe(-9.38);
    expect(percentageOf(3, 32)).toBe(9.38);
  });

  it("given nonnegative item scores and at most maxMissing missing, should prorate between the answered sum and the maximum", () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 12 }),
        (values, maxMissing) => {
          const maxima = values.map(() => 4);
          const result = aggregate(values, maxima, { method: "SUM", multiplier: 1, maxMissing });
          const answered = values.filter((value) => value !== null);
          const missing = values.length - answered.length;
          if (missing > maxMissing || answered.length === 0) {
            expect(result).toMatchObject({ score: null, scorable: false, prorated: false });
            return;
          }
          const sum = answered.reduce((total: number, value) => total + value, 0);
          expect(result.prorated).toBe(missing > 0);
          expect(result.score!).toBeGreaterThanOrEqual(sum);
          expect(result.score!).toBeLessThanOrEqual(result.maxScore);
          // The prorated sum is the answered items' mean over every item, to 2 decimals (a half
          // rounds away, so it may be off by 0.005 and a binary fraction's error).
          expect(Math.abs(result.score! - (sum / answered.length) * values.length)).toBeLessThanOrEqual(0.005 + 1e-9);
        },
      ),
    );
  });
});

describe("MEAN and the multiplier", () => {
  const three = ["a", "b", "c"].map((id) => question(id, [0, 1, 2, 3, 4]));

  it("given MEAN, should divide by the answered items, apply the multiplier after, and give the maximum the same way", () => {
    // (1 + 2 + 4) / 3 = 2.333… × 2 = 4.67; maximum 4 × 2 = 8.
    const result = scoreForm({ questions: three, scoreRanges: [], scoring: { method: "MEAN", multiplier: 2 } }, [pick("a", 1), pick("b", 2), pick("c", 4)]);
    expect(result.total).toMatchObject({ score: 4.67, maxScore: 8, percentage: 58.38 });
  });

  it("given MEAN with an item missing under maxMissing, should average the answered items and say it is prorated", () => {
    // (1 + 4) / 2 = 2.5.
    const result = scoreForm({ questions: three, scoreRanges: [], scoring: { method: "MEAN", maxMissing: 1 } }, [pick("a", 1), pick("c", 4)]);
    expect(result.total).toMatchObject({ score: 2.5, maxScore: 4, prorated: true, answered: 2, items: 3 });
  });

  it("given a multiplier, should scale the sum and the maximum and look the band up on the scaled score", () => {
    // (3 + 3 + 1) × 4 = 28 of 48.
    const form: ScaleForm = { questions: three, scoreRanges: [band(0, 28, "Low"), band(29, 48, "High")], scoring: { multiplier: 4, display: "RAW" } };
    const result = scoreForm(form, [pick("a", 3), pick("b", 3), pick("c", 1)]);
    expect(result.total).toMatchObject({ score: 28, maxScore: 48, label: "Low", display: "RAW" });
  });
});

describe("subscales", () => {
  const questions = ["a", "b", "c", "d"].map((id) => question(id, [0, 1, 2, 3]));
  const subscales: Subscale[] = [
    { key: "first", name: "First", items: ["q1", "q2"], method: "SUM", multiplier: 2, scoreRanges: [band(0, 5, "Low"), band(6, 12, "High", true)] },
    { key: "mean", name: "Mean", items: ["q2", "q3", "q4"], method: "MEAN" },
  ];

  it("given subscales, should score each over its own items, with its method, multiplier and bands", () => {
    // first: (3 + 1) × 2 = 8 of 12, "High"; mean: (1 + 0 + 2) / 3 = 1 of 3.
    const result = scoreForm({ questions, scoreRanges: [], subscales }, [pick("a", 3), pick("b", 1), pick("c", 0), pick("d", 2)]);
    expect(result.subscales).toEqual([
      { key: "first", name: "First", score: 8, maxScore: 12, label: "High", color: "#1A7F37", answered: 2, items: 2, prorated: false, scorable: true },
      { key: "mean", name: "Mean", score: 1, maxScore: 3, label: null, color: null, answered: 3, items: 3, prorated: false, scorable: true },
    ]);
    expect(result.flags).toEqual([{ kind: "BAND", subscaleKey: "first", text: "First: High" }]);
  });

  it("given missing items, should prorate a subscale before its multiplier and leave one with too many missing unscored", () => {
    // first: b missing, 3 × 2 / 1 = 6, × 2 = 12; mean: b and d missing of 3 with maxMissing 1: not scorable.
    const result = scoreForm({ questions, scoreRanges: [], subscales, scoring: { maxMissing: 1 } }, [pick("a", 3), pick("c", 0)]);
    expect(result.subscales[0]).toMatchObject({ score: 12, prorated: true, label: "High" });
    expect(result.subscales[1]).toMatchObject({ score: null, label: null, scorable: false });
    expect(result.total.scorable).toBe(false);
  });
});

describe("bands", () => {
  const bands = [band(0, 9, "Normal"), band(10, 13, "Mild"), band(20, 30, "High")];

  it("given a fractional score between two whole-number bands, should read it in the band of its whole part", () => {
    expect(bandForScore(9.33, bands)?.label).toBe("Normal");
    expect(bandForScore(13.99, bands)?.label).toBe("Mild");
    expect(bandForScore(10, bands)?.label).toBe("Mild");
  });

  it("given a score in a gap a form leaves on purpose, should name no band", () => {
    expect(bandForScore(15, bands)).toBeNull();
    expect(bandForScore(15.5, bands)).toBeNull();
    expect(bandForScore(0.5, [band(0, 0.25, "Low"), band(0.75, 1, "High")])).toBeNull();
  });
});

describe("critical answers", () => {
  it("given a critical option chosen or a total in a critical band, should flag each", () => {
    const form: ScaleForm = {
      questions: [
        {
          ...question("a", [0, 1]),
          options: [
            { id: "a.0", text: "No", score: 0 },
            { id: "a.1", text: "Yes", score: 1, critical: true },
          ],
        },
        question("b", [0, 5], { key: "b" }),
      ],
      scoreRanges: [band(0, 5, "Fine"), band(6, 6, "Urgent", true)],
    };
    expect(scoreForm(form, [{ questionId: "a", optionIds: ["a.0"] }, pick("b", 5)]).flags).toEqual([]);
    expect(scoreForm(form, [{ questionId: "a", optionIds: ["a.1"] }, pick("b", 5)]).flags).toEqual([
      { kind: "OPTION", questionKey: "q1", text: "Question a — Yes" },
      { kind: "BAND", text: "Urgent" },
    ]);
  });
});

describe("a form without the new fields", () => {
  const types: QuestionType[] = ["SINGLE_CHOICE", "MULTIPLE_CHOICE", "SCALE", "TEXT"];
  const formArbitrary = fc
    .array(
      fc.record({
        type: fc.constantFrom(...types),
        required: fc.boolean(),
        scores: fc.array(fc.integer({ min: -5, max: 10 }), { minLength: 2, maxLength: 5 }),
        chosen: fc.array(fc.nat(), { maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 8 },
    )
    .map((rows) => ({
      questions: rows.map((row, index) => ({
        id: `q-${index}`,
        text: `Question ${index}`,
        type: row.type,
        required: row.required,
        options: row.type === "TEXT" ? [] : row.scores.map((score, option) => ({ id: `q-${index}.${option}`, text: `Option ${option}`, score })),
      })),
      answers: rows.flatMap((row, index): GivenAnswer[] => {
        if (row.type === "TEXT") return row.chosen.length > 0 ? [{ questionId: `q-${index}`, text: "words" }] : [];
        const ids = [...new Set(row.chosen.map((n) => `q-${index}.${n % row.scores.length}`))];
        const optionIds = row.type === "MULTIPLE_CHOICE" ? ids : ids.slice(0, 1);
        return optionIds.length > 0 ? [{ questionId: `q-${index}`, optionIds }] : [];
      }),
    }));

  it("given any form and answers, should give the total, maximum, percentage and band scoreAnswers gives", () => {
    fc.assert(
      fc.property(formArbitrary, ({ questions, answers }) => {
        const bands = [band(-100, 0, "Low"), band(1, 10, "Middle"), band(11, 100, "High")];
        const today = scoreAnswers(questions, bands, answers);
        const result = scoreForm({ questions, scoreRanges: bands }, answers);
        expect(result.total.score).toBe(today.totalScore);
        expect(result.total.maxScore).toBe(today.maxScore);
        expect(result.total.percentage).toBe(today.percentage);
        expect(result.total.label).toBe(today.scoreLabel);
        expect(result.total).toMatchObject({ prorated: false, scorable: true });
        expect(result.answers.map((answer) => answer.score)).toEqual(today.answers.map((answer) => answer.score));
        expect(result.subscales).toEqual([]);
        expect(result.flags).toEqual([]);
      }),
    );
  });
});

describe("the scoring configuration", () => {
  const questions: ScaleQuestion[] = [
    question("a", [0, 1]),
    question("b", [0, 1], { key: "mood" }),
    { id: "c", text: "Anything else?", type: "TEXT", required: false, options: [] },
    question("d", [0, 0]),
  ];
  const subscale = (key: string, items: string[]): Subscale => ({ key, name: key, items, method: "SUM" });
  const paths = (form: Pick<ScaleForm, "questions" | "subscales">) => scoringProblems(form).map((problem) => `${problem.path} ${problem.key.key}`);

  it("given a valid configuration, should find nothing", () => {
    expect(paths({ questions, subscales: [subscale("one", ["q1", "mood"]), subscale("two", ["mood"])] })).toEqual([]);
  });

  it("given subscale items that are not keys of scored questions, or repeated, should point at each", () => {
    expect(paths({ questions, subscales: [subscale("one", ["q2", "q3", "q4", "q1", "q1", "nothing"]), subscale("empty", [])] })).toEqual([
      "subscales.0.items.0 notAScoredQuestion",
      "subscales.0.items.1 notAScoredQuestion",
      "subscales.0.items.2 notAScoredQuestion",
      "subscales.0.items.4 itemTwice",
      "subscales.0.items.5 notAScoredQuestion",
      "subscales.1.items tooFew",
    ]);
  });

  it("given malformed or repeated keys, should point at each", () => {
    const keyed = [question("a", [0, 1], { key: "q2" }), question("b", [0, 1]), question("c", [0, 1], { key: "has space" })];
    expect(paths({ questions: keyed, subscales: [subscale("ok", ["q2"]), subscale("ok", ["q2"]), subscale("x".repeat(41), ["q2"])] })).toEqual([
      "questions.1.key keyTwice",
      "questions.2.key keyFormat",
      "subscales.1.key keyTwice",
      "subscales.2.key keyFormat",
    ]);
  });

  it("given more than 20 subscales, should refuse the list", () => {
    const many = Array.from({ length: 21 }, (_, index) => subscale(`s${index}`, ["q1"]));
    expect(paths({ questions, subscales: many })).toEqual(["subscales tooMany"]);
    expect(scoringProblems({ questions, subscales: many })[0]!.message).toBe("Give at most 20.");
  });
});

describe("required items and maxMissing on a submit", () => {
  // Three required items and a required text question.
  const text: ScaleQuestion = { id: "t", text: "Say", type: "TEXT", required: true, options: [] };
  const form = (maxMissing: number | null): ScaleForm => ({
    questions: [question("a", [0, 1]), question("b", [0, 1]), question("c", [0, 1]), text],
    scoreRanges: [],
    scoring: { maxMissing },
  });
  const paths = (problems: { path: string }[]) => problems.map((problem) => problem.path);
  const said = { questionId: "t", text: "fine" };

  it("given maxMissing 1 and one required item left out, should accept it", () => {
    expect(submitProblems(form(1), [pick("a", 1), pick("b", 0), said])).toEqual([]);
  });

  it("given maxMissing 1 and two required items left out, should ask for both", () => {
    expect(paths(submitProblems(form(1), [pick("a", 1), said]))).toEqual(["questions.b", "questions.c"]);
  });

  it("given no maxMissing, or 0, should ask for every required item, as before", () => {
    expect(paths(submitProblems(form(null), [pick("a", 1), pick("b", 0), said]))).toEqual(["questions.c"]);
    expect(paths(submitProblems(form(0), [pick("a", 1), pick("b", 0), said]))).toEqual(["questions.c"]);
  });

  it("given a required text question, should never excuse it", () => {
    expect(paths(submitProblems(form(2), [pick("a", 1), pick("b", 0), pick("c", 0)]))).toEqual(["questions.t"]);
    expect(requiredOnTheLink(form(2), text)).toBe(true);
  });

  it("given maxMissing, should show the scored items as optional on the link; without it, as they are", () => {
    expect(requiredOnTheLink(form(1), question("a", [0, 1]))).toBe(false);
    expect(requiredOnTheLink(form(null), question("a", [0, 1]))).toBe(true);
    expect(requiredOnTheLink(form(0), question("a", [0, 1]))).toBe(true);
  });
});
