import { describe, expect, it } from "vitest";
import { testDatabase } from "../support/database.ts";
import { newOrganization, resultData, type World } from "../support/result-rows.ts";
import { countedCounts as counted, keptCounts as kept } from "../support/tallies.ts";

/**
 * The submission counts kept by triggers on "Submission" (docs/decisions/0036-submission-counts.md):
 * after every kind of write they must equal what COUNT(*) finds, per organization, assigner and
 * form. Each test writes in organizations of its own.
 */
const pending = (world: World, assignedById?: string) => ({ ...resultData(world, { assignedById }), isCompleted: false, completedAt: null, totalScore: null });

describe("the SubmissionCount triggers", () => {
  it("given links assigned, completed, moved, soft-deleted, restored and deleted, should count exactly what COUNT(*) counts", async () => {
    const db = testDatabase();
    const a = await newOrganization("ca");
    const b = await newOrganization("cb");
    const ids = [a.organizationId, b.organizationId];
    const secondForm = await db.form.create({
      data: { organizationId: a.organizationId, createdById: a.userId, title: "Second", searchTitle: "second" },
    });

    // Assigned one by one and many in one statement, by two assigners.
    const first = await db.submission.create({ data: pending(a) });
    await db.submission.createMany({ data: [pending(a), pending(a, a.teacherId), resultData(a), resultData(b)] });
    expect(await kept(ids)).toEqual(await counted(ids));
    expect((await kept(ids))[`${a.organizationId}/${a.userId}/${a.formId}`]).toEqual({ submissions: 3, completed: 1 });

    // Completed (the submit's claim), then moved to another form and to another assigner.
    await db.submission.update({ where: { id: first.id }, data: { isCompleted: true, completedAt: new Date(), totalScore: 1 } });
    await db.submission.updateMany({ where: { organizationId: a.organizationId, assignedById: a.teacherId }, data: { formId: secondForm.id } });
    await db.submission.update({ where: { id: first.id }, data: { assignedById: a.teacherId } });
    expect(await kept(ids)).toEqual(await counted(ids));

    // Renamed (the search text only): nothing moves.
    const before = await kept(ids);
    await db.submission.updateMany({ where: { organizationId: a.organizationId }, data: { searchText: "renamed form" } });
    expect(await kept(ids)).toEqual(before);

    // Soft-deleted, restored, deleted for good, and every link of an organization at once.
    await db.submission.update({ where: { id: first.id }, data: { deletedAt: new Date() } });
    expect(await kept(ids)).toEqual(await counted(ids));
    await db.submission.update({ where: { id: first.id }, data: { deletedAt: null } });
    expect(await kept(ids)).toEqual(await counted(ids));
    await db.submission.delete({ where: { id: first.id } });
    await db.submission.deleteMany({ where: { organizationId: b.organizationId } });
    expect(await kept(ids)).toEqual(await counted(ids));
    expect(Object.keys(await kept([b.organizationId]))).toEqual([]);
  });
});
