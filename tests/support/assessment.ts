import { expect } from "vitest";
import { api, unique, type DemoUser } from "./api.ts";
import { testDatabase } from "./database.ts";
import { keyedQuizBody, mixedFormBody } from "./form-bodies.ts";

/** The mixed form of tests/support/form-bodies.ts, with a title of its own. */
export const mixedForm = (title = unique("Mixed test")) => mixedFormBody(title);

export type CreatedForm = {
  id: string;
  title: string;
  questions: { id: string; text: string; type: string; required: boolean; options: { id: string; text: string; score: number }[] }[];
};

export async function createForm(as: DemoUser, body: unknown = mixedForm()): Promise<CreatedForm> {
  const response = await api("POST", "/api/forms", { as, json: body });
  expect(response.status).toBe(201);
  return response.body;
}

export async function createStudent(as: DemoUser, name = unique("Student")): Promise<{ id: string; name: string }> {
  const response = await api("POST", "/api/students", { as, json: { name } });
  expect(response.status).toBe(201);
  return response.body;
}

export async function assign(
  as: DemoUser,
  body: { formId: string; studentId?: string; candidateId?: string; expiresAt?: string },
): Promise<{ id: string; token: string; url: string }> {
  const response = await api("POST", "/api/submissions", { as, json: body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** Answers for the mixed form: B, {two, minus one}, 2, text → total 1 of 9.5 (Medium). */
export function mediumAnswers(form: CreatedForm) {
  const [q1, q2, q3, q4] = form.questions;
  return {
    answers: [
      { questionId: q1!.id, optionIds: [q1!.options[1]!.id] },
      { questionId: q2!.id, optionIds: [q2!.options[0]!.id, q2!.options[1]!.id] },
      { questionId: q3!.id, optionIds: [q3!.options[2]!.id] },
      { questionId: q4!.id, text: "It was fine." },
    ],
  };
}

/** High answers for the mixed form: A, {two, one and a half}, 3 → 9.5 of 9.5 (High). */
export function highAnswers(form: CreatedForm) {
  const [q1, q2, q3] = form.questions;
  return {
    answers: [
      { questionId: q1!.id, optionIds: [q1!.options[0]!.id] },
      { questionId: q2!.id, optionIds: [q2!.options[0]!.id, q2!.options[2]!.id] },
      { questionId: q3!.id, optionIds: [q3!.options[3]!.id] },
    ],
  };
}

/** Negative answers for the mixed form: B, {minus one}, 0 → −3 of 9.5, −31.6 % (Low). */
export function negativeAnswers(form: CreatedForm) {
  const [q1, q2, q3] = form.questions;
  return {
    answers: [
      { questionId: q1!.id, optionIds: [q1!.options[1]!.id] },
      { questionId: q2!.id, optionIds: [q2!.options[1]!.id] },
      { questionId: q3!.id, optionIds: [q3!.options[0]!.id] },
    ],
  };
}

export async function completeMedium(as: DemoUser, respondentName?: string, formBody?: unknown) {
  const form = await createForm(as, formBody ?? mixedForm());
  const student = await createStudent(as, respondentName);
  const assignment = await assign(as, { formId: form.id, studentId: student.id });
  const submit = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) });
  expect(submit.status, JSON.stringify(submit.body)).toBe(200);
  return { form, student, assignment, submit: submit.body };
}

/** A form with subscales as the API answers it (the DASS-21 installed from the Library, say). */
export type SubscaleForm = {
  id: string;
  title: string;
  questions: { id: string; key: string; options: { id: string; score: number }[] }[];
  subscales: { key: string; name: string; items: string[] }[];
};

/** An instrument installed from the Library by `as` under a title of its own, and published. */
async function installPublished(as: DemoUser, key: string, name: string): Promise<SubscaleForm> {
  const installed = await api("POST", `/api/instruments/${key}/install`, { as, json: { title: unique(name) } });
  expect(installed.status, installed.text).toBe(201);
  const published = await api("PUT", `/api/forms/${installed.body.id}`, { as, json: { isPublished: true } });
  expect(published.status, published.text).toBe(200);
  return installed.body;
}

/** The DASS-21 installed from the Library by `as` under a title of its own, and published. */
export const installDass21 = (as: DemoUser) => installPublished(as, "dass-21", "DASS-21");

/** Answers that give every item of a subscale the option scored `itemScore[subscale key]`. */
export function answersBySubscale(form: SubscaleForm, itemScore: Record<string, number>) {
  const subscaleOf = new Map(form.subscales.flatMap((subscale) => subscale.items.map((key) => [key, subscale.key] as const)));
  return {
    answers: form.questions.map((question) => ({
      questionId: question.id,
      optionIds: [question.options.find((option) => option.score === itemScore[subscaleOf.get(question.key)!])!.id],
    })),
  };
}

/** The PHQ-9 installed from the Library by `as` under a title of its own, and published. */
export const installPhq9 = (as: DemoUser) => installPublished(as, "phq-9", "PHQ-9");

/**
 * Answers that give a form of 0-to-3 items (the PHQ-9) the total `total`: the items scored 3 in
 * turn until it is reached, the last item "Not at all" (the PHQ-9's item 9 would flag the result).
 */
export function totalAnswers(form: Pick<SubscaleForm, "questions">, total: number) {
  let left = total;
  return {
    answers: form.questions.map((question, index) => {
      const score = index === form.questions.length - 1 ? 0 : Math.min(3, left);
      left -= score;
      return { questionId: question.id, optionIds: [question.options.find((option) => option.score === score)!.id] };
    }),
  };
}

/**
 * Results completed in turn by the student on the form, one per answers body, each completed a
 * day after the one before from `start` (moved in the database, as the tests move time): their
 * submission ids, oldest first.
 */
export async function completeSeries(as: DemoUser, formId: string, studentId: string, bodies: unknown[], start = Date.UTC(2026, 0, 5, 9)) {
  const ids: string[] = [];
  for (const [index, body] of bodies.entries()) {
    const link = await assign(as, { formId, studentId });
    const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: body });
    expect(submit.status, submit.text).toBe(200);
    await testDatabase().submission.update({ where: { id: link.id }, data: { completedAt: new Date(start + index * 86_400_000) } });
    ids.push(link.id);
  }
  return ids;
}

/** The keyed quiz of tests/support/form-bodies.ts, with a title of its own. */
export const keyedQuiz = (title = unique("Keyed quiz")) => keyedQuizBody(title);

export type KeyedQuizForm = {
  id: string;
  title: string;
  version: number;
  questions: {
    id: string;
    text: string;
    type: "SINGLE_CHOICE" | "MULTIPLE_CHOICE";
    points: number | null;
    scoringRule: "ALL_OR_NOTHING" | "PARTIAL";
    options: { id: string; text: string; score: number; correct: boolean }[];
  }[];
};

/** A keyed quiz's picks, by index into each question's options: Q1 (or none), Q2's, Q3 (or none). */
export type QuizPicks = [number | null, number[], number | null];

export function quizAnswers(form: KeyedQuizForm, [q1, q2, q3]: QuizPicks) {
  const picked = [q1 === null ? [] : [q1], q2, q3 === null ? [] : [q3]];
  return { answers: form.questions.map((question, i) => ({ questionId: question.id, optionIds: picked[i]!.map((k) => question.options[k]!.id) })) };
}

/** A PUT body keeping every question and option of the quiz by id, each question changed by `change`. */
export function rekeyedQuiz(form: KeyedQuizForm, change: (question: KeyedQuizForm["questions"][number], index: number) => Record<string, unknown>) {
  return {
    questions: form.questions.map((question, index) => ({
      id: question.id,
      text: question.text,
      type: question.type,
      points: question.points,
      scoringRule: question.scoringRule,
      options: question.options.map(({ id, text, score, correct }) => ({ id, text, score, correct })),
      ...change(question, index),
    })),
  };
}

/** A completed result of the quiz for a new respondent of the caller's: its submission's id. */
export async function completeQuiz(caller: { cookie: string }, form: KeyedQuizForm, picks: QuizPicks, name = unique("Quiz taker")): Promise<string> {
  const student = await api("POST", "/api/students", { ...caller, json: { name } });
  expect(student.status, student.text).toBe(201);
  const link = await api("POST", "/api/submissions", { ...caller, json: { formId: form.id, studentId: student.body.id } });
  expect(link.status, link.text).toBe(201);
  const submitted = await api("POST", `/api/test-link/${link.body.token}/submit`, { json: quizAnswers(form, picks) });
  expect(submitted.status, submitted.text).toBe(200);
  return link.body.id;
}
