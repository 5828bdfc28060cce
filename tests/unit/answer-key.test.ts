import { describe, expect, it } from "vitest";
import { answeredCorrectly, keyedScore } from "~/features/scoring/answer-key.ts";
import { achievableScores } from "~/features/scoring/items.ts";
import { scoreForm, type ScaleQuestion } from "~/features/scoring/scales.ts";

/** Questions graded by their answer key (docs/api-contract.md §22): the points, not the options' scores. */

const option = (id: string, correct = false, score = 0) => ({ id, text: id, score, correct });

const single: ScaleQuestion = {
  id: "capital",
  text: "The capital of Brazil?",
  type: "SINGLE_CHOICE",
  required: true,
  points: 2,
  options: [option("rio"), option("brasilia", true), option("sao-paulo", false, 5)],
};

const multiple = (scoringRule: "ALL_OR_NOTHING" | "PARTIAL"): ScaleQuestion => ({
  id: "primes",
  text: "Which are prime?",
  type: "MULTIPLE_CHOICE",
  required: false,
  points: 3,
  scoringRule,
  options: [option("2", true), option("3", true), option("4"), option("5", true)],
});

describe("a question graded by its key", () => {
  it("scores its points for a correct single choice, 0 otherwise, whatever the options score", () => {
    expect(keyedScore(single, ["brasilia"])).toBe(2);
    expect(keyedScore(single, ["sao-paulo"])).toBe(0);
    expect(keyedScore(single, [])).toBe(0);
  });

  it("all or nothing: exactly the correct options earn the points", () => {
    const question = multiple("ALL_OR_NOTHING");
    expect(keyedScore(question, ["2", "3", "5"])).toBe(3);
    expect(keyedScore(question, ["2", "3"])).toBe(0);
    expect(keyedScore(question, ["2", "3", "4", "5"])).toBe(0);
  });

  it("partial credit: points × (right − wrong) / correct options, to 2 decimals, never below 0", () => {
    const question = multiple("PARTIAL");
    expect(keyedScore(question, ["2", "3", "5"])).toBe(3);
    expect(keyedScore(question, ["2", "3"])).toBe(2);
    expect(keyedScore(question, ["2"])).toBe(1);
    expect(keyedScore(question, ["2", "3", "4"])).toBe(1);
    expect(keyedScore(question, ["2", "4"])).toBe(0);
    expect(keyedScore(question, ["4"])).toBe(0);
    expect(keyedScore({ ...question, points: 1 }, ["2"])).toBe(0.33);
  });

  it("says whether the answer is the key's, and null for a question without a key", () => {
    expect(answeredCorrectly(single, ["brasilia"])).toBe(true);
    expect(answeredCorrectly(multiple("PARTIAL"), ["2", "3"])).toBe(false);
    expect(answeredCorrectly({ ...single, points: null }, ["brasilia"])).toBeNull();
  });

  it("counts in the total with its points as its maximum, beside a question scored by its options", () => {
    const likert: ScaleQuestion = {
      id: "mood",
      text: "Mood",
      type: "SINGLE_CHOICE",
      required: false,
      options: [option("low", false, 0), option("high", false, 4)],
    };
    const form = { questions: [single, multiple("PARTIAL"), likert], scoreRanges: [{ min: 0, max: 4, label: "Low", color: "#000000" }] };
    const result = scoreForm(form, [
      { questionId: "capital", optionIds: ["brasilia"] },
      { questionId: "primes", optionIds: ["2", "3"] },
      { questionId: "mood", optionIds: ["low"] },
    ]);
    expect(result.answers.map((answer) => [answer.score, answer.maxScore])).toEqual([
      [2, 2],
      [2, 3],
      [0, 4],
    ]);
    expect(result.total).toMatchObject({ score: 4, maxScore: 9, percentage: 44.44, label: "Low" });
    expect(achievableScores(form.questions, { method: "SUM", multiplier: 1, maxMissing: null })).toMatchObject({ min: 0, max: 9 });
  });
});
