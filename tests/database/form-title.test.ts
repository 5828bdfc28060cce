import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { completeMedium } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

/**
 * An instance of an older version, still running while a newer one migrated the database (a
 * rolling upgrade), completes submissions without "formTitle". The database fills it from the
 * scoring snapshot (ADR 16), so the reports list never shows such a result without its title.
 */
describe("a completed submission written without its form title", () => {
  it("given an update that leaves formTitle empty, should still list the report with its title", async () => {
    const { form, submit } = await completeMedium("teacher@demo.test");
    // What the older writer does: the completion without the column it does not know.
    await testDatabase().$executeRaw`UPDATE "Submission" SET "formTitle" = NULL, "scoredAgainst" = "scoredAgainst" WHERE "id" = ${submit.submissionId}`;
    const stored = await testDatabase().submission.findUniqueOrThrow({ where: { id: submit.submissionId }, select: { formTitle: true } });
    expect(stored.formTitle).toBe(form.title);

    const reports = await api("GET", `/api/reports?search=${encodeURIComponent(form.title)}`, { as: "teacher@demo.test" });
    expect(reports.body.reports.map((report: { id: string; formTitle: string }) => [report.id, report.formTitle])).toContainEqual([
      submit.submissionId,
      form.title,
    ]);
  });
});
