import { beforeAll, describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { completeQuiz, type KeyedQuizForm, keyedQuiz, mixedForm, type QuizPicks, rekeyedQuiz } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, type CreatedUser } from "../support/fixtures.ts";

/**
 * GET /api/forms/:id/summary (docs/api-contract.md §13) over real HTTP: every number equals the one computed
 * here from the raw results (their reports), for a form with every question type, negative scores
 * and three bands, unfiltered, by group and by dates; scope rules apply.
 */
type Form = {
  id: string;
  scoreRanges: { min: number; max: number; label: string; color: string }[];
  questions: { id: string; text: string; type: string; options: { id: string; text: string }[] }[];
};
type Report = { totalScore: number; answers: { questionId: string; optionTexts: string[]; text: string | null; score: number }[] };

let teacher: CreatedUser;
let form: Form;
let groupId: string;
const reportsOf: Record<"all" | "group", Report[]> = { all: [], group: [] };
const open = { pending: 0, expired: 0, revoked: 0 };

const as = (method: string, url: string, json?: unknown) => api(method, url, { cookie: teacher.cookie, ...(json === undefined ? {} : { json }) });

/** [Q1 option, Q2 options, Q3 option, Q4 text] by index into each question's options. */
type Answers = [number, number[], number, string | null];

async function completed(answers: Answers, inGroup: boolean) {
  const student = (await as("POST", "/api/students", { name: unique("Pupil") })).body;
  if (inGroup) expect((await as("POST", `/api/groups/${groupId}/members`, { studentIds: [student.id] })).status).toBe(200);
  const link = (await as("POST", "/api/submissions", { formId: form.id, studentId: student.id })).body;
  const [q1, q2, q3, q4] = form.questions;
  const body = {
    answers: [
      { questionId: q1!.id, optionIds: [q1!.options[answers[0]]!.id] },
      { questionId: q2!.id, optionIds: answers[1].map((i) => q2!.options[i]!.id) },
      { questionId: q3!.id, optionIds: [q3!.options[answers[2]]!.id] },
      ...(answers[3] === null ? [] : [{ questionId: q4!.id, text: answers[3] }]),
    ],
  };
  expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: body })).status).toBe(200);
  const report = (await as("GET", `/api/reports/${link.id}`)).body as Report;
  reportsOf.all.push(report);
  if (inGroup) reportsOf.group.push(report);
}

async function waiting(kind: keyof typeof open) {
  const student = (await as("POST", "/api/students", { name: unique("Waiting") })).body;
  const link = (await as("POST", "/api/submissions", { formId: form.id, studentId: student.id })).body;
  if (kind === "revoked") expect((await as("POST", `/api/submissions/${link.id}/revoke`)).status).toBe(200);
  // An expiry already past: moved in the database, as no client may set one.
  if (kind === "expired") await testDatabase().submission.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  open[kind]++;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The summary computed from the reports, as the contract defines it. */
function expected(reports: Report[], states: typeof open) {
  const totals = reports.map((report) => report.totalScore).sort((a, b) => a - b);
  const middle = totals.length % 2 === 0 ? [totals[totals.length / 2 - 1]!, totals[totals.length / 2]!] : [totals[(totals.length - 1) / 2]!];
  const answersTo = (questionId: string) =>
    reports.flatMap((report) => report.answers.filter((a) => a.questionId === questionId && (a.optionTexts.length > 0 || a.text !== null)));
  return {
    assigned: reports.length + states.pending + states.expired + states.revoked,
    completed: reports.length,
    ...states,
    score:
      totals.length === 0
        ? { mean: null, median: null, min: null, max: null }
        : {
            mean: round2(totals.reduce((a, b) => a + b, 0) / totals.length),
            median: round2(middle.reduce((a, b) => a + b, 0) / middle.length),
            min: totals[0],
            max: totals.at(-1),
          },
    bands: form.scoreRanges.map((band) => ({ ...band, count: totals.filter((t) => band.min <= t && t <= band.max).length })),
    // The form has no subscales (docs/api-contract.md §15; tests/api/scales.test.ts has some).
    subscales: [],
    questions: form.questions.map((question) => {
      const answers = answersTo(question.id);
      return {
        id: question.id,
        text: question.text,
        type: question.type,
        answered: answers.length,
        meanScore: question.type === "TEXT" || answers.length === 0 ? null : round2(answers.reduce((a, b) => a + b.score, 0) / answers.length),
        // No question has an answer key (the keyed quiz below has).
        correctRate: null,
        options: question.options.map((option) => ({
          id: option.id,
          text: option.text,
          count: answers.filter((a) => a.optionTexts.includes(option.text)).length,
        })),
      };
    }),
    missed: [],
    versions: [{ version: 1, results: reports.length }],
  };
}

beforeAll(async () => {
  teacher = await createSignedInUser("TEACHER");
  form = (await as("POST", "/api/forms", mixedForm(unique("Summary check")))).body;
  groupId = (await as("POST", "/api/groups", { name: unique("Group 5A") })).body.id;
  await completed([0, [0, 1], 3, "fine"], true); // 3 + 1 + 3 = 7, High
  await completed([1, [1], 0, null], true); // -2 - 1 + 0 = -3, Low
  await completed([1, [], 2, "   ok"], true); // -2 + 0 + 2 = 0, Low
  await completed([0, [0, 2], 1, null], false); // 3 + 3.5 + 1 = 7.5, High
  await completed([0, [2], 2, "so-so"], false); // 3 + 1.5 + 2 = 6.5, High
  await waiting("pending");
  await waiting("pending");
  await waiting("revoked");
  await waiting("expired");
  // An administrator's own link on the same form: not the teacher's to see.
  const other = (await api("POST", "/api/students", { as: "admin@demo.test", json: { name: unique("Admin's") } })).body;
  expect((await api("POST", "/api/submissions", { as: "admin@demo.test", json: { formId: form.id, studentId: other.id } })).status).toBe(201);
});

describe("GET /api/forms/:id/summary", () => {
  it("given the whole form, a group and dates, should equal the numbers computed from the raw results", async () => {
    const all = await as("GET", `/api/forms/${form.id}/summary`);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toEqual(expected(reportsOf.all, open));
    expect(all.body.bands.map((band: { count: number }) => band.count)).toEqual([2, 0, 3]);

    const group = await as("GET", `/api/forms/${form.id}/summary?groupId=${groupId}`);
    expect(group.body).toEqual(expected(reportsOf.group, { pending: 0, expired: 0, revoked: 0 }));

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await as("GET", `/api/forms/${form.id}/summary?from=2020-01-01&to=${tomorrow}`)).body).toEqual(expected(reportsOf.all, open));
    expect((await as("GET", `/api/forms/${form.id}/summary?from=${tomorrow}`)).body).toEqual(expected([], { pending: 0, expired: 0, revoked: 0 }));
    expect((await as("GET", `/api/forms/${form.id}/summary?to=2020-01-01&groupId=${groupId}`)).body.assigned).toBe(0);
    expect((await as("GET", `/api/forms/${form.id}/summary?from=${today}&groupId=${groupId}`)).body.completed).toBe(3);
  });

  it("given an administrator, should count every link of the organization; another teacher or organization, 404; bad dates, 400", async () => {
    const admin = await api("GET", `/api/forms/${form.id}/summary`, { as: "admin@demo.test" });
    expect(admin.status).toBe(200);
    expect(admin.body.assigned).toBe(expected(reportsOf.all, open).assigned + 1);
    expect((await api("GET", `/api/forms/${form.id}/summary`, { as: "teacher2@demo.test" })).status).toBe(404);
    expect((await api("GET", `/api/forms/${form.id}/summary`, { as: "admin@other.test" })).status).toBe(404);
    const backwards = await as("GET", `/api/forms/${form.id}/summary?from=2026-12-01&to=2026-01-01`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].path).toBe("from");
  });
});

describe("GET /api/forms/:id/summary of a form graded by its answer key", () => {
  type Quiz = Awaited<ReturnType<typeof createKeyed>>;
  let quiz: Quiz;
  const resultsOf: Record<1 | 2, Report[]> = { 1: [], 2: [] };

  const createKeyed = async () => (await as("POST", "/api/forms", keyedQuiz(unique("Summary quiz")))).body as KeyedQuizForm;

  async function complete(picks: QuizPicks, version: 1 | 2) {
    const id = await completeQuiz({ cookie: teacher.cookie }, quiz, picks);
    resultsOf[version].push((await as("GET", `/api/reports/${id}`)).body as Report);
  }

  /** Each keyed question's share of its points the reports earned, unanswered counting 0, as the contract defines it. */
  const correctRates = (reports: Report[]) =>
    quiz.questions.map((question) => {
      const earned = reports.reduce((sum, report) => sum + (report.answers.find((answer) => answer.questionId === question.id)?.score ?? 0), 0);
      return reports.length === 0 ? null : Math.round((earned / (question.points! * reports.length)) * 10_000) / 10_000;
    });

  beforeAll(async () => {
    quiz = await createKeyed();
    await complete([0, [0, 1], 0], 1); // 2 + 3 + 1 = 6
    await complete([1, [0], 0], 1); // 0 + 0 + 1 = 1
    await complete([0, [], 1], 1); // 2 + 0 + 0 = 2
    await complete([null, [0, 1, 2], null], 1); // 0
    // The prime numbers earn partial credit from version 2.
    const changed = await as(
      "PUT",
      `/api/forms/${quiz.id}`,
      rekeyedQuiz(quiz, (_, index) => (index === 1 ? { scoringRule: "PARTIAL" } : {})),
    );
    expect(changed.body.version).toBe(2);
    await complete([0, [0], 0], 2); // 2 + 1.5 + 1 = 4.5
    await complete([2, [0, 2], 0], 2); // 0 + 0 + 1 = 1
  });

  it("given every result, should give each keyed question's correct rate and list them most missed first, from the tallies as counted", async () => {
    const all = await as("GET", `/api/forms/${quiz.id}/summary`);
    expect(all.status, all.text).toBe(200);
    const rates = correctRates([...resultsOf[1], ...resultsOf[2]]);
    expect(rates).toEqual([0.5, 0.25, 0.6667]);
    expect(all.body.questions.map((question: { correctRate: number | null }) => question.correctRate)).toEqual(rates);
    const [q1, q2, q3] = quiz.questions.map((question) => question.id);
    expect(all.body.missed).toEqual([
      { questionId: q2, correctRate: 0.25 },
      { questionId: q1, correctRate: 0.5 },
      { questionId: q3, correctRate: 0.6667 },
    ]);
    expect(all.body.versions).toEqual([
      { version: 1, results: 4 },
      { version: 2, results: 2 },
    ]);
    // The same numbers counted from the rows (a date range reads no tally).
    expect((await as("GET", `/api/forms/${quiz.id}/summary?from=2000-01-01`)).body).toEqual(all.body);
  });

  it("given a version, should count only the results scored against it, and list every version's count all the same", async () => {
    for (const version of [1, 2] as const) {
      const summary = (await as("GET", `/api/forms/${quiz.id}/summary?version=${version}`)).body;
      expect(summary.completed).toBe(resultsOf[version].length);
      expect(summary.score.mean).toBe(round2(resultsOf[version].reduce((sum, report) => sum + report.totalScore, 0) / resultsOf[version].length));
      expect(summary.questions.map((question: { correctRate: number | null }) => question.correctRate)).toEqual(correctRates(resultsOf[version]));
      expect(summary.missed.map((entry: { correctRate: number }) => entry.correctRate)).toEqual([...correctRates(resultsOf[version])].sort((a, b) => a! - b!));
      expect(summary.versions).toEqual([
        { version: 1, results: 4 },
        { version: 2, results: 2 },
      ]);
    }
    const none = (await as("GET", `/api/forms/${quiz.id}/summary?version=3`)).body;
    expect(none).toMatchObject({ completed: 0, missed: [] });
    expect(none.questions.map((question: { correctRate: number | null }) => question.correctRate)).toEqual([null, null, null]);
    const bad = await as("GET", `/api/forms/${quiz.id}/summary?version=first`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("version");
  });
});
