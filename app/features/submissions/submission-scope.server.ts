import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, organizationScope } from "~/lib/auth/actor.server.ts";
import type { Prisma } from "~/lib/db.server.ts";

/**
 * The submissions a caller may see (spec §1 rules 3 and 4): administrators every submission of
 * their organization, teachers the ones they assigned, students the ones they answer.
 */
export function visibleSubmissionsWhere(actor: Actor): Prisma.SubmissionWhereInput {
  const base: Prisma.SubmissionWhereInput = { deletedAt: null, ...organizationScope(actor) };
  if (isAdmin(actor)) return base;
  if (actor.role === "STUDENT") return { ...base, student: { userId: actor.userId } };
  return { ...base, assignedById: actor.userId };
}

/** A submission as it appears in a person's history. */
export const historySelect = {
  id: true,
  form: { select: { id: true, title: true } },
  isCompleted: true,
  completedAt: true,
  totalScore: true,
  maxScore: true,
  percentage: true,
  scoreLabel: true,
  scoreColor: true,
  createdAt: true,
} satisfies Prisma.SubmissionSelect;
