import { describe, expect, it } from "vitest";
import { createGroupBody, groupMembersBody, listGroupsQuery, MEMBERS_PER_CALL } from "../../app/features/groups/group-schemas.ts";
import { addGroupMembers, createGroup, getGroup, listGroups, removeGroupMembers } from "../../app/features/groups/groups.server.ts";
import { db } from "../../app/lib/db.server.ts";
import { parseWith } from "../../app/lib/http.server.ts";
import { newOrganization, newStudent, unique } from "../support/services.ts";

/**
 * app/features/groups/groups.server.ts called as app/routes/api/groups*.ts call it: the body
 * parsed by the route's schema, the caller passed explicitly (docs/api-contract.md §9).
 */
describe("groups", () => {
  it("given a teacher's new group, should list it to the organization's staff with no members and to no other organization", async () => {
    const school = await newOrganization();
    const other = await newOrganization();
    const name = unique("5B Reading");

    const group = await createGroup(school.teacher, parseWith(createGroupBody, { name, description: "  Tuesdays  " }));

    expect(group).toMatchObject({ name, description: "Tuesdays", members: [], createdBy: { id: school.teacher.userId }, deletedAt: null });
    const query = parseWith(listGroupsQuery, {});
    for (const staff of [school.teacher, school.colleague, school.admin]) {
      const { groups, total } = await listGroups(staff, query);
      expect(total).toBe(1);
      expect(groups).toMatchObject([{ id: group.id, name, _count: { members: 0 } }]);
    }
    expect(await listGroups(other.admin, query)).toMatchObject({ groups: [], total: 0 });
    await expect(getGroup(other.admin, group.id)).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("given groups named in any case and accent, should list them by folded name and find them by a part of it", async () => {
    const school = await newOrganization();
    for (const name of ["Zebra class", "ábaco club", "Maths B"]) await createGroup(school.teacher, parseWith(createGroupBody, { name }));

    const all = await listGroups(school.admin, parseWith(listGroupsQuery, {}));
    expect(all.groups.map((group) => group.name)).toEqual(["ábaco club", "Maths B", "Zebra class"]);
    const found = await listGroups(school.admin, parseWith(listGroupsQuery, { search: "ABACO" }));
    expect(found).toMatchObject({ total: 1, groups: [{ name: "ábaco club" }] });
  });

  it("given an empty name, should refuse the body with the field and the dictionary key the page shows", () => {
    expect(() => parseWith(createGroupBody, { name: "   " })).toThrow(
      expect.objectContaining({ status: 400, errors: [expect.objectContaining({ path: "name", key: { key: "nameRequired", params: [] } })] }),
    );
  });

  it("given members added by the creator, should show them by name and count them in the list; a colleague may not change them", async () => {
    const school = await newOrganization();
    const group = await createGroup(school.teacher, parseWith(createGroupBody, { name: unique("Caseload") }));
    const zoe = await newStudent(school.teacher, "Zoë Adams");
    const ana = await newStudent(school.teacher, "Ana Brito");

    const changed = await addGroupMembers(school.teacher, group.id, parseWith(groupMembersBody, { studentIds: [zoe.id, ana.id, zoe.id] }));

    expect(changed.members).toEqual([
      { kind: "student", id: ana.id, name: "Ana Brito", status: "ACTIVE" },
      { kind: "student", id: zoe.id, name: "Zoë Adams", status: "ACTIVE" },
    ]);
    expect((await listGroups(school.colleague, parseWith(listGroupsQuery, {}))).groups[0]!._count.members).toBe(2);
    const remove = parseWith(groupMembersBody, { studentIds: [ana.id] });
    await expect(removeGroupMembers(school.colleague, group.id, remove)).rejects.toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect((await removeGroupMembers(school.admin, group.id, remove)).members.map((member) => member.id)).toEqual([zoe.id]);
  });

  it("given one id the organization does not have, should add none of the people named", async () => {
    const school = await newOrganization();
    const other = await newOrganization();
    const group = await createGroup(school.teacher, parseWith(createGroupBody, { name: unique("All or nothing") }));
    const ours = await newStudent(school.teacher);
    const theirs = await newStudent(other.teacher);

    const input = parseWith(groupMembersBody, { studentIds: [ours.id, theirs.id] });
    await expect(addGroupMembers(school.teacher, group.id, input)).rejects.toMatchObject({ status: 404, detail: "No such student." });
    expect((await getGroup(school.teacher, group.id)).members).toEqual([]);
  });

  it(`given ${MEMBERS_PER_CALL} people in one call, should add them all; one more is refused before the service runs, naming the field`, async () => {
    const school = await newOrganization();
    const group = await createGroup(school.teacher, parseWith(createGroupBody, { name: unique("Whole year") }));
    // A school year in one statement: the cap is under test, not creating students (Prisma's
    // createMany of these rows took over a second; this takes milliseconds on both databases).
    await db.$executeRaw`
      INSERT INTO "Student" ("id", "organizationId", "name", "searchName", "updatedAt")
      WITH RECURSIVE n(i) AS (SELECT 10000 UNION ALL SELECT i + 1 FROM n WHERE i < ${10000 + MEMBERS_PER_CALL})
      SELECT ${school.id} || '-' || i, ${school.id}, 'Pupil ' || i, 'pupil ' || i, ${new Date()} FROM n`;
    const ids = (await db.student.findMany({ where: { organizationId: school.id }, select: { id: true }, orderBy: { name: "asc" } })).map(({ id }) => id);

    expect(() => parseWith(groupMembersBody, { studentIds: ids })).toThrow(
      expect.objectContaining({ status: 400, errors: [expect.objectContaining({ path: "studentIds", key: { key: "tooManyMembers", params: ["1,000"] } })] }),
    );
    const full = await addGroupMembers(school.teacher, group.id, parseWith(groupMembersBody, { studentIds: ids.slice(0, MEMBERS_PER_CALL) }));
    expect(full.members).toHaveLength(MEMBERS_PER_CALL);
    expect((await listGroups(school.admin, parseWith(listGroupsQuery, {}))).groups[0]!._count.members).toBe(MEMBERS_PER_CALL);
  });
});
