import { describe, expect, it } from "vitest";
import { updateFormBody } from "../../app/features/forms/form-schemas.ts";
import { updateForm } from "../../app/features/forms/forms.server.ts";
import { getReport } from "../../app/features/reports/reports.server.ts";
import { readScoredAgainst } from "../../app/features/submissions/scored-against.ts";
import { db } from "../../app/lib/db.server.ts";
import { parseWith } from "../../app/lib/http.server.ts";
import { completedResult, newForm, newOrganization, newStudent, unique } from "../support/services.ts";

/**
 * A completion scored by the scales engine through submitTestLink: the subscales, flags and
 * flaggedAt stored on the submission, the versioned snapshot it keeps, and a result that stays as
 * it was when its form's scoring changes afterwards (docs/api-contract.md §15, §16; ADR 68).
 */
const options = (critical: boolean) =>
  ["No", "A little", "A lot"].map((text, score) => ({ text, score, ...(critical && score === 2 ? { critical: true } : {}) }));

const twoScales = () => ({
  title: unique("Two scales"),
  isPublished: true,
  questions: [
    { key: "w1", text: "Worried", type: "SINGLE_CHOICE", options: options(false) },
    { key: "w2", text: "Hopeless", type: "SINGLE_CHOICE", options: options(true) },
    { key: "c1", text: "Calm", type: "SINGLE_CHOICE", reverseScored: true, options: options(false) },
  ],
  subscales: [
    { key: "worry", name: "Worry", items: ["w1", "w2"], multiplier: 2, scoreRanges: [{ min: 8, max: 8, label: "Top", color: "#B42318", critical: true }] },
    { key: "calm", name: "Calm", items: ["c1"], method: "MEAN" },
  ],
});

describe("completing a form with subscales", () => {
  it("given a critical option in a critical band, should store the subscales, both flags and flaggedAt at completion", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, twoScales());
    const student = await newStudent(school.teacher);

    const id = await completedResult(school.teacher, form, { studentId: student.id }, { Worried: ["A lot"], Hopeless: ["A lot"], Calm: ["A lot"] });

    const stored = await db.submission.findUniqueOrThrow({
      where: { id },
      select: { completedAt: true, flaggedAt: true, subscales: true, flags: true, scoredAgainst: true },
    });
    expect(stored.flaggedAt).toEqual(stored.completedAt);
    expect(stored.flags).toEqual([
      { kind: "OPTION", questionKey: "w2", text: "Hopeless — A lot" },
      { kind: "BAND", subscaleKey: "worry", text: "Worry: Top" },
    ]);
    // (2 + 2) × 2 = 8 of 8; "A lot" on the reverse item counts 0, its mean 0 of 2.
    expect(stored.subscales).toMatchObject([
      { key: "worry", score: 8, maxScore: 8, label: "Top", scorable: true },
      { key: "calm", score: 0, maxScore: 2, label: null, scorable: true },
    ]);
    const snapshot = readScoredAgainst(stored.scoredAgainst);
    expect(snapshot).toMatchObject({ version: 3, scoring: { method: "SUM", multiplier: 1, maxMissing: null }, subscales: [{ key: "worry" }, { key: "calm" }] });
    expect(snapshot.questions.map((question) => [question.key, question.reverseScored])).toEqual([
      ["w1", false],
      ["w2", false],
      ["c1", true],
    ]);

    // The form's scoring changes afterwards: the result stays as it was captured.
    const unchanged = await getReport(school.teacher, id);
    await updateForm(school.teacher, form.id, parseWith(updateFormBody, { subscales: [{ key: "worry", name: "Worry", items: ["w1"] }] }));
    expect(await getReport(school.teacher, id)).toEqual(unchanged);
  });

  it("given no critical answer, should store no flag and no flaggedAt", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, twoScales());
    const student = await newStudent(school.teacher);

    const id = await completedResult(school.teacher, form, { studentId: student.id }, { Worried: ["No"], Hopeless: ["A little"], Calm: ["No"] });

    const report = await getReport(school.teacher, id);
    expect(report).toMatchObject({ flags: [], flaggedAt: null, totalScore: 3 });
    expect(report.subscales.map((subscale) => [subscale.key, subscale.score, subscale.label])).toEqual([
      ["worry", 2, null],
      ["calm", 2, null],
    ]);
  });
});
