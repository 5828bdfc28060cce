import { describe, expect, it } from "vitest";
import { updateFormBody } from "../../app/features/forms/form-schemas.ts";
import { updateForm } from "../../app/features/forms/forms.server.ts";
import { getReport } from "../../app/features/reports/reports.server.ts";
import { createSubmissionBody, submitAnswersBody } from "../../app/features/submissions/submission-schemas.ts";
import { assignForm, getSubmission } from "../../app/features/submissions/submissions.server.ts";
import { submitTestLink } from "../../app/features/submissions/test-link.server.ts";
import { parseWith } from "../../app/lib/http.server.ts";
import { mixedFormBody } from "../support/form-bodies.ts";
import { answersFor, completedResult, newForm, newOrganization, newStudent, unique } from "../support/services.ts";

/**
 * A submission scored and stored by submitTestLink (app/features/submissions/test-link.server.ts),
 * then read by the teacher's report (app/features/reports/reports.server.ts): the total, the
 * maximum, the percentage, the band and each answer's score (ADR 5), on the mixed form of
 * tests/support/form-bodies.ts (maximum 9.5; Low up to 0.5, Medium 0.75 to 5, High from 5.5).
 */
const mixedForm = () => mixedFormBody(unique("Screening"));

type Case = { given: Record<string, string[] | string>; scores: number[]; total: number; percentage: number; band: string };

describe("scoring a submission", () => {
  it.each<Case>([
    {
      given: { "Pick one": ["A"], "Pick any": ["two", "one and a half"], "Rate it": ["2"] },
      scores: [3, 3.5, 2, 0],
      total: 8.5,
      percentage: 89.47,
      band: "High",
    },
    {
      given: { "Pick one": ["A"], "Pick any": [], "Rate it": ["1"], "Say something": "fine" },
      scores: [3, 0, 1, 0],
      total: 4,
      percentage: 42.11,
      band: "Medium",
    },
    { given: { "Pick one": ["B"], "Pick any": ["minus one"], "Rate it": ["0"] }, scores: [-2, -1, 0, 0], total: -3, percentage: -31.58, band: "Low" },
  ])(
    "given answers scoring $total, should store that total out of 9.5, $percentage % and the band $band, and each answer's score",
    async ({ given, scores, total, percentage, band }) => {
      const school = await newOrganization();
      const form = await newForm(school.teacher, mixedForm());
      const student = await newStudent(school.teacher);

      const id = await completedResult(school.teacher, form, { studentId: student.id }, given);

      const report = await getReport(school.teacher, id);
      expect(report).toMatchObject({
        totalScore: total,
        maxScore: 9.5,
        percentage,
        scoreLabel: band,
        scoreColor: form.scoreRanges.find((b) => b.label === band)!.color,
      });
      expect(report.answers.map((answer) => answer.score)).toEqual(scores);
      expect(report.answers.map((answer) => answer.maxScore)).toEqual([3, 3.5, 3, 0]);
      expect(report).toMatchObject({ studentName: student.name, formTitle: form.title, respondent: { kind: "student", id: student.id } });
    },
  );

  it("given a required question left unanswered, should refuse the submit pointing at the question and leave the link open", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, mixedForm());
    const student = await newStudent(school.teacher);
    const link = await assignForm(school.teacher, parseWith(createSubmissionBody, { formId: form.id, studentId: student.id }));
    const rateIt = form.questions.find((q) => q.text === "Rate it")!;

    const partial = parseWith(submitAnswersBody, { answers: answersFor(form, { "Pick one": ["A"] }) });
    await expect(submitTestLink(link.token!, partial)).rejects.toMatchObject({
      status: 400,
      errors: [{ path: `questions.${rateIt.id}`, key: { key: "answerRequired", params: [] } }],
    });

    expect(await getSubmission(school.teacher, link.id)).toMatchObject({ isCompleted: false, totalScore: null });
    await expect(getReport(school.teacher, link.id)).rejects.toMatchObject({ status: 409, code: "NOT_COMPLETED" });
  });

  it("given a completed submission, should refuse a second submit and keep the first answers", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, mixedForm());
    const student = await newStudent(school.teacher);
    const link = await assignForm(school.teacher, parseWith(createSubmissionBody, { formId: form.id, studentId: student.id }));
    const submit = (given: Record<string, string[]>) => submitTestLink(link.token!, parseWith(submitAnswersBody, { answers: answersFor(form, given) }));

    await submit({ "Pick one": ["A"], "Rate it": ["3"] });
    await expect(submit({ "Pick one": ["B"], "Rate it": ["0"] })).rejects.toMatchObject({ status: 409, code: "ALREADY_COMPLETED" });

    expect(await getReport(school.teacher, link.id)).toMatchObject({ totalScore: 6, scoreLabel: "High" });
  });

  it("given the form renamed and its bands relabelled after completion, should keep the report as it was scored", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, mixedForm());
    const student = await newStudent(school.teacher);
    const id = await completedResult(school.teacher, form, { studentId: student.id }, { "Pick one": ["A"], "Rate it": ["3"] });

    const relabelled = form.scoreRanges.map((b) => ({ ...b, label: `${b.label} (new)` }));
    await updateForm(school.teacher, form.id, parseWith(updateFormBody, { title: "Renamed", scoreRanges: relabelled }));

    const report = await getReport(school.teacher, id);
    expect(report).toMatchObject({ formTitle: form.title, totalScore: 6, scoreLabel: "High", form: { title: form.title } });
    expect(report.scoreRanges.map((b) => b.label)).toEqual(["Low", "Medium", "High"]);
  });
});
