import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, createStudent } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { expectProblem, png } from "../support/fixtures.ts";
import { keyedFormBody } from "../support/form-bodies.ts";

/**
 * The respondent's review (docs/api-contract.md §22) over real HTTP: GET /api/test-link/:token/review
 * opens as the form's current `review` policy says, and shows the answers against the key and the
 * feedback the result was scored with, in the form's order.
 */
const teacher = "teacher@demo.test" as const;
type Review = "NEVER" | "AFTER_SUBMIT" | "AFTER_CLOSE";
type Option = { id: string; text: string; correct: boolean; feedback: string | null };
type Question = { id: string; text: string; type: string; points: number | null; feedback: string | null; options: Option[] };
type Form = { id: string; questions: Question[] };

async function keyedForm(review: Review, extra: Record<string, unknown> = {}): Promise<Form> {
  const response = await api<Form>("POST", "/api/forms", { as: teacher, json: { ...keyedFormBody(unique("Reviewed"), review), ...extra } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function link(form: Form) {
  const student = await createStudent(teacher, unique("Reviewing"));
  return { ...(await assign(teacher, { formId: form.id, studentId: student.id })), studentId: student.id };
}

const optionIds = (question: Question, ...texts: string[]) => texts.map((text) => question.options.find((option) => option.text === text)!.id);

/** Lyon (wrong), both primes (right), two oceans and a desert (partly), and a text. */
function answersTo(form: Form) {
  const [q1, q2, q3, q4] = form.questions;
  return [
    { questionId: q1!.id, optionIds: optionIds(q1!, "Lyon") },
    { questionId: q2!.id, optionIds: optionIds(q2!, "3", "2") },
    { questionId: q3!.id, optionIds: optionIds(q3!, "Atlantic", "Pacific", "Sahara") },
    { questionId: q4!.id, text: "It was fun." },
  ];
}

async function submit(token: string, form: Form) {
  const response = await api("POST", `/api/test-link/${token}/submit`, { json: { answers: answersTo(form) } });
  expect(response.status, response.text).toBe(200);
}

const review = (token: string) => api("GET", `/api/test-link/${token}/review`);

async function expectNotAvailable(token: string) {
  const response = await review(token);
  expectProblem(response, 409, "REVIEW_NOT_AVAILABLE");
}

describe("GET /api/test-link/:token/review", () => {
  it("given a form that never shows the review, should answer 409 before and after the submit, until the form allows it", async () => {
    const form = await keyedForm("NEVER");
    const { token } = await link(form);
    await expectNotAvailable(token);
    await submit(token, form);
    await expectNotAvailable(token);
    // The form's current policy is read with the link.
    expect((await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { review: "AFTER_SUBMIT" } })).status).toBe(200);
    expect((await review(token)).status).toBe(200);
  });

  it("given AFTER_SUBMIT, should answer 409 before the submit and after it the answers, key, points and feedback, in the form's order", async () => {
    // Shuffled on the link: the review keeps the form's order all the same.
    const form = await keyedForm("AFTER_SUBMIT", { shuffleQuestions: true, shuffleOptions: true });
    // An image on the first question, as the link's test shows it.
    const upload = new FormData();
    upload.set("file", new File([png(3, 2)], "map.png", { type: "image/png" }));
    const image = await api("POST", `/api/forms/${form.id}/images`, { as: teacher, body: upload });
    expect(image.status, image.text).toBe(201);
    const kept = form.questions.map((question) => ({
      id: question.id,
      text: question.text,
      type: question.type,
      options: question.options.map(({ id, text }) => ({ id, text, score: text === "Lyon" ? 5 : text === "4" ? 1 : 0 })),
    }));
    const withImage = await api("PUT", `/api/forms/${form.id}`, {
      as: teacher,
      json: { questions: [{ ...kept[0], imageId: image.body.id, imageAlt: "A map of France" }, ...kept.slice(1)] },
    });
    expect(withImage.status, withImage.text).toBe(200);
    const { token } = await link(form);
    await expectNotAvailable(token);
    await submit(token, form);

    const response = await review(token);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const [q1, q2, q3, q4] = form.questions;
    const option = (question: Question, text: string, image = null) => {
      const { id, correct, feedback } = question.options.find((o) => o.text === text)!;
      return { id, text, correct, feedback, image };
    };
    const imageUrl = `/api/test-link/${token}/images/${image.body.id}`;
    expect(response.body).toEqual({
      form: {
        title: expect.stringMatching(/^Reviewed-/),
        questions: [
          {
            id: q1!.id,
            text: "Which city is the capital of France?",
            type: "SINGLE_CHOICE",
            image: { url: imageUrl, alt: "A map of France" },
            points: 2,
            feedback: "Paris has been the capital since the 10th century.",
            options: [option(q1!, "Paris"), option(q1!, "Lyon")],
          },
          {
            id: q2!.id,
            text: "Which numbers are prime?",
            type: "MULTIPLE_CHOICE",
            image: null,
            points: 2,
            feedback: "A prime has exactly two divisors.",
            options: [option(q2!, "2"), option(q2!, "3"), option(q2!, "4")],
          },
          {
            id: q3!.id,
            text: "Which are oceans?",
            type: "MULTIPLE_CHOICE",
            image: null,
            points: 3,
            feedback: null,
            options: ["Atlantic", "Pacific", "Indian", "Sahara", "Alps"].map((text) => option(q3!, text)),
          },
          { id: q4!.id, text: "Anything to add?", type: "TEXT", image: null, points: null, feedback: null, options: [] },
        ],
      },
      answers: [
        {
          questionId: q1!.id,
          optionIds: optionIds(q1!, "Lyon"),
          text: null,
          correct: false,
          points: 0,
          feedback: ["Lyon is a large city, not the capital.", "Paris has been the capital since the 10th century."],
        },
        { questionId: q2!.id, optionIds: optionIds(q2!, "2", "3"), text: null, correct: true, points: 2, feedback: ["A prime has exactly two divisors."] },
        {
          questionId: q3!.id,
          optionIds: optionIds(q3!, "Atlantic", "Pacific", "Sahara"),
          text: null,
          correct: false,
          points: 1,
          feedback: ["The Sahara is a desert."],
        },
        { questionId: q4!.id, optionIds: [], text: "It was fun.", correct: null, points: null, feedback: [] },
      ],
      score: { totalScore: 3, maxScore: 7, percentage: 42.86 },
    });
    expect(response.body.form.questions[0].options[0]).toEqual({ id: q1!.options[0]!.id, text: "Paris", correct: true, feedback: "Yes: Paris.", image: null });
    // The image is served on the link.
    expect((await api("GET", imageUrl)).status).toBe(200);
  });

  it("given AFTER_CLOSE, should answer 409 after the submit until the link expires or the form is unpublished", async () => {
    const form = await keyedForm("AFTER_CLOSE");
    const [expiring, closing] = [await link(form), await link(form)];
    await expectNotAvailable(expiring.token);
    for (const { token } of [expiring, closing]) await submit(token, form);
    await expectNotAvailable(expiring.token);
    await expectNotAvailable(closing.token);

    // Expired a minute ago: set in the database, as no request may give a past expiry.
    await testDatabase().submission.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    expect((await review(expiring.token)).body.score).toEqual({ totalScore: 3, maxScore: 7, percentage: 42.86 });
    await expectNotAvailable(closing.token);

    expect((await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { isPublished: false } })).status).toBe(200);
    expect((await review(closing.token)).status).toBe(200);
    // Published again, the test is open again: so is its review closed again.
    expect((await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { isPublished: true } })).status).toBe(200);
    await expectNotAvailable(closing.token);
    expect((await review(expiring.token)).status).toBe(200);
  });

  it("given an unknown, a malformed or a deleted link, should answer 404", async () => {
    expectProblem(await review("x".repeat(43)), 404, "NOT_FOUND");
    expectProblem(await review("not a token"), 404, "NOT_FOUND");
    const form = await keyedForm("AFTER_SUBMIT");
    const { token, studentId } = await link(form);
    await submit(token, form);
    expect((await review(token)).status).toBe(200);
    // The respondent deleted: the link stops working, as its other operations do.
    expect((await api("DELETE", `/api/students/${studentId}`, { as: "admin@demo.test" })).status).toBe(200);
    expectProblem(await review(token), 404, "NOT_FOUND");
  });

  it("given a key changed after the submit, should review the answers against the key and feedback they were scored with", async () => {
    const form = await keyedForm("AFTER_SUBMIT");
    const { token } = await link(form);
    await submit(token, form);
    const before = await review(token);
    expect(before.status).toBe(200);

    // Lyon becomes the key, with other feedback: a new version of the form.
    const [q1, ...rest] = form.questions;
    const rekeyed = {
      id: q1!.id,
      text: q1!.text,
      type: q1!.type,
      feedback: "Changed.",
      options: q1!.options.map(({ id, text }) => ({ id, text, score: 0, correct: text === "Lyon", feedback: `${text}: changed.` })),
    };
    const kept = rest.map((question) => ({
      id: question.id,
      text: question.text,
      type: question.type,
      options: question.options.map(({ id, text }) => ({ id, text, score: text === "4" ? 1 : 0 })),
    }));
    const changed = await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { questions: [rekeyed, ...kept] } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.version).toBe(2);

    const after = await review(token);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(after.body.answers[0]).toMatchObject({ correct: false, points: 0 });
    expect(after.body.form.questions[0].options.map((option: Option) => [option.text, option.correct])).toEqual([
      ["Paris", true],
      ["Lyon", false],
    ]);
    // A link answered after the change is reviewed against the new key.
    const { token: later } = await link(form);
    await submit(later, form);
    expect((await review(later)).body.answers[0]).toMatchObject({ correct: true, points: 2, feedback: ["Lyon: changed.", "Changed."] });
  });
});
