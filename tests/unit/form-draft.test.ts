import { describe, expect, it } from "vitest";
import {
  bodyFromDraft,
  copyOptions,
  copyTargets,
  type DraftQuestion,
  draftFromQuestion,
  draftFromValue,
  draftSubscaleTotals,
  draftTotals,
  emptyDraft,
  emptyOption,
  emptyQuestion,
  emptySubscale,
  type FormDraft,
  newQuestionRef,
  oneScoreQuestions,
  scoredDraftQuestion,
} from "~/features/forms/form-draft.ts";

/**
 * The form editor's draft as the page's fields hold it, and what it sends the API: empty scores,
 * question keys and the subscales' items, the copy of a question's options to the others of its
 * type, and the questions whose options all give one score (docs/api-contract.md §15, §16; ADR 74).
 */
const option = (text: string, score: string, critical = false) => ({ ...emptyOption(), text, score, critical });

function question(ref: string, overrides: Partial<DraftQuestion> = {}): DraftQuestion {
  return { ...emptyQuestion(ref), text: `Question ${ref}`, ...overrides };
}

const likert = () => [option("Never", "0"), option("Sometimes", "1"), option("Often", "2"), option("Always", "3", true)];

function draft(overrides: Partial<FormDraft>): FormDraft {
  return { ...emptyDraft(), title: "Draft", ...overrides };
}

describe("the editor's draft as the API's body", () => {
  it("given a scale whose points were added and named with their scores untouched, should score each point its value", () => {
    // As the editor makes it: a new question's two options and two more added, then named.
    const scale = question("new-1", { type: "SCALE", scale: { min: "1", max: "4", minLabel: "", maxLabel: "" } });
    scale.options = [...scale.options, emptyOption(), emptyOption()].map((o, j) => ({ ...o, text: ["Never", "Sometimes", "Often", "Always"][j]! }));

    const body = bodyFromDraft(draft({ questions: [scale] }), "create");

    expect(body.questions[0]!.options.map((o) => o.score)).toEqual([1, 2, 3, 4]);
  });

  it("given a choice option whose score was left empty, should score it 0, and keep a score typed", () => {
    const choice = question("new-1", { options: [option("Yes", ""), option("No", "2,5")] });

    expect(bodyFromDraft(draft({ questions: [choice] }), "create").questions[0]!.options.map((o) => o.score)).toEqual([0, 2.5]);
  });

  it("given subscale items ticked by question, should send the keys the questions have when saved, given or by position", () => {
    const subscale = { ...emptySubscale(), key: "stress", name: "Stress", items: ["b", "a", "gone"] };
    const form = draft({
      questions: [question("a", { key: " s1 " }), question("b", { key: "" }), question("c", { key: "d1" })],
      subscales: [subscale],
    });

    const body = bodyFromDraft(form, "update");

    expect(body.questions.map((q) => q.key)).toEqual(["s1", null, "d1"]);
    // A removed question's tick goes with it.
    expect(body.subscales[0]!.items).toEqual(["q2", "s1"]);
  });

  it("given the scoring as the editor starts it, should send null, and the settings once one changes", () => {
    expect(bodyFromDraft(emptyDraft(), "create").scoring).toBeNull();
    const changed = draft({ scoring: { method: "SUM", multiplier: "", maxMissing: "1", display: "RAW" } });

    expect(bodyFromDraft(changed, "create").scoring).toEqual({ method: "SUM", multiplier: 1, maxMissing: 1, display: "RAW" });
  });

  it("given the constants of a change over time as typed, should send none as null, both as numbers, and half a pair for the schema to name", () => {
    expect(bodyFromDraft(emptyDraft(), "create")).toMatchObject({ reliableChange: null, remissionBelow: null, lowerIsBetter: true });
    const typed = draft({
      reliableChange: { sd: "4,8", reliability: " 0.84 " },
      remissionBelow: "5",
      lowerIsBetter: false,
      subscales: [{ ...emptySubscale(), key: "a", reliableChange: { sd: "2", reliability: "" }, remissionBelow: "" }],
    });

    const body = bodyFromDraft(typed, "update");

    expect(body).toMatchObject({ reliableChange: { sd: 4.8, reliability: 0.84 }, remissionBelow: 5, lowerIsBetter: false });
    expect(body.subscales[0]).toMatchObject({ reliableChange: { sd: 2, reliability: undefined }, remissionBelow: null });
    // An unticked "Lower scores are better" posts nothing.
    expect(draftFromValue({ title: "x" }).lowerIsBetter).toBe(false);
    expect(draftFromValue({ lowerIsBetter: "on", reliableChange: { sd: "1" } })).toMatchObject({
      lowerIsBetter: true,
      reliableChange: { sd: "1", reliability: "" },
    });
  });

  it("given posted checkboxes, one item or many, should read them back as the draft", () => {
    const posted = draftFromValue({
      questions: [{ ref: "new-1", key: "s1", reverseScored: "on", options: [{ text: "A", score: "1", critical: "on" }] }],
      scoreRanges: [{ min: "0", max: "3", label: "Low", color: "#1a7f37", critical: "on" }],
      subscales: [{ key: "a", items: "new-1" }, { key: "b", items: ["new-1", "x"] }, { key: "c" }],
      scoring: { method: "MEAN", display: "nonsense" },
    });

    expect(posted.questions[0]).toMatchObject({ ref: "new-1", key: "s1", reverseScored: true, options: [{ text: "A", critical: true }] });
    expect(posted.scoreRanges[0]!.critical).toBe(true);
    expect(posted.subscales.map((s) => s.items)).toEqual([["new-1"], ["new-1", "x"], []]);
    expect(posted.scoring).toMatchObject({ method: "MEAN", display: "PERCENT" });
  });

  it("given an answer key posted without JavaScript, should read it back and send points, rule, marks and feedback", () => {
    const posted = draftFromValue({
      review: "AFTER_SUBMIT",
      questions: [
        {
          ref: "new-1",
          type: "MULTIPLE_CHOICE",
          text: "Which are prime?",
          points: "2,5",
          scoringRule: "PARTIAL",
          feedback: "Primes have two divisors.",
          options: [
            { text: "2", score: "", correct: "on", feedback: "Yes: the only even prime." },
            { text: "4", score: "", feedback: " " },
            { text: "5", score: "", correct: "on" },
          ],
        },
      ],
    });

    expect(posted.review).toBe("AFTER_SUBMIT");
    expect(posted.questions[0]).toMatchObject({ points: "2,5", scoringRule: "PARTIAL", feedback: "Primes have two divisors." });
    expect(posted.questions[0]!.options.map((o) => [o.correct, o.feedback])).toEqual([
      [true, "Yes: the only even prime."],
      [false, " "],
      [true, ""],
    ]);
    const body = bodyFromDraft(posted, "update");
    expect(body.review).toBe("AFTER_SUBMIT");
    expect(body.questions[0]).toMatchObject({ points: 2.5, scoringRule: "PARTIAL", feedback: "Primes have two divisors." });
    expect(body.questions[0]!.options.map((o) => [o.correct, o.feedback])).toEqual([
      [true, "Yes: the only even prime."],
      [false, null],
      [true, null],
    ]);
  });

  it("given a saved keyed question, should round trip it through the page's fields unchanged", () => {
    const saved = {
      id: "q1",
      key: "capital",
      text: "The capital of France?",
      type: "SINGLE_CHOICE" as const,
      required: true,
      reverseScored: false,
      scale: null,
      points: 3,
      scoringRule: "ALL_OR_NOTHING" as const,
      feedback: "Paris has been the capital since 987.",
      options: [
        { id: "o1", text: "Paris", score: 0, critical: false, correct: true, feedback: "Right." },
        { id: "o2", text: "Lyon", score: 0, critical: false, correct: false, feedback: null },
      ],
    };
    const typed = draftFromQuestion(saved);
    // As the page posts it: checkboxes "on" or absent, every other value a text.
    const fields = {
      ...typed,
      required: "on",
      reverseScored: undefined,
      options: typed.options.map((o) => ({ ...o, critical: undefined, correct: o.correct ? "on" : undefined })),
    };
    const round = draftFromValue({ questions: [fields] }).questions[0]!;

    expect(round).toEqual(typed);
    expect(bodyFromDraft(draft({ questions: [round] }), "update").questions[0]).toEqual({
      id: "q1",
      key: "capital",
      text: "The capital of France?",
      type: "SINGLE_CHOICE",
      required: true,
      reverseScored: false,
      points: 3,
      scoringRule: "ALL_OR_NOTHING",
      feedback: "Paris has been the capital since 987.",
      options: [
        { id: "o1", text: "Paris", score: 0, critical: false, correct: true, feedback: "Right." },
        { id: "o2", text: "Lyon", score: 0, critical: false, correct: false, feedback: null },
      ],
    });
  });

  it("given empty points, a review left out and a scale, should send no key: null points, no marks, the default rule", () => {
    const scale = question("s", {
      type: "SCALE",
      scale: { min: "1", max: "2", minLabel: "", maxLabel: "" },
      options: [
        { ...option("Low", ""), correct: true },
        { ...option("High", ""), correct: false },
      ],
    });
    const posted = draftFromValue({ review: "SOMETIMES", questions: [{ ref: "a", type: "SINGLE_CHOICE", scoringRule: "NONSENSE" }] });

    expect(posted.review).toBe("NEVER");
    expect(posted.questions[0]).toMatchObject({ points: "", scoringRule: "ALL_OR_NOTHING", feedback: "" });
    const body = bodyFromDraft(draft({ questions: [question("c"), scale] }), "create");
    expect(body.review).toBe("NEVER");
    expect(body.questions[0]).toMatchObject({ points: null, scoringRule: "ALL_OR_NOTHING", feedback: null });
    // A scale's points are no answer key.
    expect(body.questions[1]!.options.map((o) => o.correct)).toEqual([false, false]);
  });

  it("names a new question with a ref none of the others has", () => {
    expect(newQuestionRef([{ ref: "new-1" }, { ref: "abc" }, { ref: "new-3" }])).toBe("new-2");
  });
});

describe("applying a question's options to the others of its type", () => {
  it("copies texts, scores and critical marks, keeping each question's own option ids by position and leaving other types alone", () => {
    const value = {
      title: "Kept",
      questions: [
        {
          type: "SINGLE_CHOICE",
          text: "Source",
          options: [
            { id: "", text: "No", score: "0" },
            { id: "", text: "Yes", score: "2", critical: "on" },
          ],
        },
        { type: "SINGLE_CHOICE", text: "Target", key: "t", options: [{ id: "o1", text: "x", score: "9", critical: "on" }, { id: "o2" }, { id: "o3" }] },
        { type: "MULTIPLE_CHOICE", text: "Other type", options: [{ id: "m1", text: "m", score: "1" }] },
      ],
    };

    const copied = copyOptions(value, 0) as typeof value;

    expect(copied.title).toBe("Kept");
    expect(copied.questions[1]).toEqual({
      type: "SINGLE_CHOICE",
      text: "Target",
      key: "t",
      options: [
        { id: "o1", text: "No", score: "0" },
        { id: "o2", text: "Yes", score: "2", critical: "on" },
      ],
    });
    expect(copied.questions[2]).toBe(value.questions[2]);
    expect(copyTargets(draftFromValue(value).questions, 0)).toEqual([1]);
  });

  it("gives the other scales the range and end labels with the points", () => {
    const scale = { min: "0", max: "3", minLabel: "Never", maxLabel: "Always" };
    const copied = copyOptions(
      {
        questions: [
          { type: "SCALE", scale, options: [] },
          { type: "SCALE", scale: { min: "1", max: "5" }, options: [] },
        ],
      },
      0,
    ) as {
      questions: { scale: unknown }[];
    };

    expect(copied.questions[1]!.scale).toEqual(scale);
  });
});

describe("questions that give one score whatever the answer", () => {
  it("names single-choice and scale questions whose options all score one number other than 0", () => {
    const questions = [
      question("a", { options: [option("Yes", "1"), option("No", "1")] }),
      question("b", { options: [option("Yes", "0"), option("No", "")] }),
      question("c", { type: "MULTIPLE_CHOICE", options: [option("Red", "1"), option("Blue", "1")] }),
      question("d", { options: likert() }),
      question("e", {
        type: "SCALE",
        scale: { min: "1", max: "3", minLabel: "", maxLabel: "" },
        options: [option("L", "2"), option("M", "2"), option("H", "2")],
      }),
    ];

    expect(oneScoreQuestions(questions.map(scoredDraftQuestion))).toEqual([0, 4]);
  });

  it("leaves out a question graded by its key, whose options' scores are not used", () => {
    const keyed = question("k", { points: "2", options: [{ ...option("Yes", "0"), correct: true }, option("No", "0")] });
    const flat = question("f", { options: [option("Yes", "1"), option("No", "1")] });

    expect(oneScoreQuestions([keyed, flat].map(scoredDraftQuestion))).toEqual([1]);
  });
});

describe("the scores the draft can give", () => {
  it("makes the total's range with its method and multiplier, and a subscale's with its own", () => {
    const questions = ["a", "b", "c"].map((ref) => question(ref, { required: true, options: likert() }));
    const form = draft({
      questions,
      scoring: { method: "SUM", multiplier: "4", maxMissing: "", display: "RAW" },
      subscales: [{ ...emptySubscale(), method: "MEAN", items: ["a", "b"], multiplier: "2" }],
    });

    expect(draftTotals(form)).toEqual({ min: 0, max: 36, whole: true, scored: true });
    expect(draftSubscaleTotals(form, form.subscales[0]!)).toMatchObject({ min: 0, max: 6, whole: false });
  });

  it("counts a keyed question's points, not its options' scores, and a keyed question alone makes a subscale's item", () => {
    const keyed = question("k", { required: true, points: "5", options: [{ ...option("Paris", "1"), correct: true }, option("Lyon", "9")] });
    const form = draft({
      questions: [question("a", { required: true, options: likert() }), keyed],
      subscales: [{ ...emptySubscale(), items: ["k"] }],
    });

    expect(draftTotals(form)).toMatchObject({ min: 0, max: 8, scored: true });
    expect(draftSubscaleTotals(form, form.subscales[0]!)).toMatchObject({ min: 0, max: 5 });
    // Points not yet a number above 0: scored by the options as typed.
    const typing = draft({ questions: [{ ...keyed, points: "-" }] });
    expect(draftTotals(typing)).toMatchObject({ min: 1, max: 9 });
  });
});
