import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent, installPhq9 } from "../support/assessment.ts";

/**
 * Shuffled questions and options (docs/api-contract.md §22, ADR 91) over real HTTP: each link has
 * its own order, the same at every opening and after a saved draft; results and exports keep the
 * form's order.
 */
const teacher = "teacher@demo.test" as const;

/** Nine single-choice questions of four options and a 1-to-5 scale, scored by option. */
function tenQuestions(title: string, shuffle: { shuffleQuestions?: boolean; shuffleOptions?: boolean }) {
  return {
    title,
    isPublished: true,
    ...shuffle,
    questions: [
      ...Array.from({ length: 9 }, (_, q) => ({
        text: `Question ${q + 1}`,
        type: "SINGLE_CHOICE",
        options: ["A", "B", "C", "D"].map((letter, o) => ({ text: `${q + 1}${letter}`, score: o })),
      })),
      { text: "Question 10", type: "SCALE", scale: { min: 1, max: 5 } },
    ],
  };
}

type Test = { form: { questions: { id: string; text: string; type: string; options: { id: string; text: string }[] }[] } };

const open = async (token: string) => {
  const response = await api<Test>("GET", `/api/test-link/${token}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
};
const questionOrder = (test: Test) => test.form.questions.map((question) => question.id);
const optionOrder = (test: Test) => test.form.questions.map((question) => question.options.map((option) => option.id));

async function links(formId: string, count: number) {
  const student = await createStudent(teacher, unique("Shuffled"));
  const made = [];
  for (let i = 0; i < count; i++) made.push(await assign(teacher, { formId, studentId: student.id }));
  return made;
}

describe("shuffled questions and options", () => {
  it("given a shuffled form, should show a link the same order after a reload, after a saved draft and on its page", async () => {
    const form = await createForm(teacher, tenQuestions(unique("Shuffled"), { shuffleQuestions: true, shuffleOptions: true }));
    const [link] = await links(form.id, 1);
    const first = await open(link!.token);
    expect(new Set(questionOrder(first))).toEqual(new Set(form.questions.map((question) => question.id)));
    expect(await open(link!.token)).toEqual(first);

    const answers = first.form.questions.slice(0, 3).map((question) => ({ questionId: question.id, optionIds: [question.options[0]!.id] }));
    expect((await api("PUT", `/api/test-link/${link!.token}/draft`, { json: { answers } })).status).toBe(200);
    const resumed = await api("GET", `/api/test-link/${link!.token}`);
    expect(resumed.body.draft.answers).toEqual(answers);
    expect(questionOrder(resumed.body)).toEqual(questionOrder(first));
    expect(optionOrder(resumed.body)).toEqual(optionOrder(first));

    // The respondent's page shows the questions in the link's order.
    const html = await (await fetch(`${baseUrl()}/en/test/${link!.token}`)).text();
    const onPage = first.form.questions.map((question) => html.indexOf(`>${question.text}<`));
    expect(onPage.every((at) => at > 0)).toBe(true);
    expect(onPage).toEqual([...onPage].sort((a, b) => a - b));
  });

  it("given 20 links of a 10-question form, should give them orders of their own, a scale's points always in order", async () => {
    const form = await createForm(teacher, tenQuestions(unique("Twenty"), { shuffleQuestions: true, shuffleOptions: true }));
    const tests = await Promise.all((await links(form.id, 20)).map((link) => open(link.token)));
    const formOrder = form.questions.map((question) => question.id).join();
    const orders = tests.map((test) => questionOrder(test).join());
    expect(new Set(orders).size).toBeGreaterThan(10);
    expect(orders.filter((order) => order !== formOrder).length).toBeGreaterThan(15);
    const firstOptions = form.questions[0]!.options.map((option) => option.id).join();
    const optionOrders = tests.map((test) =>
      test.form.questions
        .find((question) => question.id === form.questions[0]!.id)!
        .options.map((o) => o.id)
        .join(),
    );
    expect(new Set(optionOrders).size).toBeGreaterThan(1);
    expect(optionOrders.some((order) => order !== firstOptions)).toBe(true);
    const scale = form.questions[9]!;
    for (const test of tests) {
      expect(test.form.questions.find((question) => question.id === scale.id)!.options.map((option) => option.text)).toEqual(["1", "2", "3", "4", "5"]);
    }
  });

  it("given answers sent in a link's order, should keep the result and the export in the form's order", async () => {
    const form = await createForm(teacher, tenQuestions(unique("Result order"), { shuffleQuestions: true, shuffleOptions: true }));
    const [link] = await links(form.id, 1);
    const test = await open(link!.token);
    expect(questionOrder(test)).not.toEqual(form.questions.map((question) => question.id));
    // Each question answered with the option shown first: its score says which one it was.
    const answers = test.form.questions.map((question) => ({ questionId: question.id, optionIds: [question.options[0]!.id] }));
    expect((await api("POST", `/api/test-link/${link!.token}/submit`, { json: { answers } })).status).toBe(200);

    const report = await api("GET", `/api/reports/${link!.id}`, { as: teacher });
    expect(report.status).toBe(200);
    expect(report.body.answers.map((answer: { questionId: string }) => answer.questionId)).toEqual(form.questions.map((question) => question.id));
    const chosen = new Map(answers.map((answer) => [answer.questionId, answer.optionIds[0]]));
    const expectedTexts = form.questions.map((question) => question.options.find((option) => option.id === chosen.get(question.id))!.text);
    expect(report.body.answers.map((answer: { optionTexts: string[] }) => answer.optionTexts[0])).toEqual(expectedTexts);

    const exported = await fetch(`${baseUrl()}/api/reports/export?format=csv&formId=${form.id}`, { headers: { cookie: sessionOf(teacher) } });
    expect(exported.status).toBe(200);
    const [header, row] = parse(await exported.text(), { bom: true }) as string[][];
    // Each question's answer column, then its score's.
    const first = header!.indexOf("1. Question 1");
    const answerColumns = form.questions.map((_, i) => first + 2 * i);
    expect(answerColumns.map((column) => header![column])).toEqual(form.questions.map((question, i) => `${i + 1}. ${question.text}`));
    expect(answerColumns.map((column) => row![column])).toEqual(expectedTexts);
  });

  it("given a form that does not shuffle, should show every link the form's order; the flags are read back and changed by PUT", async () => {
    const form = await createForm(teacher, tenQuestions(unique("Plain"), {}));
    const read = await api("GET", `/api/forms/${form.id}`, { as: teacher });
    expect(read.body).toMatchObject({ shuffleQuestions: false, shuffleOptions: false });
    for (const link of await links(form.id, 3)) {
      const test = await open(link.token);
      expect(questionOrder(test)).toEqual(form.questions.map((question) => question.id));
      expect(optionOrder(test)).toEqual(form.questions.map((question) => question.options.map((option) => option.id)));
    }
    const changed = await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { shuffleOptions: true } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ shuffleQuestions: false, shuffleOptions: true });
  });

  it("given an installed instrument, should refuse shuffling it (409 INSTRUMENT_LOCKED) and keep its order", async () => {
    const phq9 = await installPhq9(teacher);
    const refused = await api("PUT", `/api/forms/${phq9.id}`, { as: teacher, json: { shuffleQuestions: true } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("INSTRUMENT_LOCKED");
    expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual(["shuffleQuestions"]);
    expect((await api("GET", `/api/forms/${phq9.id}`, { as: teacher })).body.shuffleQuestions).toBe(false);
  });
});
