import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { mediumAnswers, mixedForm } from "../support/assessment.ts";
import { actorFor, testDatabase } from "../support/database.ts";
import { type CreatedUser, createSignedInUser } from "../support/fixtures.ts";

/**
 * The two forms of the submission scope (docs/api-contract.md §19, ADR 86), the Prisma filter and
 * the SQL condition, select the same rows for teachers who share groups in every way: owner,
 * editor, viewer, of one group or two overlapping ones, or none; on this file's own rows.
 */
async function modules() {
  process.env.DATABASE_URL = inject("databaseUrl");
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "group-staff-scope-"));
  const [scope, actorUser, { Prisma }] = await Promise.all([
    import("../../app/features/submissions/submission-scope.server.ts"),
    import("../../app/lib/auth/staffed-groups.server.ts"),
    import("../../app/lib/db.server.ts"),
  ]);
  return { ...scope, ...actorUser, Prisma };
}

const teachers: CreatedUser[] = [];
const submissionIds: string[] = [];

async function post(cookie: string, url: string, json: unknown) {
  const response = await api("POST", url, { cookie, json });
  expect(response.status, response.text).toBeLessThan(300);
  return response.body;
}

beforeAll(async () => {
  for (let i = 0; i < 4; i++) teachers.push(await createSignedInUser("TEACHER"));
  const [a, b, c, d] = teachers as [CreatedUser, CreatedUser, CreatedUser, CreatedUser];
  const people = [];
  for (let i = 0; i < 4; i++) people.push(await post(a.cookie, "/api/students", { name: unique("Scope person") }));
  const first = await post(a.cookie, "/api/groups", { name: unique("First") });
  const second = await post(b.cookie, "/api/groups", { name: unique("Second") });
  await post(a.cookie, `/api/groups/${first.id}/members`, { studentIds: [people[0].id, people[1].id] });
  await post(b.cookie, `/api/groups/${second.id}/members`, { studentIds: [people[1].id, people[2].id] });
  const staff = (groupId: string, cookie: string, entries: [CreatedUser, string][]) =>
    api("PUT", `/api/groups/${groupId}/staff`, { cookie, json: { staff: entries.map(([user, role]) => ({ userId: user.id, role })) } });
  expect(
    (
      await staff(first.id, a.cookie, [
        [a, "OWNER"],
        [b, "VIEWER"],
        [c, "EDITOR"],
      ])
    ).status,
  ).toBe(200);
  expect(
    (
      await staff(second.id, b.cookie, [
        [b, "OWNER"],
        [c, "VIEWER"],
      ])
    ).status,
  ).toBe(200);
  // Every teacher assigns to every person, one by one and (a, b) to a group; half are completed.
  for (const teacher of [a, b, c, d]) {
    const form = await post(teacher.cookie, "/api/forms", mixedForm());
    for (const [index, person] of people.entries()) {
      const link = await post(teacher.cookie, "/api/submissions", { formId: form.id, studentId: person.id });
      submissionIds.push(link.id);
      if (index % 2 === 0) await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form) });
    }
  }
  for (const [teacher, group] of [
    [a, first],
    [b, second],
  ] as const) {
    const form = await post(teacher.cookie, "/api/forms", mixedForm());
    const bulk = await post(teacher.cookie, "/api/submissions/bulk", { formId: form.id, groupId: group.id });
    submissionIds.push(...bulk.created.map((link: { id: string }) => link.id));
  }
});

describe("visibleSubmissionsWhere and visibleSubmissionsSql with group staff", () => {
  it.each([0, 1, 2, 3])("given teacher %i, should select the same submissions both ways", async (index) => {
    const { visibleSubmissionsSql, visibleSubmissionsWhere, staffedGroups, Prisma } = await modules();
    const user = teachers[index]!;
    const actor = { ...(await actorFor(user.email)), staffOf: await staffedGroups({ id: user.id, role: "TEACHER" }) };
    expect(actor.staffOf.length).toBe([1, 2, 2, 0][index]);
    const viaPrisma = await testDatabase().submission.findMany({
      where: { AND: [visibleSubmissionsWhere(actor), { id: { in: submissionIds } }] },
      select: { id: true },
    });
    const viaSql = await testDatabase().$queryRaw<{ id: string }[]>`
      SELECT s."id" FROM "Submission" s WHERE ${visibleSubmissionsSql(actor, "s")} AND s."id" IN (${Prisma.join(submissionIds)})`;
    const sorted = (list: { id: string }[]) => list.map((row) => row.id).sort();
    expect(sorted(viaSql)).toEqual(sorted(viaPrisma));
    // Each sees more than their own four links, but the unrelated teacher (d).
    expect(viaSql.length > 4).toBe(index !== 3);
  });

  it("given a teacher in 1,200 groups, 600 alone and 600 with the same colleague, should answer both ways, and the reports list over HTTP", async () => {
    const { visibleSubmissionsSql, visibleSubmissionsWhere, staffedGroups, Prisma } = await modules();
    const [a, b] = teachers as [CreatedUser, CreatedUser];
    const db = testDatabase();
    const { organizationId } = await db.user.findUniqueOrThrow({ where: { id: a.id }, select: { organizationId: true } });
    const tag = unique("many").toLowerCase();
    const ids = Array.from({ length: 1200 }, (_, i) => `${tag}-${i}`);
    await db.group.createMany({ data: ids.map((id) => ({ id, organizationId: organizationId!, name: id, searchName: id, createdById: a.id })) });
    await db.groupStaff.createMany({
      data: ids.flatMap((groupId, i) => [
        { groupId, userId: a.id, role: "OWNER" as const },
        ...(i % 2 === 0 ? [{ groupId, userId: b.id, role: "EDITOR" as const }] : []),
      ]),
    });
    const actor = { ...(await actorFor(a.email)), staffOf: await staffedGroups({ id: a.id, role: "TEACHER" }) };
    expect(actor.staffOf.length).toBe(1201);
    const viaPrisma = await db.submission.findMany({ where: { AND: [visibleSubmissionsWhere(actor), { id: { in: submissionIds } }] }, select: { id: true } });
    const viaSql = await db.$queryRaw<{ id: string }[]>`
      SELECT s."id" FROM "Submission" s WHERE ${visibleSubmissionsSql(actor, "s")} AND s."id" IN (${Prisma.join(submissionIds)})`;
    expect(viaSql.map((row) => row.id).sort()).toEqual(viaPrisma.map((row) => row.id).sort());
    // One term per group made a condition SQLite refused (500 on every list of this teacher's).
    const reports = await api("GET", "/api/reports", { cookie: a.cookie });
    expect(reports.status, reports.text).toBe(200);
    await db.groupStaff.deleteMany({ where: { groupId: { in: ids } } });
    await db.group.deleteMany({ where: { id: { in: ids } } });
  });
});
