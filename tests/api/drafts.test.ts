import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, createForm, createStudent, mediumAnswers } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

/** Answers saved and resumed (docs/api-contract.md §12) over real HTTP: PUT /api/test-link/:token/draft. */
async function newLink() {
  const form = await createForm("teacher@demo.test");
  const student = await createStudent("teacher@demo.test", unique("Drafting"));
  const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
  return { form, assignment };
}

describe("drafts of a test", () => {
  it("given answers saved halfway, should give them back with the progress on the next opening, and show the link IN_PROGRESS", async () => {
    const { form, assignment } = await newLink();
    const [q1, q2, , q4] = form.questions;
    const answers = [
      { questionId: q1!.id, optionIds: [q1!.options[1]!.id] },
      { questionId: q2!.id, optionIds: [] },
      { questionId: q4!.id, text: "Half way" },
    ];
    const saved = await api("PUT", `/api/test-link/${assignment.token}/draft`, { json: { answers } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.progress).toEqual({ answered: 2, total: 4 });
    const opened = await api("GET", `/api/test-link/${assignment.token}`);
    expect(opened.body.progress).toEqual({ answered: 2, total: 4 });
    expect(opened.body.draft.answers).toEqual(answers);
    const status = await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" });
    expect(status.body.status).toBe("IN_PROGRESS");
    const startedAt = status.body.startedAt;
    expect(startedAt).not.toBeNull();
    expect((await api("GET", `/api/submissions?status=IN_PROGRESS&formId=${form.id}`, { as: "teacher@demo.test" })).body.submissions).toHaveLength(1);

    // Saving again replaces the draft and leaves the submission's row as it was.
    const updatedAt = (await testDatabase().submission.findUniqueOrThrow({ where: { id: assignment.id } })).updatedAt;
    const again = await api("PUT", `/api/test-link/${assignment.token}/draft`, { json: { answers: [{ questionId: q4!.id, text: "Changed my mind" }] } });
    expect(again.body.progress).toEqual({ answered: 1, total: 4 });
    expect((await api("GET", `/api/test-link/${assignment.token}`)).body.draft.answers).toEqual([{ questionId: q4!.id, text: "Changed my mind" }]);
    const row = await testDatabase().submission.findUniqueOrThrow({ where: { id: assignment.id } });
    expect(row.updatedAt).toEqual(updatedAt);
    expect(row.startedAt?.toISOString()).toBe(startedAt);
  });

  it("given the answers submitted, should discard the draft, keep it out of the reports, and refuse a later save (409)", async () => {
    const { form, assignment } = await newLink();
    await api("PUT", `/api/test-link/${assignment.token}/draft`, {
      json: { answers: [{ questionId: form.questions[0]!.id, optionIds: [form.questions[0]!.options[0]!.id] }] },
    });
    expect((await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).status).toBe(409);
    const submitted = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) });
    expect(submitted.status).toBe(200);
    expect(await testDatabase().submissionDraft.count({ where: { submissionId: assignment.id } })).toBe(0);
    const report = await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" });
    expect(report.body.totalScore).toBe(1);
    const late = await api("PUT", `/api/test-link/${assignment.token}/draft`, { json: { answers: [] } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("ALREADY_COMPLETED");
    expect((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body.status).toBe("COMPLETED");
  });

  it("given answers that are not this test's, should answer 400 naming each and save nothing; required questions may wait", async () => {
    const { form, assignment } = await newLink();
    const other = await newLink();
    const refused = await api("PUT", `/api/test-link/${assignment.token}/draft`, {
      json: {
        answers: [
          { questionId: form.questions[0]!.id, optionIds: [other.form.questions[0]!.options[0]!.id] },
          { questionId: other.form.questions[1]!.id, optionIds: [] },
        ],
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(["answers.0.optionIds.0", "answers.1.questionId"]);
    expect((await api("GET", `/api/test-link/${assignment.token}`)).body.draft).toBeUndefined();
    expect((await api("PUT", `/api/test-link/${assignment.token}/draft`, { json: { answers: "nope" } })).status).toBe(400);
    expect((await api("PUT", `/api/test-link/${assignment.token}/draft`, { json: { answers: [] } })).status).toBe(200);
  });

  it("given a withdrawn or unknown link, should answer 410 or 404 and save nothing", async () => {
    const { assignment } = await newLink();
    await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "teacher@demo.test" });
    const revoked = await api("PUT", `/api/test-link/${assignment.token}/draft`, { json: { answers: [] } });
    expect(revoked.status).toBe(410);
    expect(revoked.body.code).toBe("LINK_REVOKED");
    expect((await api("PUT", "/api/test-link/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/draft", { json: { answers: [] } })).status).toBe(404);
    expect(await testDatabase().submissionDraft.count({ where: { submissionId: assignment.id } })).toBe(0);
  });
});
