import type { Actor } from "~/lib/auth/actor.server.ts";
import { organizationScope, requireAdmin } from "~/lib/auth/actor.server.ts";
import { endAccountAccess } from "~/lib/auth/end-access.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { badRequest, fieldProblem, forbidden, notFound } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { foldForSearch } from "~/lib/search.ts";
import type { ListUsersQuery, UpdateUserInput } from "./user-admin-schemas.ts";
import { changedFields, recordAudit } from "../audit/audit.server.ts";

/**
 * Administrators manage the logins of their organization (a SUPER_ADMIN those of every
 * organization). Nobody can grant more than they have, and an ADMIN cannot touch a SUPER_ADMIN.
 */

const itemSelect = {
  id: true,
  email: true,
  name: true,
  role: true,
  isActive: true,
  twoFactorMethod: true,
  organization: { select: { id: true, name: true } },
  lastLoginAt: true,
  createdAt: true,
} satisfies Prisma.UserSelect;

const present = ({ twoFactorMethod, ...user }: Prisma.UserGetPayload<{ select: typeof itemSelect }>) => ({
  ...user,
  twoFactorEnabled: twoFactorMethod !== null,
});

export async function listUsers(caller: Actor, query: ListUsersQuery) {
  const actor = requireAdmin(caller);
  if (query.organizationId && actor.role !== "SUPER_ADMIN") throw forbidden("Only a SUPER_ADMIN may list another organization.");
  const where: Prisma.UserWhereInput = {
    deletedAt: null,
    ...organizationScope(actor),
    ...(query.organizationId ? { organizationId: query.organizationId } : {}),
    ...(query.search ? { searchName: { contains: foldForSearch(query.search) } } : {}),
    ...(query.role ? { role: query.role } : {}),
    ...(query.isActive !== undefined ? { isActive: query.isActive } : {}),
  };
  const [users, total] = await Promise.all([
    db.user.findMany({ where, select: itemSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(query) }),
    db.user.count({ where }),
  ]);
  return { users: users.map(present), total, page: query.page, limit: query.limit };
}

/**
 * Whether `caller` may manage a user of their scope: only administrators, and only a SUPER_ADMIN
 * may touch a SUPER_ADMIN (403). The one rule for a user's account, their sessions and their tokens.
 */
export function assertMayManage(caller: Actor, user: { role: string }): Actor {
  const actor = requireAdmin(caller);
  if (user.role === "SUPER_ADMIN" && actor.role !== "SUPER_ADMIN") throw forbidden("Only a SUPER_ADMIN may manage a SUPER_ADMIN.");
  return actor;
}

/**
 * A user the caller may manage. Scope comes before role (another organization's user is 404 for
 * everyone); then {@link assertMayManage}.
 */
export async function findManagedUser(caller: Actor, id: string) {
  const user = await db.user.findFirst({
    where: { id, deletedAt: null, ...organizationScope(caller) },
    select: { id: true, role: true, organizationId: true },
  });
  if (!user) throw notFound("user");
  const actor = assertMayManage(caller, user);
  return { user, actor };
}

export async function updateUser(caller: Actor, id: string, input: UpdateUserInput) {
  const { user, actor } = await findManagedUser(caller, id);
  if (input.role === "SUPER_ADMIN" && actor.role !== "SUPER_ADMIN") throw forbidden("Only a SUPER_ADMIN may grant SUPER_ADMIN.");
  if (input.role !== undefined && user.role === "STUDENT") {
    throw badRequest("A student's login keeps the STUDENT role.", [fieldProblem("role", "studentKeepsRole")]);
  }
  if (id === actor.userId && (input.isActive === false || input.resetTwoFactor || (input.role !== undefined && input.role !== actor.role))) {
    throw badRequest("You cannot deactivate or demote your own account; ask another administrator.", [
      fieldProblem(input.isActive === false ? "isActive" : "role", "notYourself"),
    ]);
  }
  await db.$transaction(async (tx) => {
    const current = await tx.user.findUniqueOrThrow({ where: { id }, select: { email: true, name: true } });
    await tx.user.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name, searchName: foldForSearch(`${input.name} ${current.email}`) } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
      },
    });
    if (input.role === "TEACHER") {
      await tx.teacher.upsert({ where: { userId: id }, update: {}, create: { userId: id, organizationId: user.organizationId } });
    }
    // A user who lost their phone or mailbox signs in with the password alone afterwards and enrols
    // again; whoever held the old factor loses any session it gave them.
    if (input.resetTwoFactor) {
      await tx.user.update({ where: { id }, data: { twoFactorMethod: null, totpSecretEncrypted: null, totpLastUsedStep: null } });
      await tx.verification.updateMany({
        where: { userId: id, usedAt: null, purpose: { in: ["TWO_FACTOR_EMAIL_CODE", "TOTP_SETUP"] } },
        data: { usedAt: new Date() },
      });
    }
    // Deactivation and a second-factor reset end every session and API token at once; the sign-in
    // check refuses inactive users from then on, and reactivation revives none of them.
    if (input.isActive === false || input.resetTwoFactor) await endAccountAccess(tx, id);
    // The new role and activity are no one's personal data; the new name stays out (§20).
    await recordAudit(tx, {
      by: actor,
      action: "user.updated",
      targetId: id,
      organizationId: user.organizationId,
      details: {
        fields: changedFields(input),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
      },
    });
  });
  const updated = await db.user.findUniqueOrThrow({ where: { id }, select: itemSelect });
  return present(updated);
}

/** Ends every session of the user and, with them, every API token (ADR 43). Answers how many sessions ended. */
export async function revokeSessions(caller: Actor, id: string) {
  const { user, actor } = await findManagedUser(caller, id);
  const { sessions } = await db.$transaction(async (tx) => {
    const ended = await endAccountAccess(tx, id);
    await recordAudit(tx, {
      by: actor,
      action: "user.updated",
      targetId: id,
      organizationId: user.organizationId,
      details: { fields: ["sessions"], sessionsEnded: ended.sessions, tokensEnded: ended.tokens },
    });
    return ended;
  });
  return { revoked: sessions };
}
