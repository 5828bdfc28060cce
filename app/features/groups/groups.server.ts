import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, isUniqueViolation, type Prisma } from "~/lib/db.server.ts";
import { forbidden, notFound } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { changedSince, changesPage, OLDEST_CHANGE_FIRST, recordTombstone } from "~/lib/tombstones.server.ts";
import { claimVersion, type IfMatch } from "~/lib/entity-tag.server.ts";
import { foldForSearch } from "~/lib/search.ts";
import { editorOf } from "../submissions/submission-scope.server.ts";
import { type AuditEntry, recordAudit, recordUpdate } from "../audit/audit.server.ts";
import type { CreateGroupInput, GroupMembersInput, ListGroupsQuery, UpdateGroupInput } from "./group-schemas.ts";

/**
 * Groups (classes, caseloads) of an organization's students and candidates (docs/api-contract.md §9). Every
 * teacher and administrator of the organization reads them all and may assign to them (but a
 * group's VIEWER); its owners and editors (its creator is the first owner, §19) and the
 * administrators change and delete it. Members that were deleted
 * stay out of every answer.
 */

/** Members whose record still exists. */
const liveMember: Prisma.GroupMemberWhereInput = { OR: [{ student: { deletedAt: null } }, { candidate: { deletedAt: null } }] };

const summarySelect = {
  id: true,
  name: true,
  description: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
  createdBy: { select: { id: true, name: true } },
} as const;

const listSelect = { ...summarySelect, _count: { select: { members: { where: liveMember } } } } as const;

const listGroupsWhere = (actor: Actor, query: ListGroupsQuery): Prisma.GroupWhereInput => ({
  deletedAt: null,
  ...organizationScope(actor),
  ...(query.search ? { searchName: { contains: foldForSearch(query.search) } } : {}),
});

export async function listGroups(actor: Actor, query: ListGroupsQuery) {
  const where = listGroupsWhere(actor, query);
  const [groups, total] = await Promise.all([
    db.group.findMany({ where, select: listSelect, orderBy: [{ searchName: "asc" }, { id: "asc" }], ...skipTake(query) }),
    db.group.count({ where }),
  ]);
  return { groups, total, page: query.page, limit: query.limit };
}

/** The list with `updatedSince` (ADR 52): the groups changed since then (members included), oldest change first, and the deletions. */
export async function listGroupChanges(actor: Actor, query: ListGroupsQuery & { updatedSince: Date }) {
  const where: Prisma.GroupWhereInput = { AND: [listGroupsWhere(actor, query), changedSince(query.updatedSince)] };
  const { items, total } = await changesPage(actor, "group", query.updatedSince, query, {
    page: (offset, limit) => db.group.findMany({ where, select: listSelect, orderBy: OLDEST_CHANGE_FIRST, skip: offset, take: limit }),
    count: () => db.group.count({ where }),
  });
  return { groups: items, total, page: query.page, limit: query.limit };
}

/** A group of the caller's organization; 404 outside it. */
export async function findGroup(actor: Actor, id: string) {
  const group = await db.group.findFirst({
    where: { id, deletedAt: null, ...organizationScope(actor) },
    select: { id: true, organizationId: true, createdById: true },
  });
  if (!group) throw notFound("group");
  return group;
}

/**
 * The caller's role among the group's staff, read at the moment of a write rather than from the
 * request's snapshot (`staffOf`, which widens reads): a role taken away refuses the next write.
 */
export async function staffRoleIn(actor: Pick<Actor, "userId">, groupId: string) {
  const staff = await db.groupStaff.findUnique({ where: { groupId_userId: { groupId, userId: actor.userId } }, select: { role: true } });
  return staff?.role ?? null;
}

/** Whether `actor` may change the group and its links: an administrator, or one of its owners and editors (ADR 86). */
async function editsGroup(actor: Actor, groupId: string) {
  if (isAdmin(actor)) return true;
  const role = await staffRoleIn(actor, groupId);
  return role === "OWNER" || role === "EDITOR";
}

/** Scope before role: another organization's group is 404; a group the teacher does not own or edit is 403. */
async function findChangeableGroup(actor: Actor, id: string) {
  const group = await findGroup(actor, id);
  if (!(await editsGroup(actor, id))) throw forbidden("Only the group's owners, its editors or an administrator may change it.");
  return group;
}

/**
 * Assigning to a group and reminding its links: every teacher of the organization may (§9), but a
 * group's VIEWER reads only (§19): 403.
 */
export async function assertNotGroupViewer(actor: Actor, groupId: string): Promise<void> {
  if (isAdmin(actor)) return;
  if ((await staffRoleIn(actor, groupId)) === "VIEWER") {
    throw forbidden("The group's viewers read its results but do not assign to it or change its links.");
  }
}

export async function getGroup(actor: Actor, id: string) {
  await findGroup(actor, id);
  const group = await db.group.findUniqueOrThrow({
    where: { id },
    select: {
      ...summarySelect,
      members: {
        where: liveMember,
        select: {
          student: { select: { id: true, name: true, status: true } },
          candidate: { select: { id: true, name: true, status: true } },
        },
      },
    },
  });
  const members = group.members
    .map(({ student, candidate }) => (student ? { kind: "student" as const, ...student } : candidate ? { kind: "candidate" as const, ...candidate } : null))
    .filter((member) => member !== null)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { ...group, members };
}

export async function createGroup(actor: Actor, input: CreateGroupInput) {
  // The creator is the group's first owner (docs/api-contract.md §19).
  const group = await db.$transaction(async (tx) => {
    const created = await tx.group.create({
      data: {
        organizationId: actor.organizationId,
        createdById: actor.userId,
        name: input.name,
        searchName: foldForSearch(input.name),
        description: input.description ?? null,
        staff: { create: { userId: actor.userId, role: "OWNER" } },
      },
      select: { id: true },
    });
    await recordAudit(tx, { by: actor, action: "group.created", targetId: created.id });
    return created;
  });
  return getGroup(actor, group.id);
}

/** `ifMatch`: the request's If-Match, checked in the write's transaction (412 when the group has changed). */
export async function updateGroup(actor: Actor, id: string, input: UpdateGroupInput, ifMatch: IfMatch | null = null) {
  const group = await findChangeableGroup(actor, id);
  await db.$transaction(async (tx) => {
    await claimVersion(tx, "group", id, ifMatch);
    await tx.group.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name, searchName: foldForSearch(input.name) } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
      },
      select: { id: true },
    });
    await recordUpdate(tx, actor, "group.updated", { id, organizationId: group.organizationId }, input);
  });
  return getGroup(actor, id);
}

/** Soft delete: the group disappears from lists; its members and their results are untouched. */
export async function deleteGroup(actor: Actor, id: string) {
  const group = await findChangeableGroup(actor, id);
  const deletedAt = new Date();
  await db.$transaction(async (tx) => {
    const { count } = await tx.group.updateMany({ where: { id, deletedAt: null }, data: { deletedAt, updatedAt: deletedAt } });
    // Deleted meanwhile by another request, which told the lists.
    if (count === 0) return;
    await recordTombstone(tx, { organizationId: group.organizationId, kind: "group", itemId: id, audience: "ALL", deletedAt });
    await recordAudit(tx, { by: actor, action: "group.deleted", targetId: id, organizationId: group.organizationId });
  });
  return { id, deletedAt };
}

/**
 * Moves the updatedAt of the people named who are in the group to `at`: the groups a
 * person is in select them in the people lists (`groupId`), so a change of membership is a change
 * of the person for the lists read with updatedSince (ADR 52).
 */
async function touchMembers(tx: Prisma.TransactionClient, groupId: string, at: Date, people: { studentIds: string[]; candidateIds: string[] }) {
  const inGroup = { groups: { some: { groupId } } };
  if (people.studentIds.length > 0) await tx.student.updateMany({ where: { ...inGroup, id: { in: people.studentIds } }, data: { updatedAt: at } });
  if (people.candidateIds.length > 0) await tx.candidate.updateMany({ where: { ...inGroup, id: { in: people.candidateIds } }, data: { updatedAt: at } });
}

/**
 * The people the ids name, all of them in the group's organization and not deleted; any other id
 * makes the whole request 404 (docs/api-contract.md §9: all-or-nothing).
 */
async function peopleOf(tx: Prisma.TransactionClient, organizationId: string, input: GroupMembersInput) {
  const studentIds = [...new Set(input.studentIds)];
  const candidateIds = [...new Set(input.candidateIds)];
  const [students, candidates] = await Promise.all([
    studentIds.length ? tx.student.count({ where: { id: { in: studentIds }, organizationId, deletedAt: null } }) : 0,
    candidateIds.length ? tx.candidate.count({ where: { id: { in: candidateIds }, organizationId, deletedAt: null } }) : 0,
  ]);
  if (students !== studentIds.length) throw notFound("student");
  if (candidates !== candidateIds.length) throw notFound("candidate");
  return { studentIds, candidateIds };
}

/** Adds the people named; those already in the group stay as they are. */
export async function addGroupMembers(actor: Actor, id: string, input: GroupMembersInput) {
  const group = await findChangeableGroup(actor, id);
  try {
    await insertMembers(actor, group.organizationId, id, input);
  } catch (error) {
    // Another request added some of the same people meanwhile: once more sees them and skips them.
    if (!isUniqueViolation(error)) throw error;
    await insertMembers(actor, group.organizationId, id, input);
  }
  return getGroup(actor, id);
}

/** A change of members is a `group.updated` event naming how many joined or left (never who: §20). */
const membersChanged = (actor: Actor, organizationId: string, id: string, change: { added: number } | { removed: number }): AuditEntry => ({
  by: actor,
  action: "group.updated",
  targetId: id,
  organizationId,
  details: { fields: ["members"], ...change },
});

function insertMembers(actor: Actor, organizationId: string, id: string, input: GroupMembersInput) {
  return db.$transaction(async (tx) => {
    const { studentIds, candidateIds } = await peopleOf(tx, organizationId, input);
    const present = await tx.groupMember.findMany({
      where: { groupId: id, OR: [{ studentId: { in: studentIds } }, { candidateId: { in: candidateIds } }] },
      select: { studentId: true, candidateId: true },
    });
    const has = new Set(present.map((member) => member.studentId ?? member.candidateId));
    const joining = { studentIds: studentIds.filter((personId) => !has.has(personId)), candidateIds: candidateIds.filter((personId) => !has.has(personId)) };
    const rows = [
      ...joining.studentIds.map((studentId) => ({ groupId: id, studentId })),
      ...joining.candidateIds.map((candidateId) => ({ groupId: id, candidateId })),
    ];
    if (rows.length === 0) return;
    await tx.groupMember.createMany({ data: rows });
    const changedAt = new Date();
    await tx.group.update({ where: { id }, data: { updatedAt: changedAt }, select: { id: true } });
    await touchMembers(tx, id, changedAt, joining);
    await recordAudit(tx, membersChanged(actor, organizationId, id, { added: rows.length }));
  });
}

/** Removes the people named; those not in the group are ignored. */
export async function removeGroupMembers(actor: Actor, id: string, input: GroupMembersInput) {
  const group = await findChangeableGroup(actor, id);
  await db.$transaction(async (tx) => {
    const { studentIds, candidateIds } = await peopleOf(tx, group.organizationId, input);
    const changedAt = new Date();
    // Those in it, before they leave it.
    await touchMembers(tx, id, changedAt, { studentIds, candidateIds });
    const { count } = await tx.groupMember.deleteMany({
      where: { groupId: id, OR: [{ studentId: { in: studentIds } }, { candidateId: { in: candidateIds } }] },
    });
    if (count === 0) return;
    await tx.group.update({ where: { id }, data: { updatedAt: changedAt }, select: { id: true } });
    await recordAudit(tx, membersChanged(actor, group.organizationId, id, { removed: count }));
  });
  return getGroup(actor, id);
}

/** How many people of each kind the "add members" search shows at once. */
const PEOPLE_TO_ADD = 30;

/**
 * Students and candidates of the group's organization who are not in it yet, by name, for the
 * group page's "add members" list.
 */
export async function peopleToAdd(actor: Actor, id: string, search: string | undefined) {
  const group = await findGroup(actor, id);
  const where = {
    organizationId: group.organizationId,
    deletedAt: null,
    ...(search ? { searchName: { contains: foldForSearch(search) } } : {}),
  };
  const select = { id: true, name: true, status: true } as const;
  const orderBy = [{ searchName: "asc" as const }, { id: "asc" as const }];
  const [students, candidates] = await Promise.all([
    db.student.findMany({ where: { ...where, groups: { none: { groupId: id } } }, select, orderBy, take: PEOPLE_TO_ADD + 1 }),
    db.candidate.findMany({ where: { ...where, groups: { none: { groupId: id } } }, select, orderBy, take: PEOPLE_TO_ADD + 1 }),
  ]);
  return {
    students: students.slice(0, PEOPLE_TO_ADD),
    candidates: candidates.slice(0, PEOPLE_TO_ADD),
    truncated: students.length > PEOPLE_TO_ADD || candidates.length > PEOPLE_TO_ADD,
  };
}

/** Whether `actor` may change the group (one of its owners and editors, or an administrator): what its page offers. */
export async function canChangeGroup(actor: Actor, id: string) {
  await findGroup(actor, id);
  return editsGroup(actor, id);
}

/** How many groups a "group" select offers: more than a school year has classes. */
const GROUP_CHOICES = 200;

/** The organization's groups for a select (filters, "add to a group"), by name; `search` narrows them. */
export function groupChoices(actor: Actor, search?: string) {
  return db.group.findMany({
    where: { deletedAt: null, ...organizationScope(actor), ...(search ? { searchName: { contains: foldForSearch(search) } } : {}) },
    select: { id: true, name: true },
    orderBy: [{ searchName: "asc" }, { id: "asc" }],
    take: GROUP_CHOICES,
  });
}

/**
 * A student's or candidate's groups, and the groups `actor` may add them to (those the actor may
 * change and they are not in yet): the "Groups" block of their page.
 */
export async function personGroups(actor: Actor, person: { studentId: string } | { candidateId: string }) {
  const where = { deletedAt: null, ...organizationScope(actor) };
  const orderBy = [{ searchName: "asc" as const }, { id: "asc" as const }];
  const [memberOf, addable] = await Promise.all([
    db.group.findMany({ where: { ...where, members: { some: person } }, select: { id: true, name: true }, orderBy }),
    db.group.findMany({
      where: { ...where, members: { none: person }, ...(isAdmin(actor) ? {} : { staff: { some: editorOf(actor) } }) },
      select: { id: true, name: true },
      orderBy,
      take: GROUP_CHOICES,
    }),
  ]);
  return { memberOf, addable };
}

/** The page action "add to a group" of a student's or candidate's page. */
export function addPersonToGroup(actor: Actor, groupId: string, person: { studentId: string } | { candidateId: string }) {
  return addGroupMembers(
    actor,
    groupId,
    "studentId" in person ? { studentIds: [person.studentId], candidateIds: [] } : { studentIds: [], candidateIds: [person.candidateId] },
  );
}

/** The ids of a group's live members, for assigning to the whole group; 404 outside the caller's scope. */
export async function groupMemberIds(actor: Actor, id: string) {
  await findGroup(actor, id);
  const members = await db.groupMember.findMany({ where: { groupId: id, ...liveMember }, select: { studentId: true, candidateId: true } });
  return {
    studentIds: members.flatMap((member) => (member.studentId ? [member.studentId] : [])),
    candidateIds: members.flatMap((member) => (member.candidateId ? [member.candidateId] : [])),
  };
}

/** One group for a select, when a page preselects it (null outside the caller's scope). */
export function groupChoice(actor: Actor, id: string) {
  return db.group.findFirst({ where: { id, deletedAt: null, ...organizationScope(actor) }, select: { id: true, name: true } });
}
