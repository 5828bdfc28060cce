import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { badRequest, conflict, fieldProblem, forbidden } from "~/lib/problem.server.ts";
import { findGroup, staffRoleIn } from "./groups.server.ts";
import type { GroupStaffInput } from "./group-schemas.ts";
import { GROUP_STAFF_ROLES } from "./group-staff-roles.ts";
import { recordAudit } from "../audit/audit.server.ts";

/**
 * A group's staff (docs/api-contract.md §19, ADR 86): the teachers and administrators who share
 * it. Every staff user of the organization reads it, as they read the group; its owners and the
 * administrators replace it. What a role lets one see and do is in the scope layer
 * (submission-scope.server.ts), read from the caller's `staffOf`.
 */

const roleOrder = (role: string) => GROUP_STAFF_ROLES.indexOf(role as (typeof GROUP_STAFF_ROLES)[number]);

/** The staff, owners first, then by name. 404 outside the caller's organization. */
export async function getGroupStaff(actor: Actor, groupId: string) {
  await findGroup(actor, groupId);
  const rows = await db.groupStaff.findMany({ where: { groupId }, select: { userId: true, role: true, user: { select: { name: true } } } });
  const staff = rows
    .map((row) => ({ userId: row.userId, name: row.user.name, role: row.role }))
    .sort((a, b) => roleOrder(a.role) - roleOrder(b.role) || a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
  return { staff };
}

/** Whether `actor` may change the group's staff: an administrator or one of its owners (as it is now, not as the request began). */
export async function ownsGroup(actor: Actor, groupId: string) {
  return isAdmin(actor) || (await staffRoleIn(actor, groupId)) === "OWNER";
}

/** Who may be on a group's staff: the live teachers and administrators of its organization. */
const colleaguesOf = (organizationId: string) => ({ organizationId, deletedAt: null, role: { in: ["TEACHER" as const, "ADMIN" as const] } });

/**
 * The colleagues an owner may add to the staff (the group page's choice): the organization's
 * active teachers and administrators not on it yet, by name. Everyone else gets none.
 */
export async function colleaguesToAdd(actor: Actor, groupId: string) {
  const group = await findGroup(actor, groupId);
  if (!(await ownsGroup(actor, groupId))) return [];
  return db.user.findMany({
    where: { ...colleaguesOf(group.organizationId), isActive: true, groupStaff: { none: { groupId } } },
    select: { id: true, name: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
}

/**
 * Replaces the staff with the one given: each a live TEACHER or ADMIN of the group's organization
 * (else 400 naming the entry), at least one OWNER (else 409 LAST_OWNER, so that someone other
 * than the administrators can always change it).
 */
export async function replaceGroupStaff(actor: Actor, groupId: string, input: GroupStaffInput) {
  const group = await findGroup(actor, groupId);
  if (!(await ownsGroup(actor, groupId))) throw forbidden("Only the group's owners or an administrator may change its staff.");
  const userIds = input.staff.map((entry) => entry.userId);
  const colleagues = await db.user.findMany({
    where: { id: { in: userIds }, ...colleaguesOf(group.organizationId) },
    select: { id: true },
  });
  const known = new Set(colleagues.map((user) => user.id));
  const strangers = input.staff.flatMap((entry, index) => (known.has(entry.userId) ? [] : [fieldProblem(`staff.${index}.userId`, "staffNotColleague")]));
  if (strangers.length > 0) throw badRequest("Staff must be teachers or administrators of the organization.", strangers);
  if (!input.staff.some((entry) => entry.role === "OWNER")) throw conflict("A group keeps at least one owner.", "LAST_OWNER");
  await db.$transaction(async (tx) => {
    await tx.groupStaff.deleteMany({ where: { groupId } });
    await tx.groupStaff.createMany({ data: input.staff.map((entry) => ({ groupId, userId: entry.userId, role: entry.role })) });
    // The staff as it is now, by user id: staff are colleagues, named by id as every actor is.
    await recordAudit(tx, {
      by: actor,
      action: "group.staff_changed",
      targetId: groupId,
      organizationId: group.organizationId,
      details: { staff: input.staff.map(({ userId, role }) => ({ userId, role })) },
    });
  });
  return getGroupStaff(actor, groupId);
}
