import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

/**
 * A signed-in student's own tests (docs/api-contract.md §12) over real HTTP: GET /api/user/assignments and the
 * student's home page, which opens each test to answer. student@demo.test is Mateo García's login.
 */
async function mateo() {
  return testDatabase().student.findFirstOrThrow({ where: { user: { email: "student@demo.test" } }, select: { id: true } });
}

describe("a student's own tests", () => {
  it("given tests to answer and answered, should list them with links, and the result only where the form shows it", async () => {
    const { id: studentId } = await mateo();
    const shown = await createForm("teacher@demo.test", { ...mixedForm(unique("Shown result")), showResultToRespondent: true });
    const hidden = await createForm("teacher@demo.test", mixedForm(unique("Hidden result")));
    expect(shown).toMatchObject({ showResultToRespondent: true });
    const [a, b] = [await assign("teacher@demo.test", { formId: shown.id, studentId }), await assign("teacher@demo.test", { formId: hidden.id, studentId })];

    const before = await api("GET", "/api/user/assignments", { as: "student@demo.test" });
    expect(before.status).toBe(200);
    const listed = (id: string, body = before.body) => body.assignments.find((item: { id: string }) => item.id === id);
    expect(listed(a.id)).toMatchObject({ form: { title: shown.title }, status: "PENDING", completedAt: null, result: null });
    expect(listed(a.id).url).toMatch(new RegExp(`/test/${a.token}$`));

    for (const [form, link] of [
      [shown, a],
      [hidden, b],
    ] as const) {
      expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
    }
    const after = await api("GET", "/api/user/assignments", { as: "student@demo.test" });
    expect(listed(a.id, after.body)).toMatchObject({ status: "COMPLETED", url: null, result: { totalScore: 1, maxScore: 9.5, scoreLabel: "Medium" } });
    expect(listed(b.id, after.body)).toMatchObject({ status: "COMPLETED", url: null, result: null });
    expect(listed(b.id, after.body).completedAt).not.toBeNull();
  });

  it("given a shown result whose total too many missing answers left unscored, should give its score and percentage as null, and the home page a dash", async () => {
    const { id: studentId } = await mateo();
    // No scored item may be missing; the respondent leaves out the one that is not required.
    const form = await createForm("teacher@demo.test", { ...mixedForm(unique("Unscored")), showResultToRespondent: true, scoring: { maxMissing: 0 } });
    const link = await assign("teacher@demo.test", { formId: form.id, studentId });
    const [q1, , q3] = form.questions;
    const answers = [q1!, q3!].map((question) => ({ questionId: question.id, optionIds: [question.options[0]!.id] }));
    expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } })).status).toBe(200);
    const mine = await api("GET", "/api/user/assignments", { as: "student@demo.test" });
    const item = mine.body.assignments.find((entry: { id: string }) => entry.id === link.id);
    expect(item.result).toEqual({ totalScore: null, maxScore: 9.5, percentage: null, scoreLabel: null, scoreColor: null });
    const home = await (await fetch(`${baseUrl()}/en/home`, { headers: { cookie: sessionOf("student@demo.test") } })).text();
    expect(home).toContain("— of 9.5");
  });

  it("given another student's test, a teacher or no session, should not show it: not listed, 404, 403 and 401", async () => {
    const form = await createForm("teacher@demo.test");
    const other = await createStudent("teacher@demo.test", unique("Someone else"));
    const theirs = await assign("teacher@demo.test", { formId: form.id, studentId: other.id });
    const mine = await api("GET", "/api/user/assignments", { as: "student@demo.test" });
    expect(mine.body.assignments.map((item: { id: string }) => item.id)).not.toContain(theirs.id);
    expect((await api("GET", `/api/submissions/${theirs.id}`, { as: "student@demo.test" })).status).toBe(404);
    expect((await api("GET", "/api/user/assignments", { as: "teacher@demo.test" })).status).toBe(403);
    expect((await api("GET", "/api/user/assignments")).status).toBe(401);
  });

  it("given the student's home page, should open a test to answer and, once sent, list it as answered", async () => {
    const { id: studentId } = await mateo();
    const form = await createForm("teacher@demo.test", mixedForm(unique("From home")));
    const link = await assign("teacher@demo.test", { formId: form.id, studentId });
    const home = await (await fetch(`${baseUrl()}/en/home`, { headers: { cookie: sessionOf("student@demo.test") } })).text();
    const href = new RegExp(`href="([^"]*/en/test/${link.token})"`).exec(home)?.[1];
    expect(href, "a link to the test on the home page").toBeDefined();
    expect(home).toContain("Open the test");

    const path = new URL(href!, baseUrl()).pathname;
    const [q1, q2, q3] = form.questions;
    const answered = await postPageForm(
      path,
      { [`q_${q1!.id}`]: q1!.options[1]!.id, [`q_${q2!.id}`]: q2!.options[0]!.id, [`q_${q3!.id}`]: q3!.options[2]!.id },
      sessionOf("student@demo.test"),
    );
    expect(answered.status).toBe(302);
    const after = await (await fetch(`${baseUrl()}/en/home`, { headers: { cookie: sessionOf("student@demo.test") } })).text();
    expect(after).toContain("Answered");
    expect(after).not.toContain(`/en/test/${link.token}`);
  });
});
