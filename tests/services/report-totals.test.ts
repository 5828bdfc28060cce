import { describe, expect, it } from "vitest";
import { createGroupBody, groupMembersBody } from "../../app/features/groups/group-schemas.ts";
import { addGroupMembers, createGroup } from "../../app/features/groups/groups.server.ts";
import { listReportsQuery } from "../../app/features/reports/report-schemas.ts";
import { listReports } from "../../app/features/reports/reports.server.ts";
import { createSubmissionBody } from "../../app/features/submissions/submission-schemas.ts";
import { assignForm } from "../../app/features/submissions/submissions.server.ts";
import type { Actor } from "../../app/lib/auth/actor.server.ts";
import { db } from "../../app/lib/db.server.ts";
import { parseWith } from "../../app/lib/http.server.ts";
import { completedResult, newForm, newOrganization, newStudent, unique } from "../support/services.ts";

/**
 * The reports list (listReports, app/features/reports/reports.server.ts) as GET /api/reports calls
 * it: for each filter and caller, the total it answers is the number of rows its pages hold, and
 * those rows are the results the filter selects, newest first. The total may come from the cache
 * of exact totals (ADR 13, ADR 56), which a new result must renew.
 */
const yesNo = (title: string) => ({
  title: unique(title),
  isPublished: true,
  questions: [
    {
      text: "Done?",
      type: "SINGLE_CHOICE",
      required: true,
      options: [
        { text: "Yes", score: 1 },
        { text: "No", score: 0 },
      ],
    },
  ],
});

/** Every page of the list for `query`, two rows a page, and the total each page answered. */
async function everyPage(actor: Actor, query: Record<string, string>) {
  const ids: string[] = [];
  const totals = new Set<number>();
  const completedAt: number[] = [];
  for (let page = 1; page <= 10; page += 1) {
    const answer = await listReports(actor, parseWith(listReportsQuery, { ...query, limit: "2", page: String(page) }));
    totals.add(answer.total);
    ids.push(...answer.reports.map((report) => report.id));
    completedAt.push(...answer.reports.map((report) => report.completedAt.getTime()));
    if (answer.reports.length < 2) break;
  }
  return { ids, totals: [...totals], completedAt };
}

/**
 * Two forms; Ana and Bruno in a group; results assigned by the teacher (Ana and Bruno the reading
 * form, Ana and Zoë the wellbeing one, Carla the reading one on a day of January) and by a
 * colleague (Zoë the reading one); and a link Bruno has not answered.
 */
async function classWithResults() {
  const school = await newOrganization();
  const reading = await newForm(school.teacher, yesNo("Reading screen"));
  const wellbeing = await newForm(school.teacher, yesNo("Wellbeing check"));
  const colleaguesReading = await newForm(school.colleague, yesNo("Reading screen"));
  const [ana, bruno, carla, zoe] = await Promise.all(["Ana Brito", "Bruno Costa", "Carla Dias", "Zoë Adams"].map((name) => newStudent(school.teacher, name)));
  const group = await createGroup(school.teacher, parseWith(createGroupBody, { name: unique("5B") }));
  await addGroupMembers(school.teacher, group.id, parseWith(groupMembersBody, { studentIds: [ana!.id, bruno!.id] }));

  const yes = { "Done?": ["Yes"] };
  const results = {
    anaReading: await completedResult(school.teacher, reading, { studentId: ana!.id }, yes),
    brunoReading: await completedResult(school.teacher, reading, { studentId: bruno!.id }, yes),
    carlaReading: await completedResult(school.teacher, reading, { studentId: carla!.id }, yes),
    anaWellbeing: await completedResult(school.teacher, wellbeing, { studentId: ana!.id }, yes),
    zoeWellbeing: await completedResult(school.teacher, wellbeing, { studentId: zoe!.id }, yes),
    zoeColleague: await completedResult(school.colleague, colleaguesReading, { studentId: zoe!.id }, yes),
  };
  await assignForm(school.teacher, parseWith(createSubmissionBody, { formId: wellbeing.id, studentId: bruno!.id }));
  // Completed on a day of its own, as if long ago: the stored time moved, not the clock.
  await db.submission.update({ where: { id: results.carlaReading }, data: { completedAt: new Date("2026-01-15T10:00:00Z") } });
  return { school, reading, wellbeing, group, carla: carla!, results };
}

describe("report totals and rows", () => {
  it("given each filter and caller, should answer a total equal to the rows of its pages, the results it selects, newest first", async () => {
    const { school, reading, wellbeing, group, results } = await classWithResults();
    const all = Object.values(results);
    const cases: [string, Actor, Record<string, string>, string[]][] = [
      ["no filter", school.admin, {}, all],
      ["a form", school.admin, { formId: reading.id }, [results.anaReading, results.brunoReading, results.carlaReading]],
      ["a group", school.admin, { groupId: group.id }, [results.anaReading, results.brunoReading, results.anaWellbeing]],
      ["a form and a group", school.admin, { formId: wellbeing.id, groupId: group.id }, [results.anaWellbeing]],
      ["a respondent's name", school.admin, { search: "BRITO" }, [results.anaReading, results.anaWellbeing]],
      ["a form's title", school.admin, { search: "wellbeing" }, [results.anaWellbeing, results.zoeWellbeing]],
      ["a day", school.admin, { from: "2026-01-15", to: "2026-01-15" }, [results.carlaReading]],
      ["from a day on", school.admin, { from: "2026-01-16" }, all.filter((id) => id !== results.carlaReading)],
      ["the teacher's own", school.teacher, {}, all.filter((id) => id !== results.zoeColleague)],
      ["the colleague's own, by title", school.colleague, { search: "reading" }, [results.zoeColleague]],
    ];
    for (const [label, actor, query, expected] of cases) {
      // Twice: the second total may be the cached one, and must still be the rows'.
      for (const read of ["first", "second"]) {
        const { ids, totals, completedAt } = await everyPage(actor, query);
        expect({ label, read, ids: [...ids].sort(), totals }).toEqual({ label, read, ids: [...expected].sort(), totals: [expected.length] });
        expect(completedAt, label).toEqual([...completedAt].sort((a, b) => b - a));
      }
    }
  });

  it("given a new result after a total was read, should answer the new total for the filters it falls in and the same for the others", async () => {
    const { school, reading, wellbeing, carla } = await classWithResults();
    const total = async (query: Record<string, string>) => (await listReports(school.admin, parseWith(listReportsQuery, query))).total;
    expect([await total({}), await total({ formId: reading.id }), await total({ formId: wellbeing.id })]).toEqual([6, 3, 2]);

    await completedResult(school.teacher, reading, { studentId: carla.id }, { "Done?": ["No"] });

    expect([await total({}), await total({ formId: reading.id }), await total({ formId: wellbeing.id })]).toEqual([7, 4, 2]);
  });
});
