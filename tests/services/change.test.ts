import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createGroupBody, groupMembersBody } from "../../app/features/groups/group-schemas.ts";
import { addGroupMembers, createGroup } from "../../app/features/groups/groups.server.ts";
import { HISTORY_PER_FORM, personHistory, personHistoryByForm } from "../../app/features/people/people.server.ts";
import { getReport } from "../../app/features/reports/reports.server.ts";
import type { FormDetail } from "../../app/features/forms/forms.server.ts";
import { groupResults } from "../../app/features/summaries/group-results.server.ts";
import type { Actor } from "../../app/lib/auth/actor.server.ts";
import { db } from "../../app/lib/db.server.ts";
import { parseWith } from "../../app/lib/http.server.ts";
import { newForm, newOrganization, newStudent, unique } from "../support/services.ts";

/**
 * Where a result's change over time is read (docs/api-contract.md §18, ADR 80), as the pages and
 * the API call the services: the person's page keeps only the newest results of a form, but each
 * is still compared with the first result ever and the one just before it; the group's results
 * compare each member's latest; a teacher's figures are made from the results they may see.
 */

/** The PHQ-9's constants on a form of one 0-to-27 question. */
const phq9Like = () => ({
  title: unique("Depression check"),
  questions: [{ text: "Total", type: "SINGLE_CHOICE", required: true, options: [0, 27].map((score) => ({ text: String(score), score })) }],
  reliableChange: { sd: 4.8, reliability: 0.84 },
  remissionBelow: 5,
});

/** Completed results of the student on the form, written directly (an assignment and a submit each would only slow the test), a day apart. */
async function results(assigner: Actor, form: FormDetail, studentId: string, totals: number[], firstDay = Date.UTC(2025, 0, 1)) {
  const rows = totals.map((totalScore, i) => ({
    id: `${unique("r").replaceAll(" ", "")}-${String(i).padStart(4, "0")}`,
    organizationId: assigner.organizationId,
    formId: form.id,
    studentId,
    assignedById: assigner.userId,
    token: randomBytes(24).toString("base64url"),
    isCompleted: true,
    completedAt: new Date(firstDay + i * 86_400_000),
    createdAt: new Date(firstDay + i * 86_400_000),
    totalScore,
    maxScore: 27,
    percentage: (totalScore / 27) * 100,
    formTitle: form.title,
    subscales: [],
    // What a report reads back of the result (ScoredAgainst).
    scoredAgainst: {
      form: { id: form.id, title: form.title, category: null, type: null },
      respondent: { kind: "student", id: studentId, name: "Respondent", grade: null, age: null },
      questions: [],
      scoreRanges: [],
    },
  }));
  await db.submission.createMany({ data: rows });
  return rows.map((row) => row.id);
}

describe("a person's page", () => {
  it("given more results than the page shows, should still compare each with the first ever and the one just before it", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, phq9Like());
    const student = await newStudent(school.teacher);
    // 53 results: 20, then 14 and 9 in turn; the page shows the newest 50, from the fourth on.
    const totals = [20, ...Array.from({ length: 52 }, (_, i) => (i % 2 === 0 ? 14 : 9))];
    await results(school.teacher, form, student.id, totals);

    const { forms } = await personHistoryByForm(school.teacher, { studentId: student.id });
    const [history] = forms;
    expect(history).toMatchObject({
      total: 53,
      baseline: 20,
      constants: { reliableChange: { sd: 4.8, reliability: 0.84 }, remissionBelow: 5, lowerIsBetter: true },
    });
    expect(history!.results).toHaveLength(HISTORY_PER_FORM);
    // The oldest shown is the fourth result (14): 14 − 9 from the third, 14 − 20 from the first, a
    // reliable improvement (−6 / 2.71529 = −2.210), no response (a fall of 6 < 10), no remission.
    expect(history!.results[0]).toMatchObject({
      totalScore: 14,
      change: { fromPrevious: 5, fromBaseline: -6, reliable: "IMPROVED", response: false, remission: false },
    });
    // The newest (9): −11 from the first, −4.051; a response (a fall of 11 ≥ 10).
    expect(history!.results.at(-1)).toMatchObject({
      totalScore: 9,
      change: { fromPrevious: -5, fromBaseline: -11, reliable: "IMPROVED", response: true, remission: false },
    });
    // The API's history reads every result: the same figures.
    const api = await personHistory(school.teacher, { studentId: student.id });
    expect(api.find((item) => item.id === history!.results[0]!.id)?.change).toEqual(history!.results[0]!.change);
  });

  it("given results assigned by two teachers, should compare each teacher's within what they may see, and the administrator's within all", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, { ...phq9Like(), isTemplate: true });
    const student = await newStudent(school.admin);
    // The colleague's 20 first, then the teacher's 18 and 10.
    await results(school.colleague, form, student.id, [20], Date.UTC(2025, 0, 1));
    const [first, second] = await results(school.teacher, form, student.id, [18, 10], Date.UTC(2025, 0, 2));

    const teachers = await personHistory(school.teacher, { studentId: student.id });
    expect(teachers.map((item) => [item.id, item.change])).toEqual([
      [second, { fromPrevious: -8, fromBaseline: -8, reliable: "IMPROVED", response: false, remission: false }],
      [first, { fromPrevious: null, fromBaseline: null, reliable: null, response: null, remission: null }],
    ]);
    const admins = await personHistory(school.admin, { studentId: student.id });
    expect(admins.find((item) => item.id === second)?.change).toEqual({
      fromPrevious: -8,
      fromBaseline: -10,
      reliable: "IMPROVED",
      response: true,
      remission: false,
    });
    expect(await getReport(school.teacher, second!)).toMatchObject({ isBaseline: false, change: { fromBaseline: -8 } });
    expect(await getReport(school.teacher, first!)).toMatchObject({ isBaseline: true });
    expect(await getReport(school.admin, first!)).toMatchObject({ isBaseline: false, change: { fromPrevious: -2, fromBaseline: -2 } });
  });
});

describe("a group's results", () => {
  it("given members with several results each, should compare each member's latest with their previous and first", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, phq9Like());
    const [ana, bea, cy] = [await newStudent(school.teacher), await newStudent(school.teacher), await newStudent(school.teacher)];
    const group = await createGroup(school.teacher, parseWith(createGroupBody, { name: unique("Caseload") }));
    await addGroupMembers(school.teacher, group.id, parseWith(groupMembersBody, { studentIds: [ana.id, bea.id, cy.id] }));
    await results(school.teacher, form, ana.id, [22, 16, 12, 4]);
    await results(school.teacher, form, bea.id, [8, 12]);
    await results(school.teacher, form, cy.id, [15]);

    const { latest } = await groupResults(school.teacher, group.id, [form.id]);
    expect(latest[`student:${ana.id}`]![form.id]).toMatchObject({
      totalScore: 4,
      change: { fromPrevious: -8, fromBaseline: -18, reliable: "IMPROVED", response: true, remission: true },
    });
    expect(latest[`student:${bea.id}`]![form.id]).toMatchObject({
      totalScore: 12,
      change: { fromPrevious: 4, fromBaseline: 4, reliable: "NO_CHANGE", response: false, remission: false },
    });
    expect(latest[`student:${cy.id}`]![form.id]!.change).toEqual({ fromPrevious: null, fromBaseline: null, reliable: null, response: null, remission: null });
  });
});
