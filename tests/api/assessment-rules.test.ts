import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, completeMedium, createForm, createStudent, mediumAnswers } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

describe("POST /api/submissions", () => {
  it.each([
    [{}, "formId"],
    [{ formId: "x" }, "studentId"],
    [{ formId: "x", studentId: "a", candidateId: "b" }, "studentId"],
    [{ formId: "x", studentId: "a", expiresAt: "2020-01-01T00:00:00.000Z" }, "expiresAt"],
    [{ formId: "x", studentId: "a", expiresAt: "tomorrow" }, "expiresAt"],
    [{ formId: "x", studentId: "a", token: "mine" }, "token"],
  ])("given an invalid body (%#), should answer 400 naming %s", async (json, path) => {
    const response = await api("POST", "/api/submissions", { as: "teacher@demo.test", json });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("given an unpublished form, should answer 409; another organization's person or form, 404", async () => {
    const draft = await createForm("teacher@demo.test", { title: unique("Draft"), isPublished: false });
    const student = await createStudent("teacher@demo.test");
    const unpublished = await api("POST", "/api/submissions", { as: "teacher@demo.test", json: { formId: draft.id, studentId: student.id } });
    expect(unpublished.status).toBe(409);
    expect(unpublished.body.code).toBe("FORM_NOT_PUBLISHED");

    const form = await createForm("teacher@demo.test");
    const foreignStudent = await createStudent("teacher@other.test");
    const foreignForm = await createForm("teacher@other.test");
    expect((await api("POST", "/api/submissions", { as: "teacher@demo.test", json: { formId: form.id, studentId: foreignStudent.id } })).status).toBe(404);
    expect((await api("POST", "/api/submissions", { as: "teacher@demo.test", json: { formId: foreignForm.id, studentId: student.id } })).status).toBe(404);
    // A colleague's (non-template) form is not visible to another teacher.
    expect((await api("POST", "/api/submissions", { as: "teacher2@demo.test", json: { formId: form.id, studentId: student.id } })).status).toBe(404);
    expect((await api("POST", "/api/submissions", { as: "student@demo.test", json: { formId: form.id, studentId: student.id } })).status).toBe(403);
  });
});

describe("GET /api/submissions", () => {
  it("given filters, should list the teacher's own assignments only; the admin sees all", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const pending = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const { assignment: completed } = await completeMedium("teacher2@demo.test");

    const mine = await api("GET", `/api/submissions?formId=${form.id}`, { as: "teacher@demo.test" });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    const item = mine.body.submissions[0];
    expect(Object.keys(item).sort()).toEqual(
      [
        "assignedBy",
        "candidate",
        "completedAt",
        "createdAt",
        "expiresAt",
        "form",
        "id",
        "isCompleted",
        "maxScore",
        "percentage",
        "scoreColor",
        "scoreLabel",
        "student",
        "totalScore",
        // The life of the link (docs/api-contract.md §10).
        "status",
        "openedAt",
        "startedAt",
        "sentAt",
        "sendCount",
        "remindedAt",
        "revokedAt",
        // Why its e-mail could not be delivered, if it could not (ADR 46).
        "mailFailedAt",
        "mailError",
        // What an incremental read needs (docs/api-contract.md §23, ADR 52).
        "updatedAt",
        "deletedAt",
      ].sort(),
    );
    expect(item).toMatchObject({ id: pending.id, isCompleted: false, totalScore: null, student: { id: student.id, name: student.name } });

    const byStudent = await api("GET", `/api/submissions?studentId=${student.id}&isCompleted=false`, { as: "teacher@demo.test" });
    expect(byStudent.body.submissions.map((s: { id: string }) => s.id)).toEqual([pending.id]);
    const teacherOneIds = (await api("GET", "/api/submissions?limit=100&isCompleted=true", { as: "teacher@demo.test" })).body.submissions.map(
      (s: { id: string }) => s.id,
    );
    expect(teacherOneIds).not.toContain(completed.id);
    expect((await api("GET", `/api/submissions/${completed.id}`, { as: "teacher@demo.test" })).status).toBe(404);
    expect((await api("GET", `/api/submissions/${completed.id}`, { as: "admin@demo.test" })).status).toBe(200);
    expect((await api("GET", `/api/submissions/${completed.id}`, { as: "admin@other.test" })).status).toBe(404);

    const pendingDetail = await api("GET", `/api/submissions/${pending.id}`, { as: "teacher@demo.test" });
    expect(pendingDetail.body).toMatchObject({ token: pending.token, url: pending.url, answers: [] });
    expect((await api("GET", "/api/submissions?isCompleted=perhaps", { as: "teacher@demo.test" })).status).toBe(400);
  });
});

describe("the public link", () => {
  it("given an unknown token, should answer 404 to reading and submitting", async () => {
    expect((await api("GET", "/api/test-link/unknown-token-that-does-not-exist")).status).toBe(404);
    expect((await api("POST", "/api/test-link/unknown-token-that-does-not-exist/submit", { json: { answers: [] } })).status).toBe(404);
  });

  it("given an expired link, should answer 410 to reading and submitting", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", {
      formId: form.id,
      studentId: student.id,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect((await api("GET", `/api/test-link/${assignment.token}`)).status).toBe(200);
    // The API takes no expiry in the past: the day goes by in the database instead.
    await testDatabase().submission.update({ where: { id: assignment.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const read = await api("GET", `/api/test-link/${assignment.token}`);
    expect(read.status).toBe(410);
    expect(read.body.code).toBe("LINK_EXPIRED");
    expect((await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) })).status).toBe(410);
  });

  it("given invalid answers, should answer 400 listing each problem and keep the link open", async () => {
    const form = await createForm("teacher@demo.test");
    const other = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const [q1, q2, q3, q4] = form.questions;
    const response = await api("POST", `/api/test-link/${assignment.token}/submit`, {
      json: {
        answers: [
          { questionId: q1!.id, optionIds: [q1!.options[0]!.id, q1!.options[1]!.id] },
          { questionId: q2!.id, optionIds: [other.questions[1]!.options[0]!.id] },
          { questionId: q4!.id, optionIds: [q1!.options[0]!.id] },
          { questionId: other.questions[0]!.id, optionIds: [] },
        ],
      },
    });
    expect(response.status).toBe(400);
    const paths = response.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(["answers.0.optionIds", "answers.1.optionIds.0", "answers.2.optionIds", "answers.3.questionId", `questions.${q3!.id}`]),
    );
    expect((await api("GET", `/api/test-link/${assignment.token}`)).status).toBe(200);
  });

  it("given a score or another unknown field in the answers, should refuse it", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const body = mediumAnswers(form);
    const withScore = { answers: body.answers.map((a, i) => (i === 0 ? { ...a, score: 100 } : a)) };
    const response = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: withScore });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain("answers.0.score");
    const topLevel = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: { ...body, totalScore: 9.5 } });
    expect(topLevel.status).toBe(400);
  });

  it("given answers posted as a browser form, should accept them", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const params = new URLSearchParams();
    mediumAnswers(form).answers.forEach((answer, i) => {
      params.set(`answers[${i}].questionId`, answer.questionId);
      for (const [j, id] of (answer.optionIds ?? []).entries()) params.set(`answers[${i}].optionIds[${j}]`, id);
      if (answer.text) params.set(`answers[${i}].text`, answer.text);
    });
    const response = await api("POST", `/api/test-link/${assignment.token}/submit`, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: params.toString(),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).body.totalScore).toBe(1);
  });

  it("given the form or the student deleted, should stop the pending link but keep completed results", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const pending = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const completed = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    expect((await api("POST", `/api/test-link/${completed.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
    await api("DELETE", `/api/forms/${form.id}`, { as: "teacher@demo.test" });
    expect((await api("GET", `/api/test-link/${pending.token}`)).status).toBe(404);
    expect((await api("GET", `/api/reports/${completed.id}`, { as: "teacher@demo.test" })).status).toBe(200);

    const form2 = await createForm("teacher@demo.test");
    const student2 = await createStudent("teacher@demo.test");
    const pending2 = await assign("teacher@demo.test", { formId: form2.id, studentId: student2.id });
    await api("DELETE", `/api/students/${student2.id}`, { as: "admin@demo.test" });
    expect((await api("GET", `/api/test-link/${pending2.token}`)).status).toBe(404);
  });

  it("given a failure in the middle of saving, should keep nothing and leave the link working", async () => {
    const db = testDatabase();
    if (inject("databaseUrl").startsWith("file:")) {
      await db.$executeRawUnsafe(
        `CREATE TRIGGER IF NOT EXISTS fail_marked_answer BEFORE INSERT ON "Answer" WHEN NEW."text" = 'FAIL-WHILE-SAVING' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      );
    } else {
      await db.$executeRawUnsafe(
        `CREATE OR REPLACE FUNCTION fail_marked_answer() RETURNS trigger AS $$ BEGIN IF NEW."text" = 'FAIL-WHILE-SAVING' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
      );
      await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS fail_marked_answer ON "Answer"`);
      await db.$executeRawUnsafe(`CREATE TRIGGER fail_marked_answer BEFORE INSERT ON "Answer" FOR EACH ROW EXECUTE FUNCTION fail_marked_answer()`);
    }
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const failing = mediumAnswers(form);
    failing.answers[3] = { questionId: form.questions[3]!.id, text: "FAIL-WHILE-SAVING" };
    const failed = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: failing });
    expect(failed.status).toBe(500);
    expect(failed.text).not.toContain("injected failure");
    const stored = await db.submission.findUnique({ where: { id: assignment.id }, include: { answers: true } });
    expect(stored).toMatchObject({ isCompleted: false, totalScore: null, answers: [] });
    expect((await api("GET", `/api/test-link/${assignment.token}`)).status).toBe(200);
    expect((await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
  });
});
