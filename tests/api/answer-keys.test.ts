import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, createStudent } from "../support/assessment.ts";
import { errorPaths, expectProblem } from "../support/fixtures.ts";
import { keyedFormBody } from "../support/form-bodies.ts";

/**
 * Answer keys over real HTTP (docs/api-contract.md §22, ADR 90): points, scoring rules, feedback and
 * correct marks written and read back; what the form refuses, at the field; and what the stored
 * results score, whatever the options' own scores say.
 */
const teacher = "teacher@demo.test" as const;

type KeyedForm = {
  id: string;
  questions: {
    id: string;
    type: string;
    points: number | null;
    scoringRule: string;
    feedback: string | null;
    options: { id: string; text: string; score: number; correct: boolean; feedback: string | null }[];
  }[];
};

async function createKeyed(review?: "NEVER" | "AFTER_SUBMIT" | "AFTER_CLOSE"): Promise<KeyedForm> {
  const response = await api<KeyedForm>("POST", "/api/forms", { as: teacher, json: keyedFormBody(unique("Keyed"), review) });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The option ids of question `q` with these texts. */
const pick = (form: KeyedForm, q: number, ...texts: string[]) => texts.map((text) => form.questions[q]!.options.find((option) => option.text === text)!.id);

/** Submits through a fresh link and reads the stored result back. */
async function scored(form: KeyedForm, answers: { questionId: string; optionIds?: string[]; text?: string }[]) {
  const student = await createStudent(teacher, unique("Keyed pupil"));
  const link = await assign(teacher, { formId: form.id, studentId: student.id });
  const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } });
  expect(submit.status, submit.text).toBe(200);
  const report = await api("GET", `/api/reports/${link.id}`, { as: teacher });
  expect(report.status, report.text).toBe(200);
  return report.body as { totalScore: number; maxScore: number; percentage: number; answers: { questionId: string; score: number; maxScore: number }[] };
}

describe("a form with an answer key", () => {
  it("given keyed single, all-or-nothing and partial questions, should store them and read them back with their key and feedback", async () => {
    const form = await createKeyed("AFTER_SUBMIT");
    const again = await api<KeyedForm & { review: string; version: number }>("GET", `/api/forms/${form.id}`, { as: teacher });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ review: "AFTER_SUBMIT", version: 1 });
    const [single, allOrNothing, partial, text] = again.body.questions;
    expect(single).toMatchObject({
      type: "SINGLE_CHOICE",
      points: 2,
      scoringRule: "ALL_OR_NOTHING",
      feedback: "Paris has been the capital since the 10th century.",
    });
    expect(single!.options).toMatchObject([
      { text: "Paris", score: 0, correct: true, feedback: "Yes: Paris." },
      { text: "Lyon", score: 5, correct: false, feedback: "Lyon is a large city, not the capital." },
    ]);
    expect(allOrNothing).toMatchObject({ type: "MULTIPLE_CHOICE", points: 2, scoringRule: "ALL_OR_NOTHING", feedback: "A prime has exactly two divisors." });
    expect(allOrNothing!.options.map((option) => [option.text, option.correct, option.feedback])).toEqual([
      ["2", true, null],
      ["3", true, null],
      ["4", false, "4 is 2 × 2."],
    ]);
    expect(partial).toMatchObject({ points: 3, scoringRule: "PARTIAL", feedback: null });
    expect(partial!.options.filter((option) => option.correct).map((option) => option.text)).toEqual(["Atlantic", "Pacific", "Indian"]);
    expect(text).toMatchObject({ type: "TEXT", points: null, scoringRule: "ALL_OR_NOTHING", feedback: null, options: [] });
    expect(again.body).toEqual(form);
  });

  it.each([
    ["TEXT", { text: "Explain", type: "TEXT", points: 2 }],
    ["SCALE", { text: "Rate", type: "SCALE", points: 2, scale: { min: 1, max: 5 } }],
  ])("given points on a %s question, should answer 400 at questions.N.points", async (_type, question) => {
    const body = keyedFormBody(unique("Points on text"));
    const response = await api("POST", "/api/forms", { as: teacher, json: { ...body, questions: [body.questions[0], question] } });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["questions.1.points"]);
  });

  it("given points on a reverse-scored question, should answer 400 at its reverseScored", async () => {
    const body = keyedFormBody(unique("Reversed key"));
    const response = await api("POST", "/api/forms", { as: teacher, json: { ...body, questions: [{ ...body.questions[0], reverseScored: true }] } });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["questions.0.reverseScored"]);
  });

  it("given points and no correct option, should answer 400 at questions.N.options, on a create and on a PUT that keeps the options by id", async () => {
    const body = keyedFormBody(unique("No key"));
    const unmarked = { ...body.questions[1], options: (body.questions[1]!.options ?? []).map(({ correct: _correct, ...option }) => option) };
    const created = await api("POST", "/api/forms", { as: teacher, json: { ...body, questions: [body.questions[0], unmarked] } });
    expectProblem(created, 400, "VALIDATION_FAILED");
    expect(errorPaths(created)).toEqual(["questions.1.options"]);

    // A question scored by its options, kept with its options by id: points alone have no key.
    const plain = await api("POST", "/api/forms", {
      as: teacher,
      json: {
        title: unique("Plain"),
        questions: [
          {
            text: "Pick",
            type: "SINGLE_CHOICE",
            options: [
              { text: "a", score: 1 },
              { text: "b", score: 0 },
            ],
          },
        ],
      },
    });
    expect(plain.status, plain.text).toBe(201);
    const question = plain.body.questions[0];
    const kept = {
      id: question.id,
      text: "Pick",
      type: "SINGLE_CHOICE",
      options: question.options.map(({ id, text, score }: KeyedForm["questions"][0]["options"][0]) => ({ id, text, score })),
    };
    const noKey = await api("PUT", `/api/forms/${plain.body.id}`, { as: teacher, json: { questions: [{ ...kept, points: 1 }] } });
    expectProblem(noKey, 400, "VALIDATION_FAILED");
    expect(errorPaths(noKey)).toEqual(["questions.0.options"]);
    expect((await api("GET", `/api/forms/${plain.body.id}`, { as: teacher })).body.questions[0].points).toBeNull();

    // Marked once, a later PUT that keeps the options by id without `correct` keeps the mark.
    const marked = { ...kept, points: 1, options: kept.options.map((option: { id: string }, index: number) => ({ ...option, correct: index === 0 })) };
    expect((await api("PUT", `/api/forms/${plain.body.id}`, { as: teacher, json: { questions: [marked] } })).status).toBe(200);
    const keptMark = await api("PUT", `/api/forms/${plain.body.id}`, { as: teacher, json: { questions: [{ ...kept, points: 2 }] } });
    expect(keptMark.status, keptMark.text).toBe(200);
    expect(keptMark.body.questions[0]).toMatchObject({ points: 2, options: [{ correct: true }, { correct: false }] });
    // Taking the mark away from every option is refused the same way.
    const unmarking = { ...kept, options: kept.options.map((option: { id: string }) => ({ ...option, correct: false })) };
    const refused = await api("PUT", `/api/forms/${plain.body.id}`, { as: teacher, json: { questions: [unmarking] } });
    expectProblem(refused, 400, "VALIDATION_FAILED");
    expect(errorPaths(refused)).toEqual(["questions.0.options"]);
  });
});

describe("results scored by the key", () => {
  it("given a correct single choice, every prime and two oceans with a desert, should score 2 + 2 + 1 of 7, whatever the options score", async () => {
    const form = await createKeyed();
    const [q1, q2, q3, q4] = form.questions;
    const result = await scored(form, [
      { questionId: q1!.id, optionIds: pick(form, 0, "Paris") },
      { questionId: q2!.id, optionIds: pick(form, 1, "2", "3") },
      { questionId: q3!.id, optionIds: pick(form, 2, "Atlantic", "Pacific", "Sahara") },
      { questionId: q4!.id, text: "No." },
    ]);
    expect(result).toMatchObject({ totalScore: 5, maxScore: 7, percentage: 71.43 });
    expect(result.answers.map((answer) => [answer.score, answer.maxScore])).toEqual([
      [2, 2],
      [2, 2],
      [1, 3],
      [0, 0],
    ]);
  });

  it("given a wrong single choice worth 5 by its option, a prime and a non-prime, and more wrong oceans than right, should score 0 each, never below 0", async () => {
    const form = await createKeyed();
    const [q1, q2, q3] = form.questions;
    const result = await scored(form, [
      { questionId: q1!.id, optionIds: pick(form, 0, "Lyon") },
      { questionId: q2!.id, optionIds: pick(form, 1, "2", "4") },
      { questionId: q3!.id, optionIds: pick(form, 2, "Atlantic", "Sahara", "Alps") },
    ]);
    expect(result).toMatchObject({ totalScore: 0, maxScore: 7, percentage: 0 });
    expect(result.answers.slice(0, 3).map((answer) => answer.score)).toEqual([0, 0, 0]);
  });

  it("given all the primes but not all the oceans, should give all-or-nothing its points and partial its share", async () => {
    const form = await createKeyed();
    const [q1, q2, q3] = form.questions;
    const result = await scored(form, [
      { questionId: q1!.id, optionIds: pick(form, 0, "Paris") },
      { questionId: q2!.id, optionIds: pick(form, 1, "2", "3", "4") },
      { questionId: q3!.id, optionIds: pick(form, 2, "Atlantic") },
    ]);
    // Q2: a wrong pick loses everything; Q3: 3 × (1 − 0) / 3 = 1.
    expect(result.answers.slice(0, 3).map((answer) => answer.score)).toEqual([2, 0, 1]);
    expect(result).toMatchObject({ totalScore: 3, maxScore: 7, percentage: 42.86 });
  });
});
