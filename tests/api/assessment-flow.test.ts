import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { assign, completeMedium, createForm, createStudent, mediumAnswers, mixedForm } from "../support/assessment.ts";

describe("assign → open link → submit → report", () => {
  it("given a form mixing every question type and negative scores, should score it on the server and report it", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test", unique("Flow student"));
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    expect(assignment.token).toMatch(/^[\w-]{43}$/);
    expect(assignment.url).toBe(`${baseUrl()}/en/test/${assignment.token}`);
    expect(assignment).toMatchObject({ isCompleted: false, student: { id: student.id }, candidate: null, form: { id: form.id } });

    const link = await api("GET", `/api/test-link/${assignment.token}`);
    expect(link.status).toBe(200);
    expect(link.headers.get("cache-control")).toBe("no-store");
    expect(link.headers.get("referrer-policy")).toBe("no-referrer");
    expect(link.body).toMatchObject({ respondent: { name: student.name }, isCompleted: false, expiresAt: null });
    expect(link.body.form.questions).toHaveLength(4);
    expect(link.text).not.toMatch(/score|scoreRanges|"min"|"max"|#B42318/i);

    const submit = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) });
    expect(submit.status).toBe(200);
    expect(submit.body).toEqual({ submissionId: assignment.id, isCompleted: true, completedAt: expect.stringMatching(/Z$/), criticalMessage: null });

    const reports = await api("GET", `/api/reports?search=${encodeURIComponent(student.name)}`, { as: "teacher@demo.test" });
    expect(reports.status).toBe(200);
    expect(reports.body.reports).toEqual([
      {
        id: assignment.id,
        studentName: student.name,
        formTitle: form.title,
        completedAt: submit.body.completedAt,
        totalScore: 1,
        maxScore: 9.5,
        percentage: 10.53,
        scoreLabel: "Medium",
        scoreColor: "#B54708",
        // Shown as a percentage, the default (docs/api-contract.md §15, ADR 79).
        display: "PERCENT",
        // A form without subscales or critical answers (docs/api-contract.md §15, §16).
        subscales: [],
        flags: [],
        flaggedAt: null,
        acknowledgedAt: null,
        acknowledgedBy: null,
        acknowledgementNote: null,
        assignedByName: expect.any(String),
        updatedAt: submit.body.completedAt,
        deletedAt: null,
      },
    ]);

    const detail = await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      form: { id: form.id, title: form.title, category: "Screening" },
      respondent: { kind: "student", id: student.id, name: student.name },
      scoreRanges: mixedForm().scoreRanges,
    });
    expect(detail.body.answers.map((a: { score: number; maxScore: number }) => [a.score, a.maxScore])).toEqual([
      [-2, 3],
      [1, 3.5],
      [2, 3],
      [0, 0],
    ]);
    expect(detail.body.answers[1].optionTexts).toEqual(["two", "minus one"]);
    expect(detail.body.answers[3]).toMatchObject({ type: "TEXT", text: "It was fine.", optionTexts: [] });

    const submission = await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" });
    expect(submission.body).toMatchObject({ isCompleted: true, totalScore: 1, scoreLabel: "Medium" });
    expect(submission.body.token).toBeUndefined();
    expect(submission.body.answers).toHaveLength(4);
  });

  it("given the best answers, should reach the maximum and the top band", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const [q1, q2, q3] = form.questions;
    const submit = await api("POST", `/api/test-link/${assignment.token}/submit`, {
      json: {
        answers: [
          { questionId: q1!.id, optionIds: [q1!.options[0]!.id] },
          { questionId: q2!.id, optionIds: [q2!.options[0]!.id, q2!.options[2]!.id] },
          { questionId: q3!.id, optionIds: [q3!.options[3]!.id] },
        ],
      },
    });
    expect(submit.status).toBe(200);
    const report = (await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).body;
    expect(report).toMatchObject({ totalScore: 9.5, maxScore: 9.5, percentage: 100, scoreLabel: "High", scoreColor: "#1A7F37" });
  });

  it("given a total on a band's upper bound, should use that band; outside every band, no label", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    // B (-2) + {minus one, one and a half} (0.5) + scale 2 = 0.5: the upper bound of Low.
    const [q1, q2, q3] = form.questions;
    await api("POST", `/api/test-link/${assignment.token}/submit`, {
      json: {
        answers: [
          { questionId: q1!.id, optionIds: [q1!.options[1]!.id] },
          { questionId: q2!.id, optionIds: [q2!.options[1]!.id, q2!.options[2]!.id] },
          { questionId: q3!.id, optionIds: [q3!.options[2]!.id] },
        ],
      },
    });
    const report = (await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).body;
    expect(report).toMatchObject({ totalScore: 0.5, scoreLabel: "Low", scoreColor: "#B42318" });

    const gapForm = await createForm("teacher@demo.test", {
      ...mixedForm(),
      // Reachable (a band no total can reach is refused), but not by a total of 1.
      scoreRanges: [{ min: 5, max: 9.5, label: "High only", color: "#000000" }],
    });
    const other = await assign("teacher@demo.test", { formId: gapForm.id, studentId: student.id });
    expect((await api("POST", `/api/test-link/${other.token}/submit`, { json: mediumAnswers(gapForm) })).status).toBe(200);
    const gap = (await api("GET", `/api/reports/${other.id}`, { as: "teacher@demo.test" })).body;
    expect(gap).toMatchObject({ totalScore: 1, scoreLabel: null, scoreColor: null });
  });

  it("given a candidate, should assign, complete and report under the candidate's name", async () => {
    const form = await createForm("teacher@demo.test");
    const name = unique("Candidate respondent");
    const candidate = (await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name } })).body;
    const assignment = await assign("teacher@demo.test", { formId: form.id, candidateId: candidate.id });
    expect(assignment).toMatchObject({ student: null, candidate: { id: candidate.id, name } });
    expect((await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
    const report = (await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).body;
    expect(report).toMatchObject({ studentName: name, respondent: { kind: "candidate", id: candidate.id } });
    const evaluations = (await api("GET", `/api/candidates/${candidate.id}`, { as: "teacher@demo.test" })).body.evaluations;
    expect(evaluations).toEqual([expect.objectContaining({ id: assignment.id, isCompleted: true, scoreLabel: "Medium" })]);
    // Promotion moves the history to the new student.
    const promoted = await api("POST", `/api/candidates/${candidate.id}/promote`, { as: "admin@demo.test" });
    const studentHistory = (await api("GET", `/api/students/${promoted.body.student.id}`, { as: "admin@demo.test" })).body.submissions;
    expect(studentHistory.map((s: { id: string }) => s.id)).toEqual([assignment.id]);
  });
});

describe("completion happens once", () => {
  it("given a completed link, should answer 409 to a second submit and to opening it, changing nothing", async () => {
    const { form, assignment } = await completeMedium("teacher@demo.test");
    const again = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("ALREADY_COMPLETED");
    expect((await api("GET", `/api/test-link/${assignment.token}`)).status).toBe(409);
    const submission = (await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body;
    expect(submission.answers).toHaveLength(4);
  });

  it("given 50 simultaneous submits of one token, should accept exactly one and store one set of answers", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const submission = (await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body;
    expect(submission.answers).toHaveLength(4);
    expect(submission.totalScore).toBe(1);
  });
});

describe("a completed result never changes", () => {
  it("given the form edited and then deleted after completion, should leave the report as it was", async () => {
    const { form, assignment } = await completeMedium("teacher@demo.test");
    const before = (await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).body;
    const edited = await api("PUT", `/api/forms/${form.id}`, {
      as: "teacher@demo.test",
      json: {
        title: "Renamed afterwards",
        scoreRanges: [{ min: -100, max: 100, label: "Everything", color: "#123456" }],
        questions: [
          {
            id: form.questions[0]!.id,
            text: "Reworded",
            type: "SINGLE_CHOICE",
            options: [
              { text: "X", score: 50 },
              { text: "Y", score: 60 },
            ],
          },
        ],
      },
    });
    expect(edited.status).toBe(200);
    expect((await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).body).toEqual(before);
    expect((await api("DELETE", `/api/forms/${form.id}`, { as: "teacher@demo.test" })).status).toBe(200);
    expect((await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).body).toEqual(before);
    const listed = await api("GET", `/api/reports?search=${encodeURIComponent(form.title)}`, { as: "teacher@demo.test" });
    expect(listed.body.reports.map((r: { id: string; formTitle: string }) => [r.id, r.formTitle])).toEqual([[assignment.id, form.title]]);
  });
});

describe("a link's form content (cached per content version, ADR 33)", () => {
  it("given a form edited after its link was opened, should show and score the new questions and bands at once", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test", unique("Cache student"));
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    expect((await api("GET", `/api/test-link/${assignment.token}`)).body.form.questions[0].text).toBe("Pick one");

    // Only the first question's text and the bands change; a title change alone keeps the content.
    const body = mixedForm(form.title);
    body.questions[0]!.text = "Pick one, reworded";
    body.scoreRanges = [{ min: -5, max: 9.5, label: "Any", color: "#000000" }];
    const stored = (await api("GET", `/api/forms/${form.id}`, { as: "teacher@demo.test" })).body;
    const questions = body.questions.map((question, i) => ({
      ...question,
      id: stored.questions[i].id,
      options: question.options?.map((option, j) => ({ ...option, id: stored.questions[i].options[j]?.id })),
    }));
    const put = await api("PUT", `/api/forms/${form.id}`, { as: "teacher@demo.test", json: { questions, scoreRanges: body.scoreRanges } });
    expect(put.status).toBe(200);
    expect((await api("GET", `/api/test-link/${assignment.token}`)).body.form.questions[0].text).toBe("Pick one, reworded");
    expect((await api("PUT", `/api/forms/${form.id}`, { as: "teacher@demo.test", json: { title: `${form.title} (renamed)` } })).status).toBe(200);
    const renamed = await api("GET", `/api/test-link/${assignment.token}`);
    expect(renamed.body.form).toMatchObject({
      title: `${form.title} (renamed)`,
      questions: expect.arrayContaining([expect.objectContaining({ text: "Pick one, reworded" })]),
    });

    const submit = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) });
    expect(submit.status).toBe(200);
    expect((await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" })).body).toMatchObject({ scoreLabel: "Any", totalScore: 1 });
  });
});
